/**
 * The emulated account: the store of every object, API key tokens, principals, simulated agents and
 * event deliveries, and the API's response for each object (rendered through a cache). Request
 * handlers change it only through these methods so that the indexes and the cache never drift from
 * the records.
 */
import type { KindDescriptor, KindName, KindRegistry } from '../resources/index.js';
import type { Collection, StoredRecord } from './collection.js';
import type { IdGenerator } from './ids.js';
import type { Agent, Delivery, Lifecycle, Located, Principal } from './model.js';
import { renderFields, type UriResolver } from './render.js';
import type { Answers } from './answers.js';
import { currentOrigin } from './request-origin.js';
import { ResponseCache } from './response-cache.js';
import { Store, storedKinds, stringOf } from './store.js';
import { ApiKeyTokens } from './token-auth.js';
import { serviceTime } from './platform.js';

/** Adds computed members to a kind's responses (tunnel group `tunnels`, event source `uri`). */
type Decorator = (out: Record<string, unknown>, record: StoredRecord, account: Account) => void;

/**
 * A kind's response members computed at read time: `add` computes them; `reads` lists the kinds
 * whose every change can change them (responses are cached until one does).
 */
export interface Decoration {
  readonly reads: readonly KindName[];
  readonly add: Decorator;
}

/** What the account needs of a kind's emulator behaviour (`kind-behaviour.ts`). */
type RenderBehaviour = Readonly<Partial<Record<KindName, { readonly decorate?: Decoration }>>>;

type EmbeddedChildren = Map<KindName, Array<{ child: KindDescriptor; member: string }>>;

/** Children embedded in their parent's record (`routes` of an HTTPS edge), by parent kind. */
function embeddedChildren(kinds: KindRegistry): EmbeddedChildren {
  const out: EmbeddedChildren = new Map();
  for (const d of storedKinds(kinds)) {
    if (d.parent?.embeddedAs === undefined) continue;
    const list = out.get(d.parent.kind) ?? [];
    list.push({ child: d, member: d.parent.embeddedAs });
    out.set(d.parent.kind, list);
  }
  return out;
}

export class Account implements UriResolver {
  /** The address the emulator listens on. */
  readonly listenOrigin: string;
  readonly ids: IdGenerator;
  readonly now: () => Date;
  readonly principals = new Map<string, Principal>();
  /** Event deliveries, oldest first (capped: see `events.ts`). */
  readonly deliveries: Delivery[] = [];
  /** Simulated agents, by id. */
  readonly agents = new Map<string, Agent>();
  /** The kinds it serves: the registry the emulator was started with. */
  readonly kinds: KindRegistry;
  readonly #store: Store;
  readonly #embedded: EmbeddedChildren;
  readonly #tokens = new ApiKeyTokens();
  readonly #responses: ResponseCache;
  readonly #behaviour: RenderBehaviour;
  /** How written values are kept and answered (`answers.ts`). */
  readonly answers: Answers;
  /** A top-level or module member whose writes the service does not keep (a fault, for tests). */
  notKept: string | undefined;
  lifecycle: Lifecycle = { written: () => undefined, removed: () => undefined };
  /** The last `timestamp()` and the second it shows. */
  #stampSecond = Number.NaN;
  #stamp = '';
  /** Called after every change, so that persistence can schedule a save. */
  onChange: () => void = () => undefined;

  constructor(options: {
    kinds: KindRegistry;
    origin: string;
    ids: IdGenerator;
    now: () => Date;
    /** Passed in rather than imported: its hooks read the account, which must not import them. */
    behaviour: RenderBehaviour;
    answers: Answers;
  }) {
    this.kinds = options.kinds;
    this.#store = new Store(options.kinds);
    this.#embedded = embeddedChildren(options.kinds);
    this.answers = options.answers;
    this.listenOrigin = options.origin;
    this.ids = options.ids;
    this.now = options.now;
    this.#behaviour = options.behaviour;
    this.#responses = new ResponseCache(
      this.#store,
      (kind) => options.behaviour[kind]?.decorate?.reads ?? [],
    );
  }

  /**
   * The origin of the addresses the account shows: the one the request being answered reached
   * it at, else (the service's own timers) the listen address.
   */
  get origin(): string {
    return currentOrigin() ?? this.listenOrigin;
  }

  timestamp(): string {
    const now = this.now();
    const second = Math.floor(now.getTime() / 1000);
    if (second !== this.#stampSecond) {
      this.#stampSecond = second;
      // Every object created in the same second shares the one string.
      this.#stamp = serviceTime(now);
    }
    return this.#stamp;
  }

  collection(kind: KindName): Collection {
    return this.#store.collection(kind);
  }

  /** The object with this id, of whatever kind its prefix names. */
  find(id: string): Located | undefined {
    return this.#store.find(id);
  }

  /** The collection path of a kind, `{param}` segments filled from the record or `params`. */
  collectionPath(d: KindDescriptor, params: Readonly<Record<string, unknown>>): string {
    if (!d.path.includes('{')) return d.path;
    return d.path.replace(/\{(\w+)\}/g, (_, name: string) => stringOf(params[name]));
  }

  uriOf(id: string): string {
    this.#responses.noteRead(id);
    const found = this.find(id);
    const d = found?.d ?? this.kinds.descriptorOfId(id);
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
    Object.assign(out, renderFields(d.fields, record.values, this, this.answers));
    for (const { child, member } of this.#embedded.get(d.kind) ?? []) {
      out[member] = this.childrenOf(record.id, child).map((c) => this.render(child, c));
    }
    this.#behaviour[d.kind]?.decorate?.add(out, record, this);
    return out;
  }

  /** The JSON text of `render(d, record)`, cached for stored objects of cacheable kinds. */
  renderJson(d: KindDescriptor, record: StoredRecord): string {
    return this.#responses.json(d, record, this.origin, () => this.render(d, record));
  }

  /**
   * The bytes of the list page at `address` (everything its text depends on: origin, path, limit,
   * cursor), built by `build` once per state of the account.
   */
  listPage(address: string, build: () => string): Buffer {
    return this.#responses.page(address, build);
  }

  /** Objects of `child` kind whose parent is `parentId`, oldest first. */
  childrenOf(parentId: string, child: KindDescriptor): StoredRecord[] {
    return this.#store.childrenOf(parentId, child);
  }

  referrersOf(id: string): string[] {
    return this.#store.referrersOf(id);
  }

  /** 409 when another object already holds one of the record's natural keys. */
  assertUnique(d: KindDescriptor, values: Readonly<Record<string, unknown>>, selfId?: string): void {
    this.#store.assertUnique(d, values, selfId);
  }

  insert(d: KindDescriptor, record: StoredRecord): void {
    this.#store.add(d, record);
    this.#tokens.index(d, record, +1);
    this.#responses.changed(d, record);
    this.onChange();
  }

  replace(d: KindDescriptor, record: StoredRecord, values: Record<string, unknown>): void {
    this.#responses.changed(d, record);
    this.#tokens.index(d, record, -1);
    this.#store.update(d, record, values);
    this.#tokens.index(d, record, +1);
    this.#responses.changed(d, record);
    this.onChange();
  }

  remove(d: KindDescriptor, record: StoredRecord): void {
    this.#responses.changed(d, record);
    this.#tokens.index(d, record, -1);
    this.#store.delete(d, record);
    this.#responses.changed(d, record);
    this.onChange();
  }

  /** The API key a bearer token belongs to. */
  apiKeyOfToken(token: string): StoredRecord | undefined {
    const id = this.#tokens.keyIdOf(token);
    return id === undefined ? undefined : this.collection('api_keys').get(id);
  }

  /** Every stored object, for persistence. */
  records(): Generator<Located> {
    return this.#store.records();
  }
}
