/**
 * Directed graphs of ids, the one implementation the planner (ordering operations) and the applier
 * (checking and scheduling a plan) share. Every walk is iterative: a 50,000-long chain of
 * dependencies is an ordinary plan, and recursion would run out of stack on it.
 */

/** A binary min-heap ordered by `less`. */
export class MinHeap<T> {
  readonly #items: T[] = [];

  constructor(private readonly less: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.#items.length;
  }

  push(item: T): void {
    const a = this.#items;
    let i = a.length;
    a.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = a[parent] as T;
      if (!this.less(item, p)) break;
      a[i] = p;
      i = parent;
    }
    a[i] = item;
  }

  /** The least item, or undefined when the heap is empty. */
  pop(): T | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop() as T;
    const n = a.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && this.less(a[r] as T, a[l] as T) ? r : l;
        if (!this.less(a[c] as T, last)) break;
        a[i] = a[c] as T;
        i = c;
      }
      a[i] = last;
    }
    return top;
  }
}

/** A cycle of a graph: all the ids that wait on one another, and one closed walk through them. */
interface Cycle {
  /** The strongly connected component, in the order the walk completed it. */
  readonly members: readonly string[];
  /** A closed path along the edges, its first id repeated at the end (`a -> b -> a`). */
  readonly path: readonly string[];
}

/**
 * The first cycle of the graph, or undefined when it has none: Tarjan's strongly connected
 * components, walked from `ids` in their order and each id's edges in theirs, so the same graph
 * always gives the same cycle. A component counts when it has two or more ids, or one that waits
 * on itself. Edges to ids outside `ids` are ignored.
 */
export function findCycle(
  ids: Iterable<string>,
  edgesOf: (id: string) => Iterable<string>,
): Cycle | undefined {
  const known = new Set(ids);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  // The walk's path: each id with an iterator over the edges not yet followed.
  const walk: { id: string; edges: Iterator<string> }[] = [];
  const enter = (id: string): void => {
    index.set(id, index.size);
    low.set(id, index.size - 1);
    stack.push(id);
    onStack.add(id);
    walk.push({ id, edges: edgesOf(id)[Symbol.iterator]() });
  };
  for (const root of known) {
    if (index.has(root)) continue;
    enter(root);
    while (walk.length > 0) {
      const frame = walk[walk.length - 1] as (typeof walk)[number];
      const step = frame.edges.next();
      if (!step.done) {
        const next = step.value;
        if (!known.has(next)) continue;
        if (!index.has(next)) enter(next);
        else if (onStack.has(next)) low.set(frame.id, Math.min(low.get(frame.id) ?? 0, index.get(next) ?? 0));
        continue;
      }
      walk.pop();
      const parent = walk[walk.length - 1];
      if (parent !== undefined) low.set(parent.id, Math.min(low.get(parent.id) ?? 0, low.get(frame.id) ?? 0));
      if (low.get(frame.id) !== index.get(frame.id)) continue;
      const members: string[] = [];
      for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
        onStack.delete(top);
        members.push(top);
        if (top === frame.id) break;
      }
      const loops = members.length > 1 || [...edgesOf(frame.id)].includes(frame.id);
      if (loops) return { members, path: closedPath(members, edgesOf) };
    }
  }
  return undefined;
}

/** A closed walk inside one strongly connected component, from its first member. */
function closedPath(members: readonly string[], edgesOf: (id: string) => Iterable<string>): string[] {
  const inside = new Set(members);
  const first = members[members.length - 1] as string;
  const path = [first];
  const seen = new Map([[first, 0]]);
  for (let at = first; ;) {
    let next: string | undefined;
    for (const e of edgesOf(at)) {
      if (inside.has(e)) {
        next = e;
        break;
      }
    }
    // Every member of a component reaches another member, so `next` is always found.
    const to = next as string;
    path.push(to);
    const cut = seen.get(to);
    if (cut !== undefined) return path.slice(cut);
    seen.set(to, path.length - 1);
    at = to;
  }
}
