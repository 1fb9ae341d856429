/**
 * The planner: a pure function of the desired state (`config/`) and the live state (`live/`) to a
 * `Plan` of plain data, with its renderers. `src/pipeline/` composes it with the two readers.
 */
export * from './types.js';
export { buildPlan } from './build.js';
export type { TokenFileView } from './steps/token-capture.js';
export { sensitiveValues } from './secrets.js';
export { formatMetadata, parseMetadata } from '../resources/ownership/marker.js';
export { renderText } from './render-text.js';
export { renderJson } from './render-json.js';
export { renderMarkdown, markdownLimit } from './render-markdown.js';
export { codeSpan, htmlText, markdownText } from './markdown-text.js';
export { desiredGraph, neighbourhood, planGraph, type GraphNode, type ObjectGraph } from './change-graph.js';
export { mermaidDefaults, mermaidOf, planMermaid } from './render-mermaid.js';
export { dotOf } from './render-dot.js';
