/**
 * Runs the model: one emulator per seed, a fresh config per step, each step synced once and then
 * planned. Every other step is synced as a reviewed plan is: `plan --out plan.json`, then
 * `apply plan.json` (the saved file read back and applied only if a plan made now holds the same
 * operations); the others as `sync`. Both go through `runOnce`, as the commands do. The service
 * issues managed certificates when the seed draws it (while a saved plan waits for review, after a
 * sync, or later), never on a timer, so a run is a function of its seed. A step passes when the
 * sync applies every operation, the emulator answered no 409, the
 * next plan is empty (live equals desired), and every object renamed keeps its id (its nested
 * items too), unless the step also changed what the service cannot change in place (a replace).
 */
import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/diagnostic.js';
import { readSavedPlan } from '../../src/apply/saved-plan.js';
import { UserError } from '../../src/errors.js';
import { renderJson } from '../../src/plan-format/index.js';
import type { Plan } from '../../src/plan-format/types.js';
import { descriptorOf, findReferences, type DesiredState } from '../../src/resources/index.js';
import { GuardRefusal } from '../../src/apply/index.js';
import type { LiveObject } from '../../src/live/index.js';
import { startHarness } from '../apply/harness.js';
import { drawHandEdit, type HandEdit } from './hand-edits.js';
import { createRng } from '../reliability/support/prng.js';
import { isPlainObject } from '../../src/plain-object.js';
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
  const edits = createRng(seed ^ 0x5eed);
  const issues = createRng(seed ^ 0xce47);
  // The service issues managed certificates when the run draws it, not on a timer: between a
  // step's review and its apply, or after its sync, as a seeded function of the step.
  const h = await startHarness({ echo, certDelayMs: 24 * 60 * 60 * 1000 });
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
      const issuing = issues.chance(0.5) ? 'in review' : issues.chance(0.5) ? 'after the sync' : 'later';
      const issue = async (live: readonly LiveObject[], when: string) => {
        for (const id of await issuePendingCertificates(h, live))
          history.push(`  ${when}, the service issued the certificate of ${id}`);
      };
      const how = {
        parallelism,
        savedPlan: n % 2 === 0,
        ...(issuing === 'in review'
          ? { inReview: (live: readonly LiveObject[]) => issue(live, 'in review') }
          : {}),
      };
      const synced = await syncOnce(h, dir, how, (id) => count(operations, id.split(' ')[0] ?? id));
      if (typeof synced !== 'string' && issuing === 'after the sync') await issue(synced.live, 'then');
      const problem =
        typeof synced === 'string' ? synced : renamesLosingIds(log, ids, synced.ids, synced.replaced);
      if (typeof synced !== 'string') ids = synced.ids;
      const edit =
        typeof synced === 'string' ? undefined : await drawHandEdit(edits, h.client, synced.live, 'model');
      if (edit !== undefined) {
        history.push(`  then by hand: ${edit.what}`);
        count(changeCounts, `by hand: ${edit.what.split(' ')[0] ?? ''}`);
      }
      const edited =
        problem ?? (edit === undefined ? undefined : await afterHandEdit(h, dir, parallelism, edit));
      if (typeof edited === 'object') ids = edited.ids;
      const failed = typeof edited === 'string' ? edited : problem;
      if (failed !== undefined) {
        const report = [failed, '', ...history, '', yaml].join('\n');
        return { failure: { seed, step: n, report }, operations, changes: changeCounts };
      }
    }
    return { operations, changes: changeCounts };
  } finally {
    await h.close();
  }
}

/**
 * Syncs each config in turn with the model's checks (one sync converges, renames keep their ids
 * is the random run's own): the first step that fails, or undefined.
 */
export async function runSteps(configs: readonly string[], parallelism: number): Promise<string | undefined> {
  const h = await startHarness();
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-model-'));
  try {
    for (const [n, yaml] of configs.entries()) {
      await writeFile(join(dir, 'account.yaml'), yaml);
      h.requests.length = 0;
      const synced = await syncOnce(h, dir, { parallelism, savedPlan: n % 2 === 1 }, () => undefined);
      if (typeof synced === 'string') return `step ${n + 1}: ${synced}`;
    }
    return undefined;
  } finally {
    await h.close();
  }
}

type Harness = Awaited<ReturnType<typeof startHarness>>;

/** What a converged sync left: live ids by marker key, the keys it replaced, the live objects. */
interface Synced {
  readonly ids: Map<string, string>;
  readonly replaced: ReadonlySet<string>;
  readonly live: readonly LiveObject[];
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

/**
 * The service issuing the certificates whose jobs `live` shows pending (the ids): while a plan waits
 * for review, applying it after must not be refused as stale nor leave anything to plan; after a
 * sync, the next plan must not undo what the service filled in.
 */
async function issuePendingCertificates(h: Harness, live: readonly LiveObject[]): Promise<string[]> {
  const issued: string[] = [];
  for (const o of live) {
    const status = o.record.certificate_management_status;
    const job = isPlainObject(status) ? status.provisioning_job : undefined;
    if (!isPlainObject(job) || job.error_code !== null) continue;
    await h.client.post(`/_emulator/certificate_jobs/${o.id}`, { outcome: 'issued' });
    issued.push(`${o.kind} ${o.id}`);
  }
  return issued;
}

/** Why one sync of `dir` did not converge, or what it left when it did. */
async function syncOnce(
  h: Harness,
  dir: string,
  how: {
    readonly parallelism: number;
    readonly savedPlan: boolean;
    /** What happens to the account while the saved plan waits for review. */
    readonly inReview?: (live: readonly LiveObject[]) => Promise<void>;
  },
  applied: (operationId: string) => void,
  adopt = false,
): Promise<string | Synced> {
  let synced;
  const command = how.savedPlan ? 'plan --out + apply plan.json' : 'sync';
  try {
    // A step may remove much of the account on purpose: the mass-delete guard, which asks for
    // `--force`, is tested in test/safety; here every step is a reviewed change.
    const options = { parallelism: how.parallelism, guards: { force: true }, adopt };
    if (how.savedPlan) {
      const file = `${dir}-plan.json`;
      const reviewed = await h.plan([dir], { adopt });
      await writeFile(file, renderJson(reviewed.plan));
      await how.inReview?.(reviewed.live.objects);
      synced = await h.sync([dir], { ...options, saved: await readSavedPlan(file) });
    } else synced = await h.sync([dir], options);
  } catch (error) {
    return `${command} threw: ${whatWasRefused(error)}`;
  }
  for (const op of synced.computed.plan.operations) applied(op.id);
  const early = switchesBeforeCompletion(synced.computed.plan, synced.computed.desired);
  if (early.length > 0)
    return ['a reference switch does not wait for the whole creation:', ...early].join('\n');
  const failed = synced.result.operations.filter((r) => r.status !== 'done');
  const conflicts = h.requests.filter((r) => r.status === 409);
  if (failed.length > 0 || conflicts.length > 0) {
    return [
      `${command} did not apply cleanly:`,
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
  return { ids, replaced, live: next.live.objects };
}

/**
 * Why the account did not come back after a hand edit, or what it left: a marker edited away makes
 * the next sync refuse (a look-alike naming the object) without writing, and `--adopt` takes the
 * object back under its key; any other edit is undone by the next sync. Either way the plan is
 * empty after, and no key has two objects.
 */
async function afterHandEdit(
  h: Harness,
  dir: string,
  parallelism: number,
  edit: HandEdit,
): Promise<string | Synced> {
  const removed = edit.markerRemoved;
  if (removed !== undefined) {
    const writes = h.writes().length;
    try {
      await h.sync([dir], { parallelism, guards: { force: true } });
      return `the sync after a hand edit did not refuse: ${edit.what}`;
    } catch (error) {
      const named = error instanceof GuardRefusal && error.guard === 'lookalike';
      if (!named || !error.listing.some((line) => line.includes(removed.id)))
        return `the sync after a hand edit did not refuse the look-alike ${removed.id}: ${whatWasRefused(error)}`;
    }
    if (h.writes().length !== writes) return `the refused sync wrote ${h.writes().length - writes} requests`;
  }
  const synced = await syncOnce(
    h,
    dir,
    { parallelism, savedPlan: false },
    () => undefined,
    removed !== undefined,
  );
  if (typeof synced === 'string') return `after a hand edit (${edit.what}): ${synced}`;
  const counts = new Map<string, number>();
  for (const l of synced.live)
    if (l.marker?.scope === 'model') counts.set(l.marker.key, (counts.get(l.marker.key) ?? 0) + 1);
  const duplicates = [...counts].filter(([, n]) => n > 1);
  if (duplicates.length > 0) return `duplicates after a hand edit: ${JSON.stringify(duplicates)}`;
  if (removed !== undefined && synced.ids.get(removed.key) !== removed.id)
    return `${removed.key} is ${synced.ids.get(removed.key) ?? 'gone'} after --adopt, not ${removed.id}`;
  return synced;
}

/**
 * Operations that make an object reference one this plan creates without waiting for the creates
 * of that object's nested items (a restriction switched to a new policy before its rules exist).
 */
function switchesBeforeCompletion(plan: Plan, desired: DesiredState): string[] {
  const ids = new Set(plan.operations.map((op) => op.id));
  const byKey = new Map(desired.objects.map((o) => [o.key, o]));
  const under = (key: string): string[] =>
    desired.objects.filter((o) => o.parentKey === key).flatMap((o) => [o.key, ...under(o.key)]);
  const early: string[] = [];
  for (const op of plan.operations) {
    const o = op.action === 'delete' ? undefined : byKey.get(op.key);
    if (o === undefined) continue;
    const ancestors: string[] = [];
    for (let p = o.parentKey; p !== undefined; p = byKey.get(p)?.parentKey) ancestors.push(p);
    for (const { ref } of findReferences(descriptorOf(o.kind).fields, o.fields)) {
      if (!ids.has(`create ${ref}`) || ancestors.includes(ref)) continue;
      for (const item of under(ref))
        if (ids.has(`create ${item}`) && !op.dependsOn.includes(`create ${item}`))
          early.push(`  ${op.id} does not wait for create ${item}`);
    }
  }
  return early;
}
