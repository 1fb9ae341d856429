/**
 * An object graph as a mermaid flowchart, within the limits of the renderer that draws it (GitHub
 * keeps mermaid's defaults: 50,000 characters and 500 edges a diagram): one node per object when
 * that fits, else one per kind and action, else none, each time with a note saying so. Keys are
 * untrusted (a delete's key comes from the account): labels are entity-escaped, ids generated.
 */
import { inert } from '../inert.js';
import { builtinKinds, countOf, type KindRegistry } from '../resources/index.js';
import {
  actionSymbols,
  nodeLines,
  nodeNotes,
  planGraph,
  type GraphAction,
  type GraphNode,
  type ObjectGraph,
} from './change-graph.js';
import type { Plan } from './types.js';

interface MermaidBudget {
  /** The diagram's text at most (mermaid's `maxTextSize`). */
  readonly maxChars: number;
  /** Edges at most (mermaid's `maxEdges`). */
  readonly maxEdges: number;
}

/** Mermaid's own defaults, which GitHub keeps. */
export const mermaidDefaults: MermaidBudget = { maxChars: 50_000, maxEdges: 500 };

interface MermaidDiagram {
  /** The flowchart, without its fence; absent when not even the summary by kind fits. */
  readonly text?: string;
  /** One node per object, one per kind and action, or no picture. */
  readonly detail: 'objects' | 'kinds' | 'none';
  /** The whole graph's size, whatever is drawn. */
  readonly objects: number;
  readonly edges: number;
}

/** A label in a shape: each action its own, so the picture reads without colour too. */
const shapes: Readonly<Record<GraphAction, readonly [string, string]>> = {
  create: ['([', '])'],
  update: ['[', ']'],
  replace: ['[[', ']]'],
  rename: ['[/', '/]'],
  delete: ['{{', '}}'],
  adopt: ['[(', ')]'],
  context: ['(', ')'],
  object: ['(', ')'],
  nearby: ['(', ')'],
};

type NodeClass = GraphAction | 'drift';

const classDefs: Readonly<Record<NodeClass, string>> = {
  create: 'fill:#dafbe1,stroke:#1a7f37',
  update: 'fill:#fff8c5,stroke:#9a6700',
  replace: 'fill:#ffebe9,stroke:#cf222e,stroke-width:3px',
  rename: 'fill:#ddf4ff,stroke:#0969da',
  delete: 'fill:#ffebe9,stroke:#cf222e,stroke-dasharray:5 3',
  adopt: 'fill:#fbefff,stroke:#8250df',
  drift: 'fill:#fff1e5,stroke:#bc4c00,stroke-width:3px',
  context: 'fill:#f6f8fa,stroke:#d0d7de,color:#6e7781',
  object: 'fill:#f6f8fa,stroke:#57606a',
  nearby: 'fill:#f6f8fa,stroke:#d0d7de,color:#6e7781',
};

/**
 * Text for inside a quoted mermaid label: made inert (line breaks and controls shown escaped),
 * then every character but letters, digits and harmless punctuation written as `#code;`, so no
 * value can end the label, the statement or the fence, or reach the page as HTML.
 */
function mermaidText(value: string): string {
  return inert(value).replace(/[^A-Za-z0-9 ./:_,=+*?!@$^'()\\-]/gu, (c) => `#${c.codePointAt(0) ?? 0};`);
}

function classOf(node: GraphNode): NodeClass {
  return node.drift === true ? 'drift' : node.action;
}

function labelOf(node: GraphNode, kinds: KindRegistry): string {
  return nodeLines(node, kinds).map(mermaidText).join('<br>');
}

interface Drawn {
  readonly id: string;
  readonly label: string;
  readonly action: GraphAction;
  readonly cls: NodeClass;
}

interface DrawnEdge {
  readonly from: string;
  readonly to: string;
  readonly dotted: boolean;
  readonly count?: number;
}

function flowchart(nodes: readonly Drawn[], edges: readonly DrawnEdge[]): string {
  const used = [...new Set(nodes.map((n) => n.cls))];
  const lines = [
    'flowchart LR',
    ...used.map((c) => `  classDef ${c} ${classDefs[c]}`),
    ...nodes.map((n) => {
      const [open, close] = shapes[n.action];
      return `  ${n.id}${open}"${n.label}"${close}:::${n.cls}`;
    }),
    ...edges.map((e) => {
      const arrow = e.dotted ? '-.->' : '-->';
      return `  ${e.from} ${arrow}${e.count === undefined ? '' : `|${e.count}|`} ${e.to}`;
    }),
  ];
  return `${lines.join('\n')}\n`;
}

function perObject(graph: ObjectGraph, kinds: KindRegistry): { text: string; edges: number } {
  const ids = new Map(graph.nodes.map((n, i) => [n.id, `n${i}`]));
  const nodes = graph.nodes.map((n, i) => ({
    id: `n${i}`,
    label: labelOf(n, kinds),
    action: n.action,
    cls: classOf(n),
  }));
  const edges = graph.edges.map((e) => ({
    from: ids.get(e.from) ?? '',
    to: ids.get(e.to) ?? '',
    dotted: e.context === true,
  }));
  return { text: flowchart(nodes, edges), edges: edges.length };
}

/** One node per kind (or a context object's config map) and class, edges between them counted. */
function perKind(graph: ObjectGraph, kinds: KindRegistry): { text: string; edges: number } {
  const groups = new Map<string, { node: GraphNode; count: number; id: string }>();
  const groupOf = new Map<string, string>();
  for (const n of graph.nodes) {
    const what = n.kind ?? n.key.slice(0, n.key.indexOf('/'));
    const group = JSON.stringify([classOf(n), n.action, what]);
    const found = groups.get(group);
    if (found === undefined) groups.set(group, { node: n, count: 1, id: `k${groups.size}` });
    else found.count += 1;
    groupOf.set(n.id, group);
  }
  const nodes = [...groups.values()].map(({ node, count, id }) => {
    const d = node.kind === undefined ? undefined : kinds.descriptorOf(node.kind);
    const what =
      d === undefined ? `${count} × ${node.key.slice(0, node.key.indexOf('/'))}` : countOf(d, count);
    const symbol = actionSymbols[node.action];
    const notes = nodeNotes(node);
    const text = `${symbol === '' ? '' : `${symbol} `}${what}${notes.length === 0 ? '' : `, ${notes.join(', ')}`}`;
    return { id, label: mermaidText(text), action: node.action, cls: classOf(node) };
  });
  const counted = new Map<string, DrawnEdge & { count: number }>();
  for (const e of graph.edges) {
    const from = groups.get(groupOf.get(e.from) ?? '')?.id;
    const to = groups.get(groupOf.get(e.to) ?? '')?.id;
    if (from === undefined || to === undefined || from === to) continue;
    const id = `${from} ${to}`;
    const found = counted.get(id);
    if (found === undefined) counted.set(id, { from, to, dotted: e.context === true, count: 1 });
    else found.count += 1;
  }
  const edges = [...counted.values()];
  return { text: flowchart(nodes, edges), edges: edges.length };
}

/** The most detailed flowchart of `graph` that fits `budget`; its objects are of `kinds`. */
export function mermaidOf(
  graph: ObjectGraph,
  budget: MermaidBudget = mermaidDefaults,
  kinds: KindRegistry = builtinKinds,
): MermaidDiagram {
  const size = { objects: graph.nodes.length, edges: graph.edges.length };
  const fits = (d: { text: string; edges: number }) =>
    d.text.length <= budget.maxChars && d.edges <= budget.maxEdges;
  // Drawing per object is linear: too many edges is known before drawing.
  if (graph.edges.length <= budget.maxEdges) {
    const whole = perObject(graph, kinds);
    if (fits(whole)) return { text: whole.text, detail: 'objects', ...size };
  }
  const grouped = perKind(graph, kinds);
  if (fits(grouped)) return { text: grouped.text, detail: 'kinds', ...size };
  return { detail: 'none', ...size };
}

/** The change of `plan` as a mermaid flowchart (the markdown plan's picture). */
export function planMermaid(
  plan: Plan,
  budget: MermaidBudget = mermaidDefaults,
  kinds: KindRegistry = builtinKinds,
): MermaidDiagram {
  return mermaidOf(planGraph(plan, kinds), budget, kinds);
}
