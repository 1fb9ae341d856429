/**
 * Objects and the references between them as a graph, for pictures (`graph`, the markdown plan's
 * mermaid block): a plan's change, from its operations and their `dependsOn`, or a whole desired
 * state, from its references. Only data: `render-mermaid.ts` and `render-dot.ts` draw it.
 */
import {
  builtinKinds,
  findReferences,
  isObjectKey,
  type DesiredState,
  type KindName,
  type KindRegistry,
} from '../resources/index.js';
import { shownKey } from './render-common.js';
import { namesOfIds } from './render-tree.js';
import type { FieldChange, Operation, Plan } from './types.js';

/**
 * What happens to an object: a plan's actions (a replace is one node), `context` for an unchanged
 * object a changed one references, `object` for an object of a desired state drawn without a plan,
 * `nearby` for one drawn only because it is next to the objects a filter chose.
 */
export type GraphAction =
  'create' | 'update' | 'replace' | 'rename' | 'delete' | 'adopt' | 'context' | 'object' | 'nearby';

export interface GraphNode {
  /** Unique in its graph; not shown (a key alone is not unique: a duplicate deleted beside its entry). */
  readonly id: string;
  readonly key: string;
  /** Its kind, when known (a context object the plan names by key alone has none). */
  readonly kind?: KindName;
  readonly action: GraphAction;
  /** On a rename: the key before. */
  readonly renamedFrom?: string;
  /** The change puts back an edit made outside acctsync (its operation's `cause` is drift or both). */
  readonly drift?: boolean;
}

/** The plan's symbols (as the text plan writes them); objects not changed have none. */
export const actionSymbols: Readonly<Record<GraphAction, string>> = {
  create: '+',
  update: '~',
  replace: '-/+',
  rename: '~>',
  delete: '-',
  adopt: '<=',
  context: '',
  object: '',
  nearby: '',
};

/** What follows a node's kind: that the change undoes drift, that the object is unchanged. */
export function nodeNotes(node: Pick<GraphNode, 'action' | 'drift'>): string[] {
  return [
    ...(node.drift === true ? ['changed outside acctsync'] : []),
    ...(node.action === 'context' ? ['unchanged'] : []),
  ];
}

/**
 * A node's text, untrusted and not yet escaped: its symbol and key (a rename's old key first),
 * then its kind and notes, when it has any.
 */
export function nodeLines(node: GraphNode, kinds: KindRegistry = builtinKinds): string[] {
  const symbol = actionSymbols[node.action];
  const { kind, key: newKey, renamedFrom } = node;
  // A rename as the text plan heads it.
  const key =
    renamedFrom === undefined || kind === undefined
      ? newKey
      : shownKey({ topLevel: kinds.descriptorOf(kind).parent === undefined, key: newKey, renamedFrom });
  const second = [
    ...(node.kind === undefined ? [] : [kinds.descriptorOf(node.kind).title]),
    ...nodeNotes(node),
  ];
  return [symbol === '' ? key : `${symbol} ${key}`, ...(second.length === 0 ? [] : [second.join(', ')])];
}

/** `from` is needed first: created (or moved off, for a delete) before `to` runs. */
interface GraphEdge {
  readonly from: string;
  readonly to: string;
  /** A reference no operation waits for (an unchanged object's, one updated in place). */
  readonly context?: boolean;
}

export interface ObjectGraph {
  /** In the order the applier reaches them (a desired state's: the config's). */
  readonly nodes: readonly GraphNode[];
  /** In the order the applier runs their ends. */
  readonly edges: readonly GraphEdge[];
}

/** The node an operation belongs to: both halves of a replace share one, as do an update and its releasing PATCH. */
function nodeIdOf(op: Operation): string {
  if (op.replaces !== undefined) return `key ${op.replaces}`;
  return op.action === 'delete' ? op.id : `key ${op.key}`;
}

function nodeOf(op: Operation): GraphNode {
  const drift = op.cause === 'drift' || op.cause === 'both';
  return {
    id: nodeIdOf(op),
    key: op.replaces ?? op.key,
    kind: op.kind,
    action: op.replaces === undefined ? op.action : 'replace',
    ...(op.renamedFrom === undefined ? {} : { renamedFrom: op.renamedFrom }),
    ...(drift ? { drift } : {}),
  };
}

/** A change's value at its path, as the fields of its object would hold it. */
function asFields(change: FieldChange): Record<string, unknown> {
  let value: unknown = change.after;
  for (const segment of [...change.path].reverse()) {
    if (typeof segment === 'number') {
      const list: unknown[] = [];
      list[segment] = value;
      value = list;
    } else value = { [segment]: value };
  }
  return value as Record<string, unknown>;
}

/** The keys of the objects an operation's new values reference (ids of managed objects as their keys). */
function referencedKeys(op: Operation, names: ReadonlyMap<string, string>, kinds: KindRegistry): string[] {
  const fields = kinds.descriptorOf(op.kind).fields;
  const refs = op.changes
    .filter((c) => Object.hasOwn(c, 'after'))
    .flatMap((c) => findReferences(fields, asFields(c)).map((r) => r.ref));
  const keys = refs.flatMap((ref) => {
    const key = isObjectKey(ref) ? ref : names.get(ref);
    return key === undefined ? [] : [key];
  });
  return op.parentKey === undefined ? keys : [op.parentKey, ...keys];
}

/** Adds nodes and edges once each, keeping the order they were first added in. */
class GraphBuilder {
  readonly #nodes = new Map<string, GraphNode>();
  readonly #edges = new Map<string, GraphEdge>();

  has(id: string): boolean {
    return this.#nodes.has(id);
  }

  node(node: GraphNode): void {
    if (!this.#nodes.has(node.id)) this.#nodes.set(node.id, node);
  }

  edge(edge: GraphEdge): void {
    const id = JSON.stringify([edge.from, edge.to]);
    if (edge.from !== edge.to && !this.#edges.has(id)) this.#edges.set(id, edge);
  }

  build(): ObjectGraph {
    return { nodes: [...this.#nodes.values()], edges: [...this.#edges.values()] };
  }
}

/**
 * The objects a plan changes, in the applier's order, with the edges of `dependsOn`; and, muted,
 * the unchanged objects their new values reference (and a nested object's parent), with a
 * `context` edge to each referrer, as is a reference to a changed object no operation waits for.
 */
export function planGraph(plan: Plan, kinds: KindRegistry = builtinKinds): ObjectGraph {
  const graph = new GraphBuilder();
  const nodeOfOp = new Map(plan.operations.map((op) => [op.id, nodeIdOf(op)]));
  for (const op of plan.operations) graph.node(nodeOf(op));
  const names = namesOfIds(plan);
  for (const op of plan.operations) {
    const to = nodeIdOf(op);
    for (const dep of op.dependsOn) {
      const from = nodeOfOp.get(dep);
      if (from !== undefined) graph.edge({ from, to });
    }
    if (op.action === 'delete') continue;
    for (const key of referencedKeys(op, names, kinds)) {
      // A changed object it references but need not wait for (updated in place): a dashed arrow.
      if (graph.has(`key ${key}`)) {
        graph.edge({ from: `key ${key}`, to, context: true });
        continue;
      }
      const liveId = plan.resolvedIds[key];
      const kind = liveId === undefined ? undefined : kinds.descriptorOfId(liveId)?.kind;
      graph.node({ id: `context ${key}`, key, action: 'context', ...(kind === undefined ? {} : { kind }) });
      graph.edge({ from: `context ${key}`, to, context: true });
    }
  }
  return graph.build();
}

/** The whole desired state: every object, an edge from each object it references (and its parent) to it. */
export function desiredGraph(state: DesiredState, kinds: KindRegistry = builtinKinds): ObjectGraph {
  const graph = new GraphBuilder();
  const keys = new Set(state.objects.map((o) => o.key));
  for (const o of state.objects)
    graph.node({ id: `key ${o.key}`, key: o.key, kind: o.kind, action: 'object' });
  for (const o of state.objects) {
    const refs = findReferences(kinds.descriptorOf(o.kind).fields, o.fields).map((r) => r.ref);
    for (const ref of o.parentKey === undefined ? refs : [o.parentKey, ...refs]) {
      if (keys.has(ref)) graph.edge({ from: `key ${ref}`, to: `key ${o.key}` });
    }
  }
  return graph.build();
}

/**
 * The nodes `selected` keeps and, muted as `nearby` (or `context`, as they were), the objects one
 * edge away from them either way (what they reference, what references them); the edges to those.
 */
export function neighbourhood(graph: ObjectGraph, selected: (node: GraphNode) => boolean): ObjectGraph {
  const chosen = new Set(graph.nodes.filter(selected).map((n) => n.id));
  const near = new Set(chosen);
  for (const e of graph.edges) {
    if (chosen.has(e.from)) near.add(e.to);
    if (chosen.has(e.to)) near.add(e.from);
  }
  const nodes = graph.nodes.flatMap((n): GraphNode[] => {
    if (chosen.has(n.id)) return [n];
    if (!near.has(n.id)) return [];
    const action = n.action === 'context' ? 'context' : 'nearby';
    return [{ id: n.id, key: n.key, action, ...(n.kind === undefined ? {} : { kind: n.kind }) }];
  });
  const edges = graph.edges.flatMap((e): GraphEdge[] => {
    if (!near.has(e.from) || !near.has(e.to)) return [];
    // Between two neighbours: not part of what was asked for.
    if (!chosen.has(e.from) && !chosen.has(e.to)) return [];
    return [e];
  });
  return { nodes, edges };
}
