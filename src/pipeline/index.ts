/**
 * The stages composed: `runOnce` (load, lease, read, plan, policy, guards, apply or not) is the one
 * composition; `computePlan` and `planFor` are its plan-only form, for callers that only read.
 */
import type { ApiClient } from '../api/index.js';
import type { LoadConfigOptions, LoadedConfig } from '../config/index.js';
import type { LiveState } from '../live/index.js';
import type { Plan, TokenFileView } from '../plan-format/index.js';
import { builtinKinds, type DesiredState, type KindRegistry } from '../resources/index.js';
import { runOnce, type RunInputs, type RunResult } from './run-once.js';

export { runOnce, type Planned, type RunInputs, type RunResult } from './run-once.js';

interface PlanForOptions {
  readonly adopt?: boolean;
  readonly noDelete?: boolean;
  /** Protected keys this plan may delete or replace. */
  readonly unprotect?: readonly string[];
  readonly configPaths?: readonly string[];
  /** The environment the config was loaded for, when it declares environments. */
  readonly environment?: string;
  readonly signal?: AbortSignal;
  /** The token file's captured ids (`--token-output`) and `--recapture-tokens`. */
  readonly tokens?: TokenFileView;
  /** The plan's `createdAt`; now by default. */
  readonly now?: Date;
  /** The kinds the account is read and planned by: the built-in ones unless given. */
  readonly kinds?: KindRegistry;
}

interface ComputePlanOptions extends LoadConfigOptions, Omit<PlanForOptions, 'configPaths' | 'kinds'> {
  readonly client: ApiClient;
}

export interface ComputedPlan {
  readonly plan: Plan;
  readonly desired: DesiredState;
  readonly live: LiveState;
}

/** A plan computed from config files: also the loader's warnings, for the CLI to show as `validate` does. */
interface ComputedConfigPlan extends ComputedPlan, Omit<LoadedConfig, 'desired'> {}

function planning(options: PlanForOptions): RunInputs['planning'] {
  return {
    adopt: options.adopt ?? false,
    noDelete: options.noDelete ?? false,
    now: options.now ?? new Date(),
    ...(options.unprotect === undefined ? {} : { unprotect: options.unprotect }),
    ...(options.tokens === undefined ? {} : { tokens: options.tokens }),
  };
}

/** The plan of a run that only plans. */
function plannedOf(result: RunResult): ComputedPlan & { readonly loaded?: LoadedConfig | undefined } {
  if (!('plan' in result)) throw new Error(`a run without lease or apply ended ${result.status}`);
  return { plan: result.plan, desired: result.desired, live: result.live, loaded: result.loaded };
}

/**
 * Loads the config, reads the live state and computes the plan. Throws `ConfigError` for an
 * invalid config, `ApiError`/`NetworkError` from the API, `UserError` for a plan that breaks a rule.
 */
export async function computePlan(options: ComputePlanOptions): Promise<ComputedConfigPlan> {
  const { client, ...load } = options;
  const { loaded, ...computed } = plannedOf(
    await runOnce({
      desired: { load },
      account: () => Promise.resolve({ client }),
      planning: planning(options),
      guards: { force: false },
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      // A config loaded from files holds the built-in kinds alone.
      kinds: builtinKinds,
    }),
  );
  if (loaded === undefined) throw new Error('a config loaded from files has its load report');
  const { desired: _desired, ...report } = loaded;
  return { ...computed, ...report };
}

/** The plan for a desired state already loaded (tests). */
export async function planFor(
  desired: DesiredState,
  client: ApiClient,
  options: PlanForOptions = {},
): Promise<ComputedPlan> {
  const { loaded: _none, ...computed } = plannedOf(
    await runOnce({
      desired: {
        desired,
        configPaths: options.configPaths ?? [],
        ...(options.environment === undefined ? {} : { environment: options.environment }),
      },
      account: () => Promise.resolve({ client }),
      planning: planning(options),
      guards: { force: false },
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      kinds: options.kinds ?? builtinKinds,
    }),
  );
  return computed;
}
