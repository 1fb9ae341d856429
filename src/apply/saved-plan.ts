/**
 * Reviewed == applied: a plan saved by `acctsync plan --out` runs only against the live state and
 * config it was computed from. The fresh plan computed at apply time is compared with the saved one,
 * so a refusal can say which operations appeared, disappeared or changed, not only that a hash moved.
 * The planner is a function of its inputs: with the same fingerprints, every operation of the saved
 * plan (changes, requests, their bodies and markers) is exactly that of the fresh one.
 */
import { readFile } from 'node:fs/promises';
import { isSystemError, systemUserError, UserError } from '../errors.js';
import { canonicalJson } from '../resources/index.js';
import type { Operation, Plan } from '../plan-format/index.js';
import { isPlainObject } from '../plain-object.js';

/**
 * Reads a plan saved with `acctsync plan --out`.
 * @throws {UserError} when the file is missing, not JSON, or not a plan of a format this version runs
 */
export async function readSavedPlan(path: string): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw isSystemError(err) ? systemUserError(`read the plan file ${path}`, err) : err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UserError(`${path} is not JSON: save a plan with acctsync plan --out ${path}`);
  }
  if (
    !isPlainObject(parsed) ||
    parsed.formatVersion !== 2 ||
    !Array.isArray(parsed.operations) ||
    !Array.isArray(parsed.unmanaged) ||
    typeof parsed.liveFingerprint !== 'string' ||
    typeof parsed.desiredFingerprint !== 'string' ||
    !Array.isArray(parsed.configPaths) ||
    !isPlainObject(parsed.options) ||
    typeof parsed.options.adopt !== 'boolean' ||
    typeof parsed.options.noDelete !== 'boolean'
  ) {
    throw new UserError(
      `${path} is not a plan this acctsync can apply (expected formatVersion 2 from acctsync plan --out: save the plan again with this version)`,
    );
  }
  return parsed as unknown as Plan;
}

/** An operation as its plan file holds it, member order aside: two plans' operations are the same when these are. */
function operationText(op: Operation): string {
  return canonicalJson(JSON.parse(JSON.stringify(op)));
}

/** Lines saying how the operations of `fresh` differ from those of `saved`. */
function operationDifferences(saved: Plan, fresh: Plan): string[] {
  const before = new Map(saved.operations.map((op) => [op.id, op]));
  const after = new Map(fresh.operations.map((op) => [op.id, op]));
  const lines: string[] = [];
  for (const [id, op] of after) {
    const old = before.get(id);
    if (old === undefined) lines.push(`  + now also needed: ${id}`);
    else if (operationText(old) !== operationText(op)) lines.push(`  ~ now different: ${id}`);
  }
  for (const id of before.keys()) if (!after.has(id)) lines.push(`  - no longer needed: ${id}`);
  return lines;
}

/**
 * @throws {UserError} when the config or the live state changed since `saved` was made, saying what
 *   changed and how to proceed
 */
export function checkSavedPlanCurrent(saved: Plan, fresh: Plan): void {
  const what: string[] = [];
  if (saved.scope !== fresh.scope) what.push(`the scope changed from '${saved.scope}' to '${fresh.scope}'`);
  if (saved.desiredFingerprint !== fresh.desiredFingerprint)
    what.push(`the config (${saved.configPaths.join(', ') || 'default paths'}) changed`);
  if (saved.liveFingerprint !== fresh.liveFingerprint) what.push('the live account changed');
  const differences = operationDifferences(saved, fresh);
  // Same inputs, other requests: the file was edited, or made by another version of acctsync.
  if (what.length === 0 && differences.length > 0)
    what.push(
      'nothing changed, yet the operations it holds are not those a plan made now holds (an edited file, or one made by another acctsync version)',
    );
  if (what.length === 0) return;
  throw new UserError(
    `refusing to apply a stale plan: since it was made (${saved.createdAt}), ${what.join(' and ')}`,
    {
      details: [
        ...(differences.length === 0
          ? ['The operations would be the same, but objects they read or reference changed.']
          : ['A plan made now differs:', ...differences]),
        'Review a fresh plan (acctsync plan --out plan.json) and apply that one.',
      ],
    },
  );
}
