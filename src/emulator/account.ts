/**
 * The emulated account: every stored object, the indexes that keep the API's rules cheap
 * (referrers for integrity and cascades, natural keys for 409s, token hashes for auth), principals,
 * simulated agents and event deliveries. Request handlers change it only through these methods so
 * that the indexes never drift from the records.
 */
import { createHash } from 'node:crypto';
import {
  descriptorOfId,
  claimKeys,
  claimScope,
  descriptors,
  ErrorCode,
  type KindDescriptor,
  type KindName,
} from '../resources/index.js';
import { Collection, type StoredRecord } from './collection.js';
import { ApiFailure } from './failure.js';
import type { Delivery } from './events.js';
import type { IdGenerator } from './ids.js';
import type { Agent } from './sessions.js';
import { collectReferences } from './references.js';
import { renderFields, type UriResolver } from './render.js';

/** A user or bot that can own API keys and credentials. */
export interface Principal {
  readonly id: string;
  readonly kind: 'user' | 'bot';
  readonly admin: boolean;
}

/** A found object and its kind. */
export interface Located {
  readonly d: KindDescriptor;
  readonly record: StoredRecord;
}

/** Adds computed members to a kind's responses (tunnel group `tunnels`, event source `uri`). */
export type Decorator = (out: Record<string, unknown>, record: StoredRecord, account: Account) => void;

/**
 * What a decorator reads besides the record itself and the addresses of objects: the kinds whose
 * every change can change its output (tunnel groups read the online sessions). A kind with a
 * decorator that is not listed here is never cached.
 */
export type DecoratorInputs = Partial<Record<KindName, readonly KindName[]>>;

/** Token hashes memoized, at most (API keys only: a wrong token is hashed every time). */
const MAX_MEMOIZED_TOKENS = 1024;

/** SHA-256 of a token: tokens are stored only as this. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A path parameter or scope from a stored value (always a string id). */
function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Kinds whose objects are stored by id (event sources live inside their subscription). */
const storedKinds = (Object.values(descriptors) as KindDescriptor[]).filter((d) => d.idPrefix !== undefined);

/** Children embedded in their parent's record (`routes` of an HTTPS edge), by parent kind. */
const embeddedChildren = new Map<KindName, Array<{ child: KindDescriptor; member: string }>>();
for (const d of storedKinds) {
  if (d.parent?.embeddedAs === undefined) continue;
  const list = embeddedChildren.get(d.parent.kind) ?? [];
  list.push({ child: d, member: d.parent.embeddedAs });
  embeddedChildren.set(d.parent.kind, list);
}

/** Service-side processes that follow the API's writes (certificate provisioning). */
export interface Lifecycle {
  /** After a create (`before` undefined) or an update of `record`. */
  written(
    d: KindDescriptor,
    record: StoredRecord,
    before: Readonly<Record<string, unknown>> | undefined,
  ): void;
  removed(d: KindDescriptor, record: StoredRecord): void;
}

export class Account implements UriResolver {
  readonly origin: string;
  readonly ids: IdGenerator;
  readonly now: () => Date;
  readonly principals = new Map<string, Principal>();
  /** Event deliveries, oldest first (capped: see `events.ts`). */
  readonly deliveries: Delivery[] = [];
  /** Simulated agents, by id. */
  readonly agents = new Map<string, Agent>();
  readonly #collections = new Map<KindName, Collection>();
  /** target id → ids of the objects referencing it. */
  readonly #referrers = new Map<string, Set<string>>();
  /** natural key → id of the object holding it. */
  readonly #naturalKeys = new Map<string, string>();
  /** token hash → API key id. */
  readonly #apiKeyTokens = new Map<string, string>();
  readonly #decorators: Partial<Record<KindName, Decorator>>;
  /**
   * The JSON text of each object's response, by id: built on first read, dropped when the object,
   * an object whose address it shows, one of its embedded children or a decorator input changes.
   */
  readonly #rendered = new Map<string, string>();
  /** id → ids of the cached responses that showed its address (read through `uriOf`). */
  readonly #readers = new Map<string, Set<string>>();
  /** The ids whose address the rendering under way reads; undefined when nothing is cached. */
  #reading: Set<string> | undefined;
  /** kind → the kinds whose cached responses one of its changes invalidates (decorator inputs). */
  readonly #dependentKinds = new Map<KindName, KindName[]>();
  /** Kinds whose responses are cached. */
  readonly #cacheable = new Set<KindName>();
  /** Bearer token → its hash, for tokens that named an API key (memory only, never saved). */
  readonly #tokenHashes = new Map<string, string>();
  lifecycle: Lifecycle = { written: () => undefined, removed: () => undefined };
  /** Called after every change, so that persistence can schedule a save. */
  onChange: () => void = () => undefined;

  constructor(options: {
    origin: string;
    ids: IdGenerator;
    now: () => Date;
    decorators: Partial<Record<KindName, Decorator>>;
    decoratorInputs?: DecoratorInputs;
  }) {
    this.origin = options.origin;
    this.ids = options.ids;
    this.now = options.now;
    this.#decorators = options.decorators;
    const inputs = options.decoratorInputs ?? {};
    for (const d of storedKinds) {
      this.#collections.set(d.kind, new Collection());
      const read = Object.hasOwn(inputs, d.kind) ? inputs[d.kind] : undefined;
      if (this.#decorators[d.kind] === undefined || read !== undefined) this.#cacheable.add(d.kind);
      for (const input of read ?? []) {
        const list = this.#dependentKinds.get(input) ?? [];
        list.push(d.kind);
        this.#dependentKinds.set(input, list);
      }
    }
  }

  timestamp(): string {
    // toISOString always ends in `.sssZ`: drop the milliseconds.
    return `${this.now().toISOString().slice(0, -5)}Z`;
  }

  collection(kind: KindName): Collection {
    const collection = this.#collections.get(kind);
    if (collection === undefined) throw new Error(`${kind} has no stored collection`);
    return collection;
  }

  /** The object with this id, of whatever kind its prefix names. */
  find(id: string): Located | undefined {
    const d = descriptorOfId(id);
    const record = d === undefined ? undefined : this.#collections.get(d.kind)?.get(id);
    return d === undefined || record === undefined ? undefined : { d, record };
  }

  /** The collection path of a kind, `{param}` segments filled from the record or `params`. */
  collectionPath(d: KindDescriptor, params: Readonly<Record<string, unknown>>): string {
    return d.path.replace(/\{(\w+)\}/g, (_, name: string) => stringOf(params[name]));
  }

  uriOf(id: string): string {
    this.#reading?.add(id);
    const found = this.find(id);
    const d = found?.d ?? descriptorOfId(id);
    if (d === undefined) return `${this.origin}/${id}`;
    const path = `${this.collectionPath(d, found?.record.values ?? {})}/${id}`;
    return d.uriIsPath ? path : this.origin + path;
  }

  /** The API's response for a stored object. */
  render(d: KindDescriptor, record: StoredRecord): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (d.parent?.via === 'path') out[d.parent.field] = record.values[d.parent.field];
    out.id = record.id;
    out.uri = this.uriOf(record.id);
    if (d.hasCreatedAt) out.created_at = record.created_at;
    Object.assign(out, renderFields(d.fields, record.values, this, true));
    for (const { child, member } of embeddedChildren.get(d.kind) ?? []) {
      out[member] = this.childrenOf(record.id, child).map((c) => this.render(child, c));
    }
    this.#decorators[d.kind]?.(out, record, this);
    return out;
  }

  /**
   * The JSON text of `render(d, record)`, cached for stored objects of cacheable kinds. Every
   * address the rendering reads is recorded, so that a change to that object drops this text.
   */
  renderJson(d: KindDescriptor, record: StoredRecord): string {
    const cached = this.#rendered.get(record.id);
    if (cached !== undefined) return cached;
    if (!this.#cacheable.has(d.kind) || this.#collections.get(d.kind)?.get(record.id) !== record) {
      return JSON.stringify(this.render(d, record));
    }
    const outer = this.#reading;
    const reading = new Set<string>();
    this.#reading = reading;
    let text: string;
    try {
      text = JSON.stringify(this.render(d, record));
    } finally {
      this.#reading = outer;
    }
    for (const id of reading) {
      outer?.add(id);
      if (id === record.id) continue;
      let readers = this.#readers.get(id);
      if (readers === undefined) this.#readers.set(id, (readers = new Set()));
      readers.add(record.id);
    }
    this.#rendered.set(record.id, text);
    return text;
  }

  /** Objects of `child` kind whose parent is `parentId`, oldest first. */
  childrenOf(parentId: string, child: KindDescriptor): StoredRecord[] {
    const field = child.parent?.field;
    if (field === undefined) return [];
    return this.referrersOf(parentId)
      .sort()
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

  insert(d: KindDescriptor, record: StoredRecord): void {
    this.collection(d.kind).add(record);
    this.#index(d, record, +1);
    this.#changed(d, record);
    this.onChange();
  }

  replace(d: KindDescriptor, record: StoredRecord, values: Record<string, unknown>): void {
    this.#changed(d, record);
    this.#index(d, record, -1);
    record.values = values;
    this.#index(d, record, +1);
    this.#changed(d, record);
    this.onChange();
  }

  remove(d: KindDescriptor, record: StoredRecord): void {
    this.#changed(d, record);
    this.#index(d, record, -1);
    this.collection(d.kind).remove(record.id);
    this.#changed(d, record);
    this.onChange();
  }

  /** The API key a bearer token belongs to. */
  apiKeyOfToken(token: string): StoredRecord | undefined {
    const memoized = this.#tokenHashes.get(token);
    const hash = memoized ?? hashToken(token);
    const id = this.#apiKeyTokens.get(hash);
    if (id === undefined) return undefined;
    if (memoized === undefined) {
      if (this.#tokenHashes.size >= MAX_MEMOIZED_TOKENS) this.#tokenHashes.clear();
      this.#tokenHashes.set(token, hash);
    }
    return this.collection('api_keys').get(id);
  }

  /**
   * Drops the cached responses a change to `record` can make stale: its own, those that show its
   * address, its ancestors' (which embed their children) and those of the kinds that read its kind.
   */
  #changed(d: KindDescriptor, record: StoredRecord): void {
    this.#drop(record.id);
    let link = d.parent;
    let parentId: unknown = link === undefined ? undefined : record.values[link.field];
    for (let depth = 0; link !== undefined && typeof parentId === 'string' && depth < 8; depth++) {
      this.#drop(parentId);
      const parent = this.#collections.get(link.kind)?.get(parentId);
      const parentLink: KindDescriptor['parent'] = descriptors[link.kind].parent;
      parentId = parentLink === undefined ? undefined : parent?.values[parentLink.field];
      link = parentLink;
    }
    for (const kind of this.#dependentKinds.get(d.kind) ?? []) {
      for (const other of this.collection(kind).all()) this.#drop(other.id);
    }
  }

  #drop(id: string): void {
    this.#rendered.delete(id);
    const readers = this.#readers.get(id);
    if (readers === undefined) return;
    this.#readers.delete(id);
    for (const reader of readers) this.#rendered.delete(reader);
  }

  /** Every stored object, for persistence. */
  *records(): Generator<Located> {
    for (const d of storedKinds) for (const record of this.collection(d.kind).all()) yield { d, record };
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
    const tokenHash = record.hidden.token_hash;
    if (d.kind === 'api_keys' && typeof tokenHash === 'string') {
      if (delta > 0) this.#apiKeyTokens.set(tokenHash, record.id);
      else this.#apiKeyTokens.delete(tokenHash);
    }
  }

  /** The unique values the record claims (see `claimKeys`), scoped by its parent when per-parent. */
  #keysOf(d: KindDescriptor, values: Readonly<Record<string, unknown>>): string[] {
    return claimKeys(d, values, claimScope(d, values));
  }
}
