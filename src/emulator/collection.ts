/** One kind's records, kept in id order so that get is a map lookup and paging a binary search. */

/** A stored object: response member names, references as bare ids, secrets as written. */
export interface StoredRecord {
  readonly id: string;
  /** Absent for kinds without `created_at` (tunnel sessions carry `started_at`). */
  readonly created_at?: string;
  values: Record<string, unknown>;
  /** State the API never returns (token hash, agent labels). */
  hidden: Record<string, unknown>;
}

/** Index of the first element of sorted `ids` that is not below `id`. */
function lowerBound(ids: readonly string[], id: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ids[mid] ?? '') < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class Collection {
  readonly #byId = new Map<string, StoredRecord>();
  /** Ascending; new ids are always the largest, so inserts append. */
  readonly #ids: string[] = [];

  get size(): number {
    return this.#ids.length;
  }

  get(id: string): StoredRecord | undefined {
    return this.#byId.get(id);
  }

  add(record: StoredRecord): void {
    const last = this.#ids.at(-1);
    if (last === undefined || last < record.id) this.#ids.push(record.id);
    else this.#ids.splice(lowerBound(this.#ids, record.id), 0, record.id);
    this.#byId.set(record.id, record);
  }

  remove(id: string): boolean {
    if (!this.#byId.delete(id)) return false;
    const at = lowerBound(this.#ids, id);
    if (this.#ids[at] === id) this.#ids.splice(at, 1);
    return true;
  }

  /** Newest first: up to `limit` records with ids below `beforeId` (all when undefined). */
  page(limit: number, beforeId: string | undefined): { records: StoredRecord[]; more: boolean } {
    const end = beforeId === undefined ? this.#ids.length : lowerBound(this.#ids, beforeId);
    const start = Math.max(0, end - limit);
    const records: StoredRecord[] = [];
    for (let i = end - 1; i >= start; i--) {
      const record = this.#byId.get(this.#ids[i] ?? '');
      if (record) records.push(record);
    }
    return { records, more: start > 0 };
  }

  /** Every record, oldest first. */
  all(): StoredRecord[] {
    return this.#ids.flatMap((id) => this.#byId.get(id) ?? []);
  }
}
