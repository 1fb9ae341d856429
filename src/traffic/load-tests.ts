/**
 * Reads traffic tests files (a file, or a directory of them): structure by the JSON Schema
 * (`tests-schema.ts`), then what the schema cannot say: the variables a connection sets are the
 * platform's (with a did-you-mean) and of their type, the edge is a TLS edge of the config, `by`
 * names something that can decide on that edge, test names are unique. Every problem is refused
 * at its file:line:col, all in one run, before anything is evaluated.
 */
import { counted } from '../count.js';
import { createRequire } from 'node:module';
import type { Ajv2020 as Ajv2020Compiler, ValidateFunction } from 'ajv/dist/2020.js';
import type { SideFileReport } from '../config/index.js';
import {
  ConfigError,
  fileDiagnostic,
  isNoise,
  locate,
  readSideFiles,
  toFinding,
  type Diagnostic,
  type DocPath,
} from '../config/index.js';
import { isPlainObject } from '../plain-object.js';
import { didYouMean } from '../suggest.js';
import { policyVariables } from '../traffic-policy/index.js';
import { variableType, type Connection } from './connection.js';
import type { TrafficEdge, TrafficLocation } from './model.js';
import { trafficTestsSchema } from './tests-schema.js';

/** Traffic tests files that do not load: rendered as the config's problems are, with code frames. */
class TrafficTestsError extends ConfigError {
  constructor(diagnostics: readonly Diagnostic[]) {
    super(diagnostics);
    this.message = `the traffic tests are invalid: ${counted(diagnostics.length, 'error', 'errors')}`;
  }
}

/** One test as loaded: its connection's variables by qualified name. */
export interface TrafficTest {
  readonly name: string;
  /** `tls_edges/db`. */
  readonly edge: string;
  readonly connection: Connection;
  readonly expect: 'allow' | 'deny';
  readonly by?: string;
  /** Where the test is written. */
  readonly location: TrafficLocation;
}

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  // Loaded on use, as the config's structural pass loads it: most commands never read a tests file.
  const { Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020.js') as {
    Ajv2020: typeof Ajv2020Compiler;
  };
  compiled ??= new Ajv2020({ allErrors: true, verbose: true, strict: true }).compile(trafficTestsSchema);
  return compiled;
}

const variableNames = policyVariables.map((v) => v.name);

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** What a value of `type` must be, when `value` is not one. */
function typeProblem(type: string, value: unknown): string | undefined {
  const ok = (() => {
    if (type === 'string') return typeof value === 'string';
    if (type === 'int') return Number.isInteger(value);
    if (type === 'bool') return typeof value === 'boolean';
    if (type === 'google.protobuf.Timestamp')
      return typeof value === 'string' && rfc3339.test(value) && !Number.isNaN(Date.parse(value));
    if (type === 'list<string>') return Array.isArray(value) && value.every((v) => typeof v === 'string');
    if (type.startsWith('list<')) return Array.isArray(value) && value.every((v) => isPlainObject(v));
    if (type.startsWith('map<')) return isPlainObject(value);
    return true;
  })();
  if (ok) return undefined;
  if (type === 'google.protobuf.Timestamp') return 'an RFC 3339 timestamp (2026-01-31T09:00:00Z)';
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

/** One variable set by a test, checked; `name` is qualified. */
function setVariable(
  r: SideFileReport,
  out: Record<string, unknown>,
  name: string,
  value: unknown,
  path: DocPath,
): void {
  const type = variableType(name);
  if (type === undefined) {
    r.atKey(
      path,
      `unknown variable ${name}`,
      didYouMean(name, variableNames) ?? 'the variables are in docs/traffic-policy.md',
    );
    return;
  }
  const expected = typeProblem(type, value);
  if (expected !== undefined) {
    r.error(path, `${name} must be ${expected}`);
    return;
  }
  out[name] = value;
}

/** `connection:` members, nested or dotted, below `conn.`; a map-typed variable takes its map whole. */
function connectionVariables(
  r: SideFileReport,
  value: Record<string, unknown>,
  prefix: string,
  path: DocPath,
  out: Record<string, unknown>,
): void {
  for (const [key, member] of Object.entries(value)) {
    const name = `${prefix}.${key}`;
    const at = [...path, key];
    const type = variableType(name);
    if (isPlainObject(member) && (type === undefined || !type.startsWith('map<')))
      connectionVariables(r, member, name, at, out);
    else setVariable(r, out, name, member, at);
  }
}

function testAt(
  r: SideFileReport,
  raw: Record<string, unknown>,
  index: number,
  edges: ReadonlyMap<string, TrafficEdge>,
  names: Map<string, string>,
): TrafficTest | undefined {
  const path: DocPath = ['tests', index];
  const name = String(raw.name);
  const at = locate(r.source, path);
  const seen = names.get(name);
  if (seen !== undefined)
    r.error(
      [...path, 'name'],
      `test name ${name} is already used at ${seen}`,
      'test names are unique in a file',
    );
  else names.set(name, `${r.source.file}:${at.line}`);
  const before = r.diagnostics.length;
  const connection: Record<string, unknown> = {};
  connectionVariables(
    r,
    raw.connection as Record<string, unknown>,
    'conn',
    [...path, 'connection'],
    connection,
  );
  for (const [key, value] of Object.entries((raw.variables as Record<string, unknown> | undefined) ?? {}))
    setVariable(r, connection, key, value, [...path, 'variables', key]);
  const edgeKey = String(raw.edge);
  const edge = edges.get(edgeKey);
  if (edge === undefined) {
    const known = [...edges.keys()];
    r.error(
      [...path, 'edge'],
      `the config has no TLS edge ${edgeKey}`,
      didYouMean(edgeKey, known) ??
        (known.length === 0 ? 'the config has no TLS edge' : `its TLS edges: ${known.join(', ')}`),
    );
  }
  const by = typeof raw.by === 'string' ? raw.by : undefined;
  if (edge !== undefined && by !== undefined) {
    const deciders = ['ip_restriction', 'default', ...(edge.policy?.inbound.map((rule) => rule.name) ?? [])];
    if (
      !deciders.includes(by) &&
      !(edge.ipRestriction?.ipPolicies ?? []).some((p) => p.split('/').at(-1) === by)
    )
      r.error(
        [...path, 'by'],
        `nothing named ${by} can decide on ${edgeKey}`,
        didYouMean(by, deciders) ?? `it can be ${deciders.join(', ')} or an IP policy of its ip_restriction`,
      );
  }
  if (r.diagnostics.length > before) return undefined;
  return {
    name,
    edge: edgeKey,
    connection,
    expect: raw.expect === 'deny' ? 'deny' : 'allow',
    ...(by === undefined ? {} : { by }),
    location: { file: r.source.file, ...at },
  };
}

/** The structure by the schema; the semantic checks then take every test the schema passed. */
function testsOf(r: SideFileReport, edges: ReadonlyMap<string, TrafficEdge>): TrafficTest[] {
  const validate = validator();
  const value = r.source.value;
  const broken = new Set<number>();
  if (!validate(value)) {
    for (const e of (validate.errors ?? []).filter((x) => !isNoise(x))) {
      const f = toFinding(e, value);
      if (f.atKey === true) r.atKey(f.path, f.message, f.hint);
      else r.error(f.path, f.message, f.hint);
      if (f.path[0] === 'tests' && typeof f.path[1] === 'number') broken.add(f.path[1]);
      else if (f.path[0] === 'tests' || f.path.length === 0) return [];
    }
  }
  const tests = isPlainObject(value) && Array.isArray(value.tests) ? (value.tests as unknown[]) : [];
  const names = new Map<string, string>();
  return tests.flatMap((t, i) =>
    broken.has(i) || !isPlainObject(t) ? [] : (testAt(r, t, i, edges, names) ?? []),
  );
}

/** Every test of every file under `paths`; refuses them all with every problem found. */
export async function loadTrafficTests(
  paths: readonly string[],
  edges: ReadonlyMap<string, TrafficEdge>,
  cwd = process.cwd(),
): Promise<TrafficTest[]> {
  const read = await readSideFiles(paths, cwd, 'traffic tests file', (r) => testsOf(r, edges));
  const { items: tests, diagnostics } = read;
  if (diagnostics.length > 0) throw new TrafficTestsError(diagnostics);
  if (tests.length === 0 && read.firstFile !== undefined)
    throw new TrafficTestsError([fileDiagnostic(read.firstFile, 'the traffic tests files hold no test')]);
  return tests;
}
