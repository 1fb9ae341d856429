/**
 * The plan format: what a plan says (its types, the requests it carries with their placeholders,
 * its JSON schema) and how it is shown (text, markdown, JSON, the change trees, policy findings).
 * The planner (`plan/`) writes it, the applier (`apply/`) reads it; neither reaches into the other.
 */
export * from './types.js';
export * from './deletes.js';
export { diffObject, structuralDiff } from './diff.js';
export * from './request-body.js';
export { renderText } from './render-text.js';
export { renderJson } from './render-json.js';
export { renderMarkdown, markdownLimit } from './render-markdown.js';
export { codeSpan, markdownText } from './markdown-text.js';
export { desiredGraph, neighbourhood, planGraph, type GraphNode, type ObjectGraph } from './change-graph.js';
export { mermaidDefaults, mermaidOf, planMermaid } from './render-mermaid.js';
export { dotOf } from './render-dot.js';
