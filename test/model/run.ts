/**
 * Runs the model: one emulator per seed, a fresh config per step, each step synced once and then
 * planned. A step passes when the sync applies every operation, the emulator answered no 409, the
 * next plan is empty (live equals desired), and every object renamed keeps its id (its nested
 * items too), unless the step also changed what the service cannot change in place (a replace).
 */
import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/diagnostic.js';
import { UserError } from '../../src/errors.js';
import { startHarness } from '../apply/harness.js';
import { createRng } from '../reliability/support/prng.js';
import { configYaml, MoveLog, step, type Config } from './model.js';

/** What a run did: how many operations of each action, and which changes, by their first word. */
export interface ModelRun {
  readonly failure?: ModelFailure;
  readonly operations: Record<string, number>;
  readonly changes: Record<string, number>;
}

export interface ModelFailure {
  readonly seed: number;
  readonly step: number;
  /** What went wrong, then the changes of every step so far and the config of the failing one. */
  readonly report: string;
}

/** Runs `steps` steps from `seed` at `parallelism`, stopping at the first failure. */
/**
 * Runs `steps` reviewed changes from `seed`, against the emulator answering as the vendor's
 * examples show, or (`echo`) with what it was sent.
 */
export async function runModel(
  seed: number,
  steps: number,
  parallelism: number,
  echo = false,
): Promise<ModelRun> {
  const rng = createRng(seed);
  const h = await startHarness({ echo });
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-model-'));
  await cp(new URL('../fixtures/pki/', import.meta.url), join(dir, 'pki'), { recursive: true });
  const config: Config = {};
  const log = new MoveLog();
  let ids = new Map<string, string>();
  const history: string[] = [];
  const operations: Record<string, number> = {};
  const changeCounts: Record<string, number> = {};
  const count = (into: Record<string, number>, what: string) => (into[what] = (into[what] ?? 0) + 1);
  try {
    for (let n = 1; n <= steps; n++) {
      const changes = step(rng, config, log);
      history.push(`step ${n}: ${changes.join('; ')}`);
      for (const c of changes) count(changeCounts, c.split(' ')[0] ?? c);
      const yaml = configYaml('model', config, log.moves);
      await writeFile(join(dir, 'account.yaml'), yaml);
      h.requests.length = 0;
      const synced = await syncOnce(h, dir, parallelism, (id) => count(operations, id.split(' ')[0] ?? id));
      const problem =
        typeof synced === 'string' ? synced : renamesLosingIds(log, ids, synced.ids, synced.replaced);
      if (typeof synced !== 'string') ids = synced.ids;
      if (problem !== undefined) {
        const report = [problem, '', ...history, '', yaml].join('\n');
        return { failure: { seed, step: n, report }, operations, changes: changeCounts };
      }
    }
    return { operations, changes: changeCounts };
  } finally {
    await h.close();
  }
}

type Harness = Awaited<ReturnType<typeof startHarness>>;

/** What a converged sync left: live ids by marker key, and the keys it replaced. */
interface Synced {
  readonly ids: Map<string, string>;
  readonly replaced: ReadonlySet<string>;
}

/** The renames of this step whose object (or a nested item of it) did not keep its id. */
function renamesLosingIds(
  log: MoveLog,
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  replaced: ReadonlySet<string>,
): string | undefined {
  const lost: string[] = [];
  for (const [key, { before: old, explicit }] of log.renamed) {
    if (replaced.has(key)) continue;
    for (const [was, id] of before) {
      if (was !== old && !was.startsWith(`${old}/`)) continue;
      const now = key + was.slice(old.length);
      const kept = after.get(now);
      if (kept !== undefined && kept !== id && !replaced.has(now))
        lost.push(`  ${was} -> ${now}${explicit ? ' (moved:)' : ''}: ${id} became ${kept}`);
    }
  }
  return lost.length === 0 ? undefined : ['a rename did not keep the id:', ...lost].join('\n');
}

/** A thrown error with what it refused: a config's diagnostics, a plan's details. */
function whatWasRefused(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const lines =
    error instanceof ConfigError
      ? error.diagnostics.map((d) => `${d.severity}: ${d.path}: ${d.message}`)
      : error instanceof UserError
        ? error.details
        : [];
  return [error.message, ...lines.map((l) => `  ${l}`)].join('\n');
}

/** Why one sync of `dir` did not converge, or what it left when it did. */
async function syncOnce(
  h: Harness,
  dir: string,
  parallelism: number,
  applied: (operationId: string) => void,
): Promise<string | Synced> {
  let synced;
  try {
    // A step may remove much of the account on purpose: the mass-delete guard, which asks for
    // `--force`, is tested in test/safety; here every step is a reviewed change.
    synced = await h.sync([dir], { parallelism, guards: { force: true } });
  } catch (error) {
    return `sync threw: ${whatWasRefused(error)}`;
  }
  for (const op of synced.computed.plan.operations) applied(op.id);
  const failed = synced.result.operations.filter((r) => r.status !== 'done');
  const conflicts = h.requests.filter((r) => r.status === 409);
  if (failed.length > 0 || conflicts.length > 0) {
    return [
      'sync did not apply cleanly:',
      ...failed.map((r) => `  ${r.id}: ${r.status} ${JSON.stringify(r.failure ?? {})}`),
      ...conflicts.map((r) => `  409 from ${r.method} ${r.path}`),
      'plan was:',
      ...synced.computed.plan.operations.map((op) => `  ${op.id}`),
    ].join('\n');
  }
  const next = await h.plan([dir]);
  const left = next.plan.operations;
  if (left.length > 0) {
    return [
      'the plan after the sync is not empty:',
      ...left.map((op) => `  ${op.id} ${JSON.stringify(op.changes ?? [])}`),
    ].join('\n');
  }
  const ids = new Map(
    next.live.objects.flatMap((o) => (o.marker?.scope === 'model' ? [[o.marker.key, o.id] as const] : [])),
  );
  const replaced = new Set(synced.computed.plan.operations.flatMap((op) => op.replaces ?? []));
  return { ids, replaced };
}
