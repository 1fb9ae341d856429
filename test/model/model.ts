/**
 * A model of a valid config over every kind, changed by random steps that a reviewer could approve:
 * objects added, removed and renamed (automatically where a unique value proves the object, else
 * with a `moved:` entry that may stay for later steps), unique values (domains, hostports, SSH keys, CIDRs, route
 * matches) moved between objects and swapped, references repointed, modules switched on and off,
 * certificates attached, detached and dropped, cosmetic edits. The model keeps every invariant the
 * loader checks (unique values, references to existing objects, exclusive fields), so each step is a
 * config `validate` accepts. Every choice comes from the seeded `Rng`, so a run replays.
 */
import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import type { Rng } from '../reliability/support/prng.js';

/** Where run.ts copies the test PKI, beside the config: `{file:}` reads only inside the config's root. */
const pkiDir = 'pki/';

type Entry = Record<string, unknown>;
type Section = Record<string, Entry>;

/** The config as plain data: section -> name -> entry, as written in the YAML. */
export type Config = Record<string, Section>;

export interface Move {
  readonly from: string;
  readonly to: string;
}

/**
 * The config's `moved:` entries, kept valid as the config changes (an old name that has an entry
 * again, a chain that no longer ends at an entry, are dropped), and this step's renames.
 */
export class MoveLog {
  moves: Move[] = [];
  /**
   * This step's renames: an entry's key -> the key its object had before the step, and whether
   * every link of the chain is a `moved:` entry (else the unique value it kept proves it).
   */
  readonly renamed = new Map<string, { readonly before: string; readonly explicit: boolean }>();
  /** Entries whose unique value changed in this step: it proves no rename then. */
  readonly #changed = new Set<string>();
  /**
   * Keys removed in this step: their live object is still there when the sync plans, and keeps
   * its key (a move onto it is not made: docs/config.md "Renaming an entry").
   */
  readonly #removed = new Set<string>();

  /**
   * The kind of each key's live object as the step starts (every entry was synced): it is still
   * there, under its key, when the sync plans.
   */
  #live = new Map<string, string>();

  /** The moves written in this step. */
  #stepMoves: Move[] = [];
  /** Keys renamed away in this step. */
  readonly #left = new Set<string>();

  /** A new step: its renames start from the keys the account has now. */
  startStep(config: Config): void {
    this.#stepMoves = [];
    this.#left.clear();
    this.renamed.clear();
    this.#changed.clear();
    this.#removed.clear();
    this.#live = new Map(
      Object.entries(config).flatMap(([section, s]) =>
        Object.entries(s).map(([name, entry]) => [`${section}/${name}`, kindOf(section, entry)] as const),
      ),
    );
  }

  /**
   * `from` renamed to `to` (an entry of `kind` now), with a `moved:` entry when `explicit` and the
   * service can keep the object; returns whether the entry was written.
   */
  rename(from: string, to: string, explicit: boolean, kind: string): boolean {
    const earlier = this.renamed.get(from);
    this.renamed.delete(from);
    const was = this.#live.get(from);
    const fresh = earlier === undefined && (this.#left.has(from) || this.#removed.has(from));
    this.#left.add(from);
    // An entry added under a key whose object was renamed away or removed earlier in this step is
    // a new object: renaming it carries nothing.
    if (fresh) return false;
    // An entry added in this step has no object to keep: the reviewer writes no move (an old one
    // from this name, left from an earlier rename, would make two moves of one name).
    if (explicit && was === undefined && earlier === undefined) return false;
    // A move keeps the object, which cannot change kind (a backend rewritten as another variant):
    // `plan` refuses it, so the reviewer renames without one and the entry is a new object.
    if (explicit && was !== undefined && was !== kind) return false;
    // Back under its old key (`a -> b -> a`), or from a key whose object moved away in this step
    // (a move of one name twice is refused): the reviewer writes no move.
    if (explicit && (earlier?.before === to || this.#stepMoves.some((m) => m.from === from))) return false;
    if (explicit) {
      // A move left from an earlier step out of this name was made long ago: replaced, not doubled.
      const stale = (m: Move) => m.to === to || (m.from === from && !this.#stepMoves.includes(m));
      const move = { from, to };
      this.moves = [...this.moves.filter((m) => !stale(m)), move];
      this.#stepMoves.push(move);
    }
    if (this.#removed.has(to)) return explicit;
    // A move onto a key whose own object stays (its move away was dropped: the key has an entry
    // again) is not made: the key keeps its object (docs/config.md "Renaming an entry"). Where a
    // unique value proves the object, the key is handed over instead.
    if (explicit && this.#live.has(to) && !(sectionOf(to) in provenBy)) return true;
    if (this.#changed.has(from)) {
      this.#changed.add(to);
      if (!explicit) return false;
    }
    this.renamed.set(to, {
      before: earlier?.before ?? from,
      explicit: explicit && (earlier?.explicit ?? true),
    });
    return explicit;
  }

  /** The object of `key` is gone or is another object now: nothing moves to it. */
  forget(key: string): void {
    this.#removed.add(key);
    this.renamed.delete(key);
    this.moves = this.moves.filter((m) => m.to !== key);
  }

  /** The unique value of `key` changed: a rename without `moved:` is no longer proven by it. */
  valueChanged(key: string): void {
    this.#changed.add(key);
    if (this.renamed.get(key)?.explicit === false) this.renamed.delete(key);
  }

  /** Drops the moves `validate` would refuse now, and renames whose entry is gone. */
  prune(config: Config): void {
    const has = (key: string) => {
      const [section = '', name = ''] = key.split('/');
      return config[section]?.[name] !== undefined;
    };
    // An old name that has an entry again keeps its object: the new name is another one.
    for (const [key, { before }] of this.renamed) if (!has(key) || has(before)) this.renamed.delete(key);
    for (let size = -1; size !== this.moves.length;) {
      size = this.moves.length;
      this.moves = this.moves.filter(
        (m) => !has(m.from) && (has(m.to) || this.moves.some((n) => n.from === m.to)),
      );
    }
  }
}

const names = ['a', 'b', 'c', 'd'];
const domains = ['one.example.com', 'two.example.com', 'three.example.com', 'four.example.com'];
const hostports = ['h1.example.com:443', 'h2.example.com:443', 'h3.example.com:443', 'h4.example.com:443'];
const cidrs = ['203.0.113.0/24', '198.51.100.7/32', '2001:db8:1234::/48', '10.0.0.0/8'];
const matches = ['/', '/admin', '/api', '/team'];
const certificates = [
  { certificate_pem: { file: `${pkiDir}leaf-rsa.crt` }, private_key_pem: { file: `${pkiDir}leaf-rsa.key` } },
  {
    certificate_pem: { file: `${pkiDir}leaf-ecdsa.crt` },
    private_key_pem: { file: `${pkiDir}leaf-ecdsa.key` },
  },
];
const eventTypes = ['ip_policy_created.v0', 'ip_policy_updated.v0', 'domain_created.v0', 'domain_updated.v0'];

/** Distinct, valid ed25519 keys (the service checks the blob's shape, not the curve point). */
const sshKeys = [0, 1, 2, 3].map((i) => {
  const string = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  const point = createHash('sha256').update(`model key ${i}`).digest();
  const blob = Buffer.concat([string(Buffer.from('ssh-ed25519')), string(point)]);
  return `ssh-ed25519 ${blob.toString('base64')} model-${i}`;
});

/** The leaf backends (tunnel groups, fixed responses) composite ones may point at, and the rest. */
const leafTypes = ['tunnel_group', 'http_response'] as const;
const backendTypes = [...leafTypes, 'weighted', 'failover'];

/** An entry's kind: its section, or for a backend its variant (a kind of its own to the service). */
function kindOf(section: string, entry: Entry | undefined): string {
  if (section !== 'backends') return section;
  return `${section}/${backendTypes.find((t) => entry !== undefined && t in entry) ?? ''}`;
}

function sectionOf(key: string): string {
  return key.split('/')[0] ?? '';
}

function pickSome<T>(rng: Rng, items: readonly T[], max: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  const n = 1 + rng.int(Math.min(max, pool.length));
  while (out.length < n) out.push(...pool.splice(rng.int(pool.length), 1));
  return out;
}

/** Values not held by any entry of `sections` under `field` (a list field counts each item). */
function free(config: Config, sections: readonly string[], field: string, pool: readonly string[]): string[] {
  const held = new Set<unknown>();
  for (const s of sections) {
    for (const e of Object.values(config[s] ?? {})) {
      const v = e[field];
      for (const item of Array.isArray(v) ? v : [v]) held.add(item);
    }
  }
  return pool.filter((v) => !held.has(v));
}

const freeName = (config: Config, section: string): string | undefined =>
  names.find((n) => !(n in (config[section] ?? {})));

const entries = (config: Config, section: string): Array<[string, Entry]> =>
  Object.entries(config[section] ?? {});

const leafBackends = (config: Config): string[] =>
  entries(config, 'backends')
    .filter(([, e]) => leafTypes.some((t) => t in e))
    .map(([n]) => n);

/** One new entry of `section` with random valid values, or undefined when none can be made. */
function newEntry(rng: Rng, config: Config, section: string): Entry | undefined {
  const described = (e: Entry): Entry => (rng.chance(0.3) ? { description: `model ${rng.int(3)}`, ...e } : e);
  switch (section) {
    case 'api_keys':
      return described({});
    case 'credentials':
      return described(rng.chance(0.5) ? { acl: ['bind:app=web'] } : {});
    case 'ssh_credentials': {
      const keys = free(config, ['ssh_credentials'], 'public_key', sshKeys);
      return keys.length === 0 ? undefined : described({ public_key: rng.pick(keys) });
    }
    case 'ip_policies':
      return described({
        rules: pickSome(rng, cidrs, 2).map((cidr) => ({ cidr, action: rng.pick(['allow', 'deny']) })),
      });
    case 'ip_restrictions': {
      const policies = Object.keys(config.ip_policies ?? {});
      if (policies.length === 0) return undefined;
      return described({
        type: rng.pick(['dashboard', 'api']),
        enforced: rng.chance(0.5),
        ip_policies: pickSome(rng, policies, 2),
      });
    }
    case 'reserved_addrs':
      return described({ region: rng.pick(['eu', 'us']) });
    case 'reserved_domains':
    case 'agent_ingresses': {
      const open = free(config, ['reserved_domains', 'agent_ingresses'], 'domain', domains);
      return open.length === 0 ? undefined : described({ domain: rng.pick(open) });
    }
    case 'certificate_authorities':
      return entries(config, section).length > 0
        ? undefined
        : described({ ca_pem: { file: `${pkiDir}ca.crt` } });
    case 'tls_certificates': {
      const used = new Set(entries(config, section).map(([, e]) => JSON.stringify(e.certificate_pem)));
      const open = certificates.filter((c) => !used.has(JSON.stringify(c.certificate_pem)));
      return open.length === 0 ? undefined : described({ ...rng.pick(open) });
    }
    case 'backends': {
      const leaves = leafBackends(config);
      const type =
        leaves.length > 0 && rng.chance(0.4) ? rng.pick(['weighted', 'failover']) : rng.pick(leafTypes);
      if (type === 'tunnel_group')
        return described({ tunnel_group: { labels: { app: rng.pick(['web', 'db']) } } });
      if (type === 'http_response')
        return described({ http_response: { status_code: rng.pick([200, 503]), body: 'model' } });
      const targets = pickSome(rng, leaves, 2);
      if (type === 'failover') return described({ failover: { backends: targets } });
      return described({
        weighted: { backends: Object.fromEntries(targets.map((t) => [t, 1 + rng.int(100)])) },
      });
    }
    case 'tls_edges':
    case 'https_edges': {
      const open = free(config, ['tls_edges', 'https_edges'], 'hostports', hostports);
      if (open.length === 0) return undefined;
      const edge: Entry = { hostports: pickSome(rng, open, 2) };
      if (section === 'tls_edges') randomTlsModules(rng, config, edge);
      else {
        randomHttpsModules(rng, config, edge);
        edge.routes = pickSome(rng, matches, 2).map((match) => randomRoute(rng, config, match));
      }
      return described(edge);
    }
    case 'event_destinations':
      return described({
        target: { monitoring: { api_key: `model-key-${rng.int(3)}`, service: 'model', site: 'example.com' } },
      });
    case 'event_subscriptions': {
      const destinations = Object.keys(config.event_destinations ?? {});
      return described({
        sources: pickSome(rng, eventTypes, 2).map((type) => ({ type })),
        ...(destinations.length > 0 && rng.chance(0.7)
          ? { destinations: pickSome(rng, destinations, 2) }
          : {}),
      });
    }
    default:
      throw new Error(`no generator for ${section}`);
  }
}

function randomTlsModules(rng: Rng, config: Config, edge: Entry): void {
  for (const m of ['backend', 'ip_restriction', 'mutual_tls', 'tls_termination', 'policy']) delete edge[m];
  const backends = Object.keys(config.backends ?? {});
  const policies = Object.keys(config.ip_policies ?? {});
  const cas = Object.keys(config.certificate_authorities ?? {});
  if (backends.length > 0 && rng.chance(0.6)) edge.backend = { backend: rng.pick(backends) };
  if (policies.length > 0 && rng.chance(0.4))
    edge.ip_restriction = { ip_policies: pickSome(rng, policies, 2) };
  if (cas.length > 0 && rng.chance(0.3)) edge.mutual_tls = { certificate_authorities: cas };
  if (rng.chance(0.4)) edge.tls_termination = { terminate_at: 'edge', min_version: rng.pick(['1.2', '1.3']) };
  if (rng.chance(0.2)) {
    const rule = {
      name: 'deny-one',
      expressions: ["conn.client_ip == '198.51.100.7'"],
      actions: [{ type: 'deny' }],
    };
    edge.policy = { inbound: [rule] };
  }
}

function randomHttpsModules(rng: Rng, config: Config, edge: Entry): void {
  delete edge.mutual_tls;
  delete edge.tls_termination;
  const cas = Object.keys(config.certificate_authorities ?? {});
  if (cas.length > 0 && rng.chance(0.3))
    edge.mutual_tls = { enabled: rng.chance(0.5), certificate_authorities: cas };
  if (rng.chance(0.4)) edge.tls_termination = { min_version: rng.pick(['1.2', '1.3']) };
}

function randomRoute(rng: Rng, config: Config, match: string): Entry {
  const backends = Object.keys(config.backends ?? {});
  const policies = Object.keys(config.ip_policies ?? {});
  const route: Entry = { match_type: 'path_prefix', match };
  if (backends.length > 0 && rng.chance(0.7)) route.backend = { backend: rng.pick(backends) };
  if (policies.length > 0 && rng.chance(0.3))
    route.ip_restriction = { ip_policies: pickSome(rng, policies, 1) };
  if (rng.chance(0.3))
    route.circuit_breaker = { num_buckets: 5 + rng.int(5), error_threshold_percentage: 0.5 };
  if (rng.chance(0.15)) {
    route.oidc = {
      issuer: 'https://accounts.example.com',
      client_id: 'model',
      client_secret: `s${rng.int(3)}`,
      scopes: ['openid'],
    };
  }
  if (rng.chance(0.2)) route.description = `route ${rng.int(3)}`;
  return route;
}

/** One reviewed change: what it does, for the log that replays a failure. */
type Change = (rng: Rng, config: Config, log: MoveLog) => string | undefined;

const sections = [
  'api_keys',
  'credentials',
  'ssh_credentials',
  'ip_policies',
  'ip_restrictions',
  'reserved_addrs',
  'reserved_domains',
  'agent_ingresses',
  'certificate_authorities',
  'tls_certificates',
  'backends',
  'tls_edges',
  'https_edges',
  'event_destinations',
  'event_subscriptions',
];

/** Which sections hold values from one claim space, and the field that holds them. */
const claimSpaces = [
  { sections: ['reserved_domains', 'agent_ingresses'], field: 'domain' },
  { sections: ['ssh_credentials'], field: 'public_key' },
  { sections: ['tls_edges', 'https_edges'], field: 'hostports' },
];

const add: Change = (rng, config) => {
  const section = rng.pick(sections);
  const name = freeName(config, section);
  const entry = name === undefined ? undefined : newEntry(rng, config, section);
  if (name === undefined || entry === undefined) return undefined;
  (config[section] ??= {})[name] = entry;
  return `add ${section}/${name}`;
};

const remove: Change = (rng, config, log) => {
  const section = rng.pick(sections);
  const present = Object.keys(config[section] ?? {});
  if (present.length === 0) return undefined;
  const name = rng.pick(present);
  delete config[section]?.[name];
  log.forget(`${section}/${name}`);
  renameReferences(config, section, name, undefined);
  return `remove ${section}/${name}`;
};

/** Sections whose objects the service proves by a unique value the entry carries: renamed without `moved:`. */
const provenBy: Record<string, string> = {
  reserved_domains: 'domain',
  agent_ingresses: 'domain',
  ssh_credentials: 'public_key',
  tls_edges: 'hostports',
  https_edges: 'hostports',
};

/**
 * The same object under another name, references following it: automatically where a unique value
 * proves it (sometimes with a `moved:` entry all the same), else with one.
 */
const rename: Change = (rng, config, log) => {
  const section = rng.pick(sections);
  const present = Object.keys(config[section] ?? {});
  const to = freeName(config, section);
  if (present.length === 0 || to === undefined) return undefined;
  const from = rng.pick(present);
  const s = config[section] ?? {};
  s[to] = s[from] ?? {};
  delete s[from];
  renameReferences(config, section, from, to);
  const written = log.rename(
    `${section}/${from}`,
    `${section}/${to}`,
    !(section in provenBy) || rng.chance(0.3),
    kindOf(section, s[to]),
  );
  return `rename ${section}/${from} -> ${to}${written ? ' (moved:)' : ''}`;
};

/** A unique value handed from one object to another of the same claim space, or exchanged. */
const moveClaim: Change = (rng, config, log) => {
  const space = rng.pick(claimSpaces);
  const holders = space.sections.flatMap((s) => entries(config, s).map(([n, e]) => ({ s, n, e })));
  if (holders.length < 2) return undefined;
  const [x, y] = pickTwo(rng, holders);
  log.valueChanged(`${x.s}/${x.n}`);
  log.valueChanged(`${y.s}/${y.n}`);
  if (space.field === 'hostports') {
    const xs = x.e.hostports as string[];
    const ys = y.e.hostports as string[];
    if (rng.chance(0.5) && xs.length > 1) {
      const moved = xs.splice(rng.int(xs.length), 1)[0] ?? '';
      ys.push(moved);
      return `move hostport ${moved} from ${x.s}/${x.n} to ${y.s}/${y.n}`;
    }
    const i = rng.int(xs.length);
    const j = rng.int(ys.length);
    [xs[i], ys[j]] = [ys[j] ?? '', xs[i] ?? ''];
    return `swap hostports of ${x.s}/${x.n} and ${y.s}/${y.n}`;
  }
  [x.e[space.field], y.e[space.field]] = [y.e[space.field], x.e[space.field]];
  return `swap ${space.field} of ${x.s}/${x.n} and ${y.s}/${y.n}`;
};

function pickTwo<T>(rng: Rng, items: readonly T[]): [T, T] {
  const i = rng.int(items.length);
  const j = (i + 1 + rng.int(items.length - 1)) % items.length;
  return [items[i] as T, items[j] as T];
}

/** A unique value moved to an object under a new name in the same step (the old one keeps going). */
const moveClaimToNew: Change = (rng, config, log) => {
  const space = rng.pick(claimSpaces);
  const section = rng.pick(space.sections);
  const holders = space.sections.flatMap((s) => entries(config, s).map(([n, e]) => ({ s, n, e })));
  const to = freeName(config, section);
  if (holders.length === 0 || to === undefined) return undefined;
  const from = rng.pick(holders);
  if (space.field === 'hostports') {
    const xs = from.e.hostports as string[];
    if (xs.length < 2) return undefined;
    const moved = xs.splice(rng.int(xs.length), 1);
    log.valueChanged(`${from.s}/${from.n}`);
    const edge: Entry = { hostports: moved };
    if (section === 'https_edges') edge.routes = [randomRoute(rng, config, '/')];
    (config[section] ??= {})[to] = edge;
    return `move hostport ${moved[0]} from ${from.s}/${from.n} to new ${section}/${to}`;
  }
  (config[section] ??= {})[to] = { [space.field]: from.e[space.field] };
  delete config[from.s]?.[from.n];
  renameReferences(config, from.s, from.n, undefined);
  // The same kind under a new name with the same unique value is the same object, renamed.
  if (from.s === section) log.rename(`${from.s}/${from.n}`, `${section}/${to}`, false, section);
  else log.forget(`${from.s}/${from.n}`);
  return `move ${space.field} of ${from.s}/${from.n} to new ${section}/${to}`;
};

/** A reserved domain's certificate attached, detached (sometimes dropped with it), or managed. */
const certificate: Change = (rng, config) => {
  const domainsHere = entries(config, 'reserved_domains');
  if (domainsHere.length === 0) return undefined;
  const [name, domain] = rng.pick(domainsHere);
  const certs = Object.keys(config.tls_certificates ?? {});
  const choice = rng.int(4);
  if (choice === 0 && certs.length > 0) {
    delete domain.certificate_management_policy;
    domain.certificate = rng.pick(certs);
    return `attach ${String(domain.certificate)} to reserved_domains/${name}`;
  }
  if (choice === 1 && typeof domain.certificate === 'string') {
    const cert = domain.certificate;
    delete domain.certificate;
    if (rng.chance(0.5)) {
      delete config.tls_certificates?.[cert];
      renameReferences(config, 'tls_certificates', cert, undefined);
      return `detach and drop tls_certificates/${cert} from reserved_domains/${name}`;
    }
    return `detach ${cert} from reserved_domains/${name}`;
  }
  if (choice === 2) {
    delete domain.certificate;
    domain.certificate_management_policy = { private_key_type: rng.pick(['rsa', 'ecdsa']) };
    return `manage the certificate of reserved_domains/${name}`;
  }
  if ('certificate_management_policy' in domain) {
    delete domain.certificate_management_policy;
    return `stop managing the certificate of reserved_domains/${name}`;
  }
  return undefined;
};

/** Modules, routes and rules switched on, off or changed; references repointed. */
const reshape: Change = (rng, config, log) => {
  const choice = rng.int(4);
  if (choice === 0) {
    const edges = entries(config, 'tls_edges');
    if (edges.length === 0) return undefined;
    const [name, edge] = rng.pick(edges);
    randomTlsModules(rng, config, edge);
    return `new modules on tls_edges/${name}`;
  }
  if (choice === 1) {
    const edges = entries(config, 'https_edges');
    if (edges.length === 0) return undefined;
    const [name, edge] = rng.pick(edges);
    if (rng.chance(0.5)) {
      randomHttpsModules(rng, config, edge);
      return `new modules on https_edges/${name}`;
    }
    edge.routes = pickSome(rng, matches, 3).map((match) => randomRoute(rng, config, match));
    return `new routes on https_edges/${name}`;
  }
  if (choice === 2) {
    const policies = entries(config, 'ip_policies');
    if (policies.length === 0) return undefined;
    const [name, policy] = rng.pick(policies);
    policy.rules = pickSome(rng, cidrs, 3).map((cidr) => ({ cidr, action: rng.pick(['allow', 'deny']) }));
    return `new rules in ip_policies/${name}`;
  }
  const section = rng.pick(['ip_restrictions', 'backends', 'event_subscriptions']);
  const present = Object.keys(config[section] ?? {});
  if (present.length === 0) return undefined;
  const name = rng.pick(present);
  const others = {
    ...config,
    [section]: Object.fromEntries(entries(config, section).filter(([n]) => n !== name)),
  };
  const entry = newEntry(rng, others, section);
  if (entry === undefined) return undefined;
  (config[section] ??= {})[name] = entry;
  // A backend rewritten as another variant is another kind: a move to it would be refused.
  if (section === 'backends') log.forget(`${section}/${name}`);
  renameReferences(
    config,
    section,
    name,
    section === 'backends' && !leafTypes.some((t) => t in entry) ? undefined : name,
  );
  return `rewrite ${section}/${name}`;
};

/** A description or metadata edit. */
const cosmetic: Change = (rng, config) => {
  const section = rng.pick(sections);
  const present = entries(config, section);
  if (present.length === 0) return undefined;
  const [name, entry] = rng.pick(present);
  if (rng.chance(0.5)) entry.description = `edited ${rng.int(5)}`;
  else entry.metadata = `{"edit": ${rng.int(5)}}`;
  return `edit ${section}/${name}`;
};

const changes: Array<[Change, number]> = [
  [add, 5],
  [remove, 2],
  [rename, 2],
  [moveClaim, 3],
  [moveClaimToNew, 2],
  [certificate, 2],
  [reshape, 2],
  [cosmetic, 1],
];

/** One step: one to three changes, each a valid config; returns what they did. */
export function step(rng: Rng, config: Config, log: MoveLog): string[] {
  log.startStep(config);
  const done: string[] = [];
  const total = changes.reduce((n, [, w]) => n + w, 0);
  const count = 1 + rng.int(3);
  for (let tries = 0; done.length < count && tries < 20; tries++) {
    let roll = rng.int(total);
    const change = changes.find(([, w]) => (roll -= w) < 0)?.[0] ?? add;
    const what = change(rng, config, log);
    if (what !== undefined) done.push(what);
  }
  log.prune(config);
  return done;
}

/**
 * Points every reference to `section/from` at `to`, or drops it when `to` is undefined (with what
 * the drop empties: a module without targets, a composite backend without members).
 */
function renameReferences(config: Config, section: string, from: string, to: string | undefined): void {
  const swap = (list: unknown): string[] | undefined => {
    if (!Array.isArray(list)) return undefined;
    const out = list.flatMap((n) => (n === from ? (to === undefined ? [] : [to]) : [n as string]));
    return out.length === 0 ? undefined : out;
  };
  const moduleRefs = (holder: Entry): void => {
    if (section === 'backends') {
      const b = holder.backend as Entry | undefined;
      if (b?.backend === from) {
        if (to === undefined) delete holder.backend;
        else holder.backend = { backend: to };
      }
    }
    if (section === 'ip_policies') {
      const r = holder.ip_restriction as Entry | undefined;
      const next = r === undefined ? undefined : swap(r.ip_policies);
      if (r !== undefined) {
        if (next === undefined) delete holder.ip_restriction;
        else holder.ip_restriction = { ip_policies: next };
      }
    }
    if (section === 'certificate_authorities') {
      const m = holder.mutual_tls as Entry | undefined;
      const next = m === undefined ? undefined : swap(m.certificate_authorities);
      if (m !== undefined) {
        if (next === undefined) delete holder.mutual_tls;
        else holder.mutual_tls = { certificate_authorities: next };
      }
    }
  };
  for (const [, edge] of entries(config, 'tls_edges')) moduleRefs(edge);
  for (const [, edge] of entries(config, 'https_edges')) moduleRefs(edge);
  for (const [, edge] of entries(config, 'https_edges'))
    for (const route of (edge.routes ?? []) as Entry[]) moduleRefs(route);
  if (section === 'ip_policies') {
    for (const [name, r] of entries(config, 'ip_restrictions')) {
      const next = swap(r.ip_policies);
      if (next === undefined) delete config.ip_restrictions?.[name];
      else r.ip_policies = next;
    }
  }
  if (section === 'tls_certificates') {
    for (const [, d] of entries(config, 'reserved_domains')) {
      if (d.certificate !== from) continue;
      if (to === undefined) delete d.certificate;
      else d.certificate = to;
    }
  }
  if (section === 'event_destinations') {
    for (const [, s] of entries(config, 'event_subscriptions')) {
      const next = swap(s.destinations);
      if (next === undefined) delete s.destinations;
      else s.destinations = next;
    }
  }
  if (section === 'backends') {
    for (const [name, b] of entries(config, 'backends')) {
      const failover = b.failover as Entry | undefined;
      const weighted = b.weighted as Entry | undefined;
      if (failover !== undefined) {
        const next = swap(failover.backends);
        if (next === undefined) replaceBackend(config, name);
        else b.failover = { backends: next };
      }
      if (weighted !== undefined) {
        const members = Object.entries(weighted.backends as Record<string, number>).flatMap(([n, w]) =>
          n === from ? (to === undefined ? [] : [[to, w] as const]) : [[n, w] as const],
        );
        if (members.length === 0) replaceBackend(config, name);
        else b.weighted = { backends: Object.fromEntries(members) };
      }
    }
  }
}

/** A composite backend left without members becomes a fixed response (references stay valid). */
function replaceBackend(config: Config, name: string): void {
  const section = config.backends ?? {};
  const description = section[name]?.description;
  section[name] = {
    ...(description === undefined ? {} : { description }),
    http_response: { status_code: 503, body: 'model' },
  };
}

/** The config file's text. */
export function configYaml(scope: string, config: Config, moves: readonly Move[] = []): string {
  const present = Object.fromEntries(Object.entries(config).filter(([, s]) => Object.keys(s).length > 0));
  return stringify({ version: 1, scope, ...(moves.length > 0 ? { moved: moves } : {}), ...present });
}
