/**
 * The stages composed for the commands that plan: load the config (`config/`), read the live
 * account (`live/`), compute the plan (`plan/`, a pure function of the two states).
 */
import { ApiError, type ApiClient } from '../api/index.js';
import { loadConfig, type LoadConfigOptions, type LoadedConfig } from '../config/index.js';
import { fetchLiveState, type LiveState } from '../live/index.js';
import { buildPlan, sensitiveValues, type Plan, type TokenFileView } from '../plan/index.js';
import type { DesiredState } from '../resources/index.js';

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
  /**
   * A read of every managed collection begun while the config loaded, through `client`. When the
   * server refused it, the account is read again here, once the config's secrets are protected: a
   * server's answer may quote a value it was sent.
   */
  readonly live?: Promise<LiveState>;
}

interface ComputePlanOptions extends LoadConfigOptions, Omit<PlanForOptions, 'configPaths'> {
  readonly client: ApiClient;
}

export interface ComputedPlan {
  readonly plan: Plan;
  readonly desired: DesiredState;
  readonly live: LiveState;
}

/** A plan computed from config files: also the loader's warnings, for the CLI to show as `validate` does. */
interface ComputedConfigPlan extends ComputedPlan, Omit<LoadedConfig, 'desired'> {}

/**
 * Loads the config, reads the live state and computes the plan. Throws `ConfigError` for an
 * invalid config, `ApiError`/`NetworkError` from the API, `UserError` for a plan that breaks a rule.
 */
export async function computePlan(options: ComputePlanOptions): Promise<ComputedConfigPlan> {
  const { desired, ...loaded } = await loadConfig(options);
  const computed = await planFor(desired, options.client, { ...options, configPaths: options.paths });
  return { ...computed, ...loaded };
}

/** The plan for a desired state already loaded (tests, `watch`). */
export async function planFor(
  desired: DesiredState,
  client: ApiClient,
  options: PlanForOptions = {},
): Promise<ComputedPlan> {
  client.protectSecrets(sensitiveValues(desired));
  const read = (): Promise<LiveState> =>
    fetchLiveState(client, desired, {
      noDelete: options.noDelete ?? false,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  const live = await (options.live?.catch((err: unknown) => {
    if (err instanceof ApiError) return read();
    throw err;
  }) ?? read());
  const plan = buildPlan(desired, live, {
    scope: desired.scope,
    adopt: options.adopt ?? false,
    noDelete: options.noDelete ?? false,
    configPaths: options.configPaths ?? [],
    ...(options.unprotect === undefined ? {} : { unprotect: options.unprotect }),
    ...(options.environment === undefined ? {} : { environment: options.environment }),
    ...(options.tokens ? { tokens: options.tokens } : {}),
  });
  return { plan, desired, live };
}
