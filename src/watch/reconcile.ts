/**
 * The one place where the daemon's reconcile step is built from the stages `sync` uses: load the
 * whole config tree, plan against the live account, check the same guards (never forced), apply.
 * Expected failures come back as results, so the loop can count, report and back off.
 */
import type { ApiClient } from '../api/index.js';
import {
  applyPlan,
  checkGuards,
  describeResult,
  fileTokenSink,
  type ApplyResult,
  type GuardOptions,
} from '../apply/index.js';
import { loadDesiredState, renderDiagnostic } from '../config/index.js';
import { UserError } from '../errors.js';
import { planFor } from '../plan/index.js';
import type { DesiredState } from '../resources/index.js';
import type { ReconcileContext, ReconcileResult, ReconcileStep } from './types.js';

export interface ReconcileSettings {
  /** Config files or directories, as given on the command line. */
  readonly paths: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly client: ApiClient;
  readonly scope?: string;
  readonly adopt: boolean;
  readonly noDelete: boolean;
  readonly parallelism: number;
  readonly continueOnError: boolean;
  /** The guard thresholds; `force` is not accepted: the daemon never skips a guard. */
  readonly guards: Omit<GuardOptions, 'force'>;
  /** Where created tokens go; without it they are not kept (the plan notes say so). */
  readonly tokenOutput?: string;
}

/** The last desired state the account was made equal to, and when. */
interface LastGood {
  readonly state: DesiredState;
  readonly reconciledAt: Date;
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const userDetails = (err: unknown): readonly string[] => (err instanceof UserError ? err.details : []);

function appliedOf(result: ApplyResult): ReconcileResult['applied'] {
  return result.operations
    .filter((op) => op.status === 'done')
    .map((op) => ({ kind: op.kind, action: op.action }));
}

/**
 * Builds the reconcile step. It keeps the last good desired state (the last one reconciled
 * successfully): when the tree fails to load (a broken or half-written file), the step plans nothing
 * and changes nothing, and reports the diagnostics along with the state the account stays at.
 */
export function createReconcileStep(settings: ReconcileSettings): ReconcileStep {
  let lastGood: LastGood | undefined;
  const guards: GuardOptions = { ...settings.guards, force: false };

  return async ({ log, signal }: ReconcileContext): Promise<ReconcileResult> => {
    const loaded = await loadDesiredState([...settings.paths], { env: settings.env, cwd: settings.cwd });
    if (!loaded.ok) {
      const errors = loaded.diagnostics.filter((d) => d.severity === 'error').length;
      const kept =
        lastGood === undefined
          ? 'no config has been applied yet'
          : `keeping the desired state last applied at ${lastGood.reconciledAt.toISOString()} (${lastGood.state.objects.length} objects)`;
      return {
        status: 'invalid_config',
        planned: 0,
        applied: [],
        reason: `the config failed to load (${errors} ${errors === 1 ? 'error' : 'errors'}); nothing was changed, ${kept}`,
        details: loaded.diagnostics.map((d) => renderDiagnostic(d)),
      };
    }
    for (const warning of loaded.warnings)
      log.warn({ diagnostic: renderDiagnostic(warning) }, 'config warning');
    const desired: DesiredState =
      settings.scope === undefined ? loaded.state : { ...loaded.state, scope: settings.scope };
    const succeeded = (planned: number, applied: ReconcileResult['applied']): ReconcileResult => {
      lastGood = { state: desired, reconciledAt: new Date() };
      return { status: 'success', planned, applied };
    };

    let plan;
    try {
      ({ plan } = await planFor(desired, settings.client, {
        adopt: settings.adopt,
        noDelete: settings.noDelete,
        configPaths: settings.paths,
        signal,
      }));
    } catch (err) {
      // A UserError here is the config's (a metadata value the ownership marker pushes over the limit).
      const status = err instanceof UserError ? 'invalid_config' : 'failed';
      return {
        status,
        planned: 0,
        applied: [],
        reason: `planning failed: ${message(err)}`,
        details: userDetails(err),
      };
    }
    const planned = plan.operations.length;
    if (planned === 0) return succeeded(0, []);
    log.info({ summary: plan.summary, notes: plan.notes }, 'plan has changes');

    try {
      checkGuards(plan, desired, guards);
    } catch (err) {
      return { status: 'refused', planned, applied: [], reason: message(err), details: userDetails(err) };
    }
    if (signal.aborted)
      return {
        status: 'failed',
        planned,
        applied: [],
        reason: 'the daemon is stopping; nothing was applied',
      };

    let result: ApplyResult;
    try {
      const tokens =
        settings.tokenOutput === undefined ? undefined : await fileTokenSink(settings.tokenOutput);
      result = await applyPlan(plan, desired, settings.client, {
        parallelism: settings.parallelism,
        continueOnError: settings.continueOnError,
        guards,
        signal,
        ...(tokens === undefined ? {} : { tokens }),
        progress: {
          started() {},
          finished: (op) =>
            log[op.status === 'done' ? 'info' : 'error']({ operation: op.id }, describeResult(op)),
          end() {},
        },
      });
    } catch (err) {
      return {
        status: 'failed',
        planned,
        applied: [],
        reason: `apply failed: ${message(err)}`,
        details: userDetails(err),
      };
    }
    const applied = appliedOf(result);
    if (result.status === 'succeeded') return succeeded(planned, applied);
    const { failed, notAttempted } = result.counts;
    return {
      status: 'failed',
      planned,
      applied,
      reason: `${failed} operations failed and ${notAttempted} were not attempted${signal.aborted ? ' (the daemon is stopping)' : ''}`,
      details: result.operations.filter((op) => op.status !== 'done').map(describeResult),
    };
  };
}
