/**
 * An object graph in Graphviz's DOT language (`acctsync graph --format dot | dot -Tsvg`): the same
 * nodes and edges as the mermaid picture, shapes and colours by action. Keys are untrusted: labels
 * are quoted strings with every character DOT or Graphviz's label escapes would act on escaped,
 * node ids generated.
 */
import { inert } from '../inert.js';
import { builtinKinds, type KindRegistry } from '../resources/index.js';
import { nodeLines, type GraphAction, type ObjectGraph } from './change-graph.js';

/** Text for inside a DOT quoted label: inert, then `\` (Graphviz's `\N`, `\G`, ...), `"` and `&` (entities) escaped. */
function dotText(value: string): string {
  return inert(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/&/g, '&amp;');
}

const styles: Readonly<Record<GraphAction | 'drift', string>> = {
  create: 'shape=box, style="rounded,filled", fillcolor="#dafbe1", color="#1a7f37"',
  update: 'shape=box, style=filled, fillcolor="#fff8c5", color="#9a6700"',
  replace: 'shape=box, style=filled, peripheries=2, fillcolor="#ffebe9", color="#cf222e"',
  rename: 'shape=parallelogram, style=filled, fillcolor="#ddf4ff", color="#0969da"',
  delete: 'shape=hexagon, style="filled,dashed", fillcolor="#ffebe9", color="#cf222e"',
  adopt: 'shape=cylinder, style=filled, fillcolor="#fbefff", color="#8250df"',
  drift: 'style="filled,bold", fillcolor="#fff1e5", color="#bc4c00"',
  context: 'shape=box, style="rounded,filled", fillcolor="#f6f8fa", color="#d0d7de", fontcolor="#6e7781"',
  object: 'shape=box, style="rounded,filled", fillcolor="#f6f8fa", color="#57606a"',
  nearby: 'shape=box, style="rounded,filled", fillcolor="#f6f8fa", color="#d0d7de", fontcolor="#6e7781"',
};

/** The whole graph as one `digraph`; arrows go from what is needed first to what needs it. */
export function dotOf(graph: ObjectGraph, kinds: KindRegistry = builtinKinds): string {
  const ids = new Map(graph.nodes.map((n, i) => [n.id, `n${i}`]));
  const lines = [
    'digraph acctsync {',
    '  rankdir=LR;',
    '  node [fontname="Helvetica", fontsize=11];',
    ...graph.nodes.map((n, i) => {
      const style = n.drift === true ? `${styles[n.action]}, ${styles.drift}` : styles[n.action];
      return `  n${i} [label="${nodeLines(n, kinds).map(dotText).join('\\n')}", ${style}];`;
    }),
    ...graph.edges.map(
      (e) =>
        `  ${ids.get(e.from) ?? ''} -> ${ids.get(e.to) ?? ''}${e.context === true ? ' [style=dashed]' : ''};`,
    ),
    '}',
  ];
  return `${lines.join('\n')}\n`;
}
