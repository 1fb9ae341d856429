/**
 * Every stored object of the emulated account, by kind, and the indexes that keep the API's rules
 * cheap: referrers (integrity and cascades) and natural keys (409s). Records change only through
 * `add`, `update` and `delete`, so that the indexes never drift from them.
 */
import {
  claimKeys,
  claimScope,
  ErrorCode,
  type KindDescriptor,
  type KindName,
  type KindRegistry,
} from '../resources/index.js';
import { compare } from '../compare.js';
import { Collection, type StoredRecord } from './collection.js';
import { ApiFailure } from './failure.js';
import type { Located } from './model.js';
import { collectReferences } from './references.js';

/** Kinds whose objects are stored by id (event sources live inside their subscription). */
export function storedKinds(kinds: KindRegistry): KindDescriptor[] {
  return kinds.all.filter((d) => d.idPrefix !== undefined);
}

/** A path parameter or scope from a stored value (always a string id). */
export function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export class Store {
  /** The registry the emulator was started with: it serves those kinds and no others. */
  readonly kinds: KindRegistry;
  readonly #stored: readonly KindDescriptor[];
  readonly #collections = new Map<KindName, Collection>();
  /** target id → ids of the objects referencing it. */
  readonly #referrers = new Map<string, Set<string>>();
  /** natural key → id of the object holding it. */
  readonly #naturalKeys = new Map<string, string>();

  constructor(kinds: KindRegistry) {
    this.kinds = kinds;
    this.#stored = storedKinds(kinds);
    for (const d of this.#stored) this.#collections.set(d.kind, new Collection());
  }

  collection(kind: KindName): Collection {
    const collection = this.#collections.get(kind);
    if (collection === undefined) throw new Error(`${kind} has no stored collection`);
    return collection;
  }

  /** The `kind` object with this id; undefined also for kinds not stored by id. */
  get(kind: KindName, id: string): StoredRecord | undefined {
    return this.#collections.get(kind)?.get(id);
  }

  /** The object with this id, of whatever kind its prefix names. */
  find(id: string): Located | undefined {
    const d = this.kinds.descriptorOfId(id);
    const record = d === undefined ? undefined : this.get(d.kind, id);
    return d === undefined || record === undefined ? undefined : { d, record };
  }

  /** Objects of `child` kind whose parent is `parentId`, oldest first. */
  childrenOf(parentId: string, child: KindDescriptor): StoredRecord[] {
    const field = child.parent?.field;
    if (field === undefined) return [];
    return this.referrersOf(parentId)
      .sort(compare)
      .flatMap((id) => {
        const found = this.find(id);
        return found?.d === child && found.record.values[field] === parentId ? [found.record] : [];
      });
  }

  referrersOf(id: string): string[] {
    return [...(this.#referrers.get(id) ?? [])];
  }

  /** 409 when another object already holds one of the record's natural keys. */
  assertUnique(d: KindDescriptor, values: Readonly<Record<string, unknown>>, selfId?: string): void {
    for (const key of this.#keysOf(d, values)) {
      const holder = this.#naturalKeys.get(key);
      if (holder !== undefined && holder !== selfId) {
        const what = d.naturalKey?.fields.join(', ') ?? 'key';
        throw new ApiFailure(
          409,
          d.naturalKey?.claim?.code ?? ErrorCode.validationFailed,
          `the ${what} is already in use by ${holder}`,
          { conflicting_id: holder },
        );
      }
    }
  }

  add(d: KindDescriptor, record: StoredRecord): void {
    this.collection(d.kind).add(record);
    this.#index(d, record, +1);
  }

  update(d: KindDescriptor, record: StoredRecord, values: Record<string, unknown>): void {
    this.#index(d, record, -1);
    record.values = values;
    this.#index(d, record, +1);
  }

  delete(d: KindDescriptor, record: StoredRecord): void {
    this.#index(d, record, -1);
    this.collection(d.kind).remove(record.id);
  }

  /** Every stored object, for persistence. */
  *records(): Generator<Located> {
    for (const d of this.#stored) for (const record of this.collection(d.kind).all()) yield { d, record };
  }

  #index(d: KindDescriptor, record: StoredRecord, delta: 1 | -1): void {
    const targets = new Set(collectReferences(d.fields, record.values).map((r) => r.id));
    const parentId = d.parent === undefined ? undefined : record.values[d.parent.field];
    if (typeof parentId === 'string') targets.add(parentId);
    for (const target of targets) {
      let set = this.#referrers.get(target);
      if (delta > 0) {
        if (set === undefined) this.#referrers.set(target, (set = new Set()));
        set.add(record.id);
      } else if (set !== undefined) {
        set.delete(record.id);
        if (set.size === 0) this.#referrers.delete(target);
      }
    }
    for (const key of this.#keysOf(d, record.values)) {
      if (delta > 0) this.#naturalKeys.set(key, record.id);
      else if (this.#naturalKeys.get(key) === record.id) this.#naturalKeys.delete(key);
    }
  }

  /** The unique values the record claims (see `claimKeys`), scoped by its parent when per-parent. */
  #keysOf(d: KindDescriptor, values: Readonly<Record<string, unknown>>): string[] {
    return claimKeys(d, values, claimScope(d, values));
  }
}
