/**
 * Reading back the graphs acctsync prints (mermaid flowcharts, Graphviz DOT) line by line: every
 * line must be one the grammar below knows, so a label that broke out of its quotes fails the test.
 */

export interface DrawnNode {
  readonly id: string;
  /** The label decoded: entities back to characters, `<br>` (mermaid) or `\n` (DOT) as a line break. */
  readonly label: string;
  /** Mermaid: the shape's opening bracket (`([`, `{{`, ...); DOT: the `shape=` attribute. */
  readonly shape: string;
  /** Mermaid: the class (`create`, `context`, ...); DOT: the attribute list after the label. */
  readonly style: string;
}

export interface DrawnEdge {
  readonly from: string;
  readonly to: string;
  readonly dotted: boolean;
  /** Mermaid's edge label (a count, when drawn by kind). */
  readonly count?: number;
}

export interface Drawing {
  readonly nodes: ReadonlyMap<string, DrawnNode>;
  readonly edges: readonly DrawnEdge[];
  /** Mermaid's classDef names. */
  readonly classes: readonly string[];
}

/** The bodies of the markdown's ```mermaid blocks. */
export function mermaidBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```mermaid\n([\s\S]*?)\n```$/gm)].map((m) => m[1] ?? '');
}

const shapes: Readonly<Record<string, string>> = {
  '([': '])',
  '[[': ']]',
  '[/': '/]',
  '{{': '}}',
  '[(': ')]',
  '(': ')',
  '[': ']',
};

const mermaidNode =
  /^ {2}(n\d+|k\d+)(\(\[|\[\[|\[\/|\{\{|\[\(|\(|\[)"([^"]*)"(\]\)|\]\]|\/\]|\}\}|\)\]|\)|\]):::(\w+)$/;
const mermaidEdge = /^ {2}(n\d+|k\d+) (-->|-\.->)(?:\|(\d+)\|)? (n\d+|k\d+)$/;
const mermaidClass = /^ {2}classDef (\w+) [\w:#,.\- ]+$/;

function decodeMermaid(label: string): string {
  return label
    .replace(/<br>/g, '\n')
    .replace(/#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)));
}

/** A flowchart as acctsync writes it; throws on the first line it cannot read. */
export function parseMermaid(text: string): Drawing {
  const lines = text.replace(/\n$/, '').split('\n');
  if (lines[0] !== 'flowchart LR') throw new Error(`not a flowchart: ${lines[0] ?? ''}`);
  const nodes = new Map<string, DrawnNode>();
  const edges: DrawnEdge[] = [];
  const classes: string[] = [];
  for (const line of lines.slice(1)) {
    const c = mermaidClass.exec(line);
    const n = mermaidNode.exec(line);
    const e = mermaidEdge.exec(line);
    if (c !== null) classes.push(c[1] ?? '');
    else if (n !== null) {
      const [, id = '', open = '', label = '', close = '', style = ''] = n;
      if (shapes[open] !== close) throw new Error(`shape ${open} closed by ${close}: ${line}`);
      if (/[<>`[\]{}"]/.test(label.replace(/<br>/g, ''))) throw new Error(`label not escaped: ${line}`);
      nodes.set(id, { id, label: decodeMermaid(label), shape: open, style });
    } else if (e !== null) {
      const [, from = '', arrow = '', count, to = ''] = e;
      edges.push({
        from,
        to,
        dotted: arrow === '-.->',
        ...(count === undefined ? {} : { count: Number(count) }),
      });
    } else throw new Error(`not a line acctsync writes: ${JSON.stringify(line)}`);
  }
  for (const e of edges) {
    if (!nodes.has(e.from) || !nodes.has(e.to)) throw new Error(`edge to no node: ${e.from} -> ${e.to}`);
  }
  return { nodes, edges, classes };
}

const dotString = String.raw`"((?:[^"\\]|\\.)*)"`;
const dotNode = new RegExp(String.raw`^ {2}(n\d+) \[label=${dotString}, (.*)\];$`);
const dotEdge = /^ {2}(n\d+) -> (n\d+)( \[style=dashed\])?;$/;
const dotAttributes = new RegExp(String.raw`^(?:\w+=(?:${dotString}|[\w.#]+)(?:, |$))+$`);

function decodeDot(label: string): string {
  return label.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c)).replace(/&amp;/g, '&');
}

/** A digraph as acctsync writes it; throws on the first line it cannot read. */
export function parseDot(text: string): Drawing {
  const lines = text.replace(/\n$/, '').split('\n');
  const head = ['digraph acctsync {', '  rankdir=LR;', '  node [fontname="Helvetica", fontsize=11];'];
  if (lines.slice(0, 3).join('\n') !== head.join('\n') || lines[lines.length - 1] !== '}')
    throw new Error(`not acctsync's digraph: ${lines.slice(0, 3).join(' / ')}`);
  const nodes = new Map<string, DrawnNode>();
  const edges: DrawnEdge[] = [];
  for (const line of lines.slice(3, -1)) {
    const n = dotNode.exec(line);
    const e = dotEdge.exec(line);
    if (n !== null) {
      const [, id = '', label = '', attributes = ''] = n;
      if (!dotAttributes.test(attributes)) throw new Error(`attributes not readable: ${line}`);
      const shape = /shape=(\w+)/.exec(attributes)?.[1] ?? '';
      nodes.set(id, { id, label: decodeDot(label), shape, style: attributes });
    } else if (e !== null) {
      edges.push({ from: e[1] ?? '', to: e[2] ?? '', dotted: e[3] !== undefined });
    } else throw new Error(`not a line acctsync writes: ${JSON.stringify(line)}`);
  }
  for (const e of edges) {
    if (!nodes.has(e.from) || !nodes.has(e.to)) throw new Error(`edge to no node: ${e.from} -> ${e.to}`);
  }
  return { nodes, edges, classes: [] };
}

/** The first line of each node's label (its symbol and key), by node id. */
export function keysOf(drawing: Drawing): Map<string, string> {
  return new Map([...drawing.nodes].map(([id, n]) => [id, n.label.split('\n')[0] ?? '']));
}

/** The edges as `first line of from -> first line of to`. */
export function edgeNames(drawing: Drawing): string[] {
  const keys = keysOf(drawing);
  return drawing.edges.map((e) => `${keys.get(e.from) ?? ''} -> ${keys.get(e.to) ?? ''}`);
}
