/**
 * The JSON text of each stored object's response, built on first read and dropped when the object,
 * an object whose address it shows, one of its embedded children or a decorator input changes; and
 * the bytes of list pages, dropped on any change.
 */
import { type KindDescriptor, type KindName } from '../resources/index.js';
import type { StoredRecord } from './collection.js';
import { storedKinds, type Store } from './store.js';

const originsPerObject = 4;

/** List pages kept: a client walking a large collection reads each page once per walk. */
const maxPages = 128;

export class ResponseCache {
  readonly #store: Store;
  /** id → origin → the JSON text of its response with addresses at that origin. */
  readonly #rendered = new Map<string, Map<string, string>>();
  /** id → ids of the cached responses that showed its address (read through `noteRead`). */
  readonly #readers = new Map<string, Set<string>>();
  /** The ids whose address the rendering under way reads; undefined when nothing is cached. */
  #reading: Set<string> | undefined;
  /** kind → the kinds whose cached responses one of its changes invalidates (decorator inputs). */
  readonly #dependentKinds = new Map<KindName, KindName[]>();
  /**
   * A list page's answer by the page's address (origin, path, limit, cursor). Any change can add
   * to a page, take from it or change an object it shows, so every change drops them all.
   */
  readonly #pages = new Map<string, Buffer>();

  /**
   * `readsOf(kind)`: the kinds whose every change can change the kind's read-time members besides
   * the record itself and the addresses it shows (tunnel groups read the online sessions).
   */
  constructor(store: Store, readsOf: (kind: KindName) => readonly KindName[]) {
    this.#store = store;
    for (const d of storedKinds(store.kinds)) {
      for (const input of readsOf(d.kind)) {
        const list = this.#dependentKinds.get(input) ?? [];
        list.push(d.kind);
        this.#dependentKinds.set(input, list);
      }
    }
  }

  /** Records that the rendering under way shows the address of `id`. */
  noteRead(id: string): void {
    this.#reading?.add(id);
  }

  /**
   * The JSON text of `render()` with addresses at `origin`, cached for stored objects. Every
   * address the rendering reads is recorded, so that a change to that object drops this text.
   */
  json(
    d: KindDescriptor,
    record: StoredRecord,
    origin: string,
    render: () => Record<string, unknown>,
  ): string {
    const cached = this.#rendered.get(record.id)?.get(origin);
    if (cached !== undefined) return cached;
    if (this.#store.get(d.kind, record.id) !== record) {
      return JSON.stringify(render());
    }
    const outer = this.#reading;
    const reading = new Set<string>();
    this.#reading = reading;
    let text: string;
    try {
      text = JSON.stringify(render());
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
    this.#remember(record.id, origin, text);
    return text;
  }

  /** The bytes of the list page at `address`, built by `build` unless cached since the last change. */
  page(address: string, build: () => string): Buffer {
    let bytes = this.#pages.get(address);
    if (bytes === undefined) {
      bytes = Buffer.from(build());
      if (this.#pages.size >= maxPages) this.#pages.delete(this.#pages.keys().next().value ?? '');
      this.#pages.set(address, bytes);
    }
    return bytes;
  }

  /**
   * Keeps a few origins per object: clients reach an emulator at one or two addresses, and a
   * client sending a different Host with every request must not grow the cache without bound.
   */
  #remember(id: string, origin: string, text: string): void {
    let byOrigin = this.#rendered.get(id);
    if (byOrigin === undefined) this.#rendered.set(id, (byOrigin = new Map<string, string>()));
    if (byOrigin.size >= originsPerObject) byOrigin.delete(byOrigin.keys().next().value ?? '');
    byOrigin.set(origin, text);
  }

  /**
   * Drops the cached responses a change to `record` can make stale: its own, those that show its
   * address, its ancestors' (which embed their children) and those of the kinds that read its kind.
   */
  changed(d: KindDescriptor, record: StoredRecord): void {
    if (this.#pages.size > 0) this.#pages.clear();
    this.#drop(record.id);
    let link = d.parent;
    let parentId: unknown = link === undefined ? undefined : record.values[link.field];
    for (let depth = 0; link !== undefined && typeof parentId === 'string' && depth < 8; depth++) {
      this.#drop(parentId);
      const parent = this.#store.get(link.kind, parentId);
      const parentLink: KindDescriptor['parent'] = this.#store.kinds.descriptorOf(link.kind).parent;
      parentId = parentLink === undefined ? undefined : parent?.values[parentLink.field];
      link = parentLink;
    }
    for (const kind of this.#dependentKinds.get(d.kind) ?? []) {
      for (const other of this.#store.collection(kind).all()) this.#drop(other.id);
    }
  }

  #drop(id: string): void {
    this.#rendered.delete(id);
    const readers = this.#readers.get(id);
    if (readers === undefined) return;
    this.#readers.delete(id);
    for (const reader of readers) this.#rendered.delete(reader);
  }
}
