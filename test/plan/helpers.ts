/**
 * Test support for the planner: the suites' account options, the examples, and the real applier
 * run one operation at a time, to seed the emulator through the API and to check that a plan, once
 * applied, leaves nothing to do.
 */
import type { ApiClient } from '../../src/api/index.js';
import { applyPlan as applyWith } from '../../src/apply/index.js';
import type { DesiredState } from '../../src/resources/index.js';
import type { Plan } from '../../src/plan-format/index.js';
import { loadDesiredState } from '../../src/config/index.js';
import type { AccountOptions } from '../support/account.js';

/** The desired state of `examples/account`, loaded as the CLI would (no environment needed). */
export async function loadExamples(): Promise<DesiredState> {
  const loaded = await loadDesiredState(['examples/account'], { env: {} });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics, null, 2));
  return loaded.state;
}

/**
 * The plan suites' account: their client never retries, so the requests a plan makes are exactly
 * the ones counted.
 */
export const planAccount: AccountOptions = { client: { retry: { attempts: 1 } } };

/**
 * Executes `plan` with the real applier, one operation at a time and no guard, so that a plan's
 * requests are exactly the ones the account answers; returns the ids by key afterwards.
 */
export async function applyPlan(
  client: ApiClient,
  plan: Plan,
  desired: DesiredState,
): Promise<Map<string, string>> {
  const result = await applyWith(plan, desired, client, { parallelism: 1 });
  const failed = result.operations.find((op) => op.status !== 'done');
  if (failed !== undefined)
    throw new Error(`${failed.id}: ${JSON.stringify(failed.failure ?? failed.status)}`);
  const ids = new Map(Object.entries(plan.resolvedIds));
  for (const op of result.operations)
    if (op.objectId !== undefined && op.action !== 'delete') ids.set(op.key, op.objectId);
  return ids;
}
