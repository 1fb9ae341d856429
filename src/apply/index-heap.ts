/** A binary min-heap of task indexes: ready tasks start in plan order. */
export class IndexHeap {
  readonly #items: number[] = [];

  get size(): number {
    return this.#items.length;
  }

  push(value: number): void {
    const items = this.#items;
    let i = items.length;
    items.push(value);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = items[parent] as number;
      if (p <= value) break;
      items[i] = p;
      i = parent;
    }
    items[i] = value;
  }

  /** The smallest index; the heap must not be empty. */
  pop(): number {
    const items = this.#items;
    const top = items[0] as number;
    const last = items.pop() as number;
    const n = items.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && (items[r] as number) < (items[l] as number) ? r : l;
        if ((items[c] as number) >= last) break;
        items[i] = items[c] as number;
        i = c;
      }
      items[i] = last;
    }
    return top;
  }
}
