/**
 * The floor: the least work any planner must do for a plan, written plainly, run as its own process
 * (spawned like the CLI). It parses the config files with the same `yaml` package (`YAML.parse`,
 * no document tree), pages through every list the plan reads (same collections, same page size) and
 * compares each desired object (nested items too: a rule, a route) with the live one carrying its
 * key (`fast-deep-equal` over the fields the config sets). It imports nothing of acctsync: the
 * collections to read and the config's shape come in its argument. Prints one JSON line.
 */
import { readFile } from 'node:fs/promises';
import equal from 'fast-deep-equal';
import { Agent, request } from 'undici';
import YAML from 'yaml';

export interface FloorArg {
  readonly files: readonly string[];
  readonly url: string;
  readonly token: string;
  /** Each list request the plan makes: the collection's path and its envelope's array member. */
  readonly lists: ReadonlyArray<{ readonly path: string; readonly member: string }>;
  readonly pageSize: number;
  readonly concurrency: number;
  /** Nested items of a map (`ip_policies` -> `rules`), keyed by these fields joined with `:`. */
  readonly nested: ReadonlyArray<{
    readonly section: string;
    readonly member: string;
    readonly keyFields: string[];
  }>;
  /** Members naming a shared map's variant (`http_response`), whose fields the live record holds flat. */
  readonly variants: readonly string[];
  /** Children a list answer embeds in their parent's record (`routes` of an HTTPS edge). */
  readonly embedded: ReadonlyArray<{ readonly path: string; readonly member: string }>;
}

export interface FloorResult {
  readonly desired: number;
  readonly live: number;
  readonly compared: number;
  readonly equal: number;
  readonly requests: number;
  /** Objects per list path, to compute the minimum number of requests. */
  readonly perList: Readonly<Record<string, number>>;
}

type Json = Record<string, unknown>;

function isMap(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** One desired object per key: an entry's own fields (its variant's lifted), and each nested item. */
function addEntry(
  arg: FloorArg,
  desired: Map<string, Json>,
  section: string,
  name: string,
  entry: Json,
): void {
  const own: Json = {};
  for (const [field, value] of Object.entries(entry)) {
    const nested = arg.nested.find((n) => n.section === section && n.member === field);
    if (nested !== undefined && Array.isArray(value)) {
      for (const item of value as Json[]) {
        const id = nested.keyFields.map((f) => String(item[f])).join(':');
        desired.set(`${section}/${name}/${field}/${id}`, item);
      }
    } else if (arg.variants.includes(field) && isMap(value)) Object.assign(own, value);
    else own[field] = value;
  }
  desired.set(`${section}/${name}`, own);
}

async function parseConfig(arg: FloorArg): Promise<Map<string, Json>> {
  const desired = new Map<string, Json>();
  for (const file of arg.files) {
    const doc = YAML.parse(await readFile(file, 'utf8')) as Json;
    for (const [section, entries] of Object.entries(doc)) {
      if (!isMap(entries)) continue;
      for (const [name, entry] of Object.entries(entries))
        addEntry(arg, desired, section, name, entry as Json);
    }
  }
  return desired;
}

/**
 * One page. A keep-alive connection the server closes as the request goes out fails the request
 * without its having been handled; any client sends it again (acctsync's does), so the floor does.
 */
async function getPage(url: URL, headers: Record<string, string>, agent: Agent): Promise<Json> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await request(url, { headers, dispatcher: agent });
      return (await res.body.json()) as Json;
    } catch (err) {
      if (attempt >= 3 || (err as { code?: unknown }).code !== 'UND_ERR_SOCKET') throw err;
    }
  }
}

async function listAll(arg: FloorArg, agent: Agent, path: string, member: string): Promise<Json[]> {
  const headers = { authorization: `Bearer ${arg.token}`, 'svc-version': '2' };
  const items: Json[] = [];
  let next: string | null = `${path}?limit=${arg.pageSize}`;
  let requests = 0;
  let records = 0;
  while (next !== null) {
    const page = await getPage(new URL(next, arg.url), headers, agent);
    requests++;
    const got = page[member] as Json[];
    items.push(...got);
    records += got.length;
    for (const e of arg.embedded)
      if (e.path === path) for (const r of got) items.push(...(r[e.member] as Json[]));
    next = got.length > 0 && typeof page.next_page_uri === 'string' ? page.next_page_uri : null;
  }
  listRequests += requests;
  perList[path] = records;
  return items;
}

let listRequests = 0;
const perList: Record<string, number> = {};

/** The desired object's key, from the ownership marker in the live record's metadata. */
function keyOf(record: Json): string | undefined {
  if (typeof record.metadata !== 'string' || !record.metadata.startsWith('{')) return undefined;
  const marker = (JSON.parse(record.metadata) as { acctsync?: { key?: unknown } }).acctsync;
  return typeof marker?.key === 'string' ? marker.key : undefined;
}

function compare(desired: Map<string, Json>, live: Json[]): { compared: number; equal: number } {
  let compared = 0;
  let same = 0;
  for (const record of live) {
    const key = keyOf(record);
    const want = key === undefined ? undefined : desired.get(key);
    if (want === undefined) continue;
    compared++;
    const have: Json = {};
    for (const field of Object.keys(want)) have[field] = record[field];
    if (equal(want, have)) same++;
  }
  return { compared, equal: same };
}

async function main(): Promise<void> {
  const arg = JSON.parse(process.argv[2] ?? '{}') as FloorArg;
  const agent = new Agent({ connections: arg.concurrency });
  const [desired, lists] = await Promise.all([
    parseConfig(arg),
    Promise.all(arg.lists.map((l) => listAll(arg, agent, l.path, l.member))),
  ]);
  const live = lists.flat();
  const { compared, equal: same } = compare(desired, live);
  await agent.close();
  const result: FloorResult = {
    desired: desired.size,
    live: live.length,
    compared,
    equal: same,
    requests: listRequests,
    perList,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

void main();
