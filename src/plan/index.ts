/**
 * The planner: desired state (YAML) vs live state (API) → a `Plan` of plain data, with renderers.
 * `computePlan` is the one entry commands use; the stages are exported for the applier and tests.
 */
import type { ApiClient } from '../api/index.js';
import {
  ConfigError,
  loadDesiredState,
  type Diagnostic,
  type EnvironmentSettings,
  type SecretSpans,
} from '../config/index.js';
import type { DesiredState } from '../resources/index.js';
import { buildPlan } from './build.js';
import type { TokenFileView } from './steps/token-capture.js';
import { fetchLiveState, type LiveState } from './live.js';
import { sensitiveValues } from './secrets.js';
import type { Plan } from './types.js';

export * from './types.js';
export { buildPlan, type BuildOptions } from './build.js';
export type { TokenFileView } from './steps/token-capture.js';
export { fetchLiveState, kindsToFetch, type FetchOptions, type LiveObject, type LiveState } from './live.js';
export { desiredFingerprint, liveFingerprint } from './fingerprint.js';
export {
  formatMetadata,
  parseMetadata,
  hashSecret,
  newSalt,
  type OwnershipMarker,
} from '../resources/ownership/marker.js';
export { renderText, type TextOptions } from './render-text.js';
export { renderJson } from './render-json.js';
export { renderMarkdown, markdownLimit } from './render-markdown.js';
export { codeSpan, fenceFor, htmlText, markdownText } from './markdown-text.js';

export interface ComputePlanOptions {
  /** Config files or directories; the loader's defaults when empty. */
  readonly paths: readonly string[];
  readonly client: ApiClient;
  /** Where `{env}` values come from. */
  readonly env?: NodeJS.ProcessEnv;
  /** Base of relative config paths. */
  readonly cwd?: string;
  readonly adopt?: boolean;
  readonly noDelete?: boolean;
  /** Protected keys this plan may delete or replace. */
  readonly unprotect?: readonly string[];
  /** Overrides the config's scope. */
  readonly scope?: string;
  /** The environment to load, for a config that declares environments. */
  readonly environment?: string;
  readonly signal?: AbortSignal;
  /** The token file's captured ids (`--token-output`) and `--recapture-tokens`. */
  readonly tokens?: TokenFileView;
}

export interface ComputedPlan {
  readonly plan: Plan;
  readonly desired: DesiredState;
  readonly live: LiveState;
}

/** The desired state loaded from config files, with what the CLI shows and needs besides. */
export interface LoadedConfig {
  readonly desired: DesiredState;
  readonly warnings: readonly Diagnostic[];
  readonly secretSpans: SecretSpans;
  /** The environment loaded: which variables name its account. */
  readonly environment?: EnvironmentSettings;
}

/** A plan computed from config files: also the loader's warnings, for the CLI to show as `validate` does. */
export interface ComputedConfigPlan extends ComputedPlan, Omit<LoadedConfig, 'desired'> {}

/**
 * Loads the config as `computePlan` does, before any connection: an environment's config names
 * the account to connect to. Throws `ConfigError` for an invalid config.
 */
export async function loadConfig(
  options: Pick<ComputePlanOptions, 'paths' | 'env' | 'cwd' | 'scope' | 'environment'>,
): Promise<LoadedConfig> {
  const loaded = await loadDesiredState([...options.paths], {
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.environment === undefined ? {} : { environment: options.environment }),
  });
  if (!loaded.ok) throw new ConfigError(loaded.diagnostics, { secretSpans: loaded.secretSpans });
  const desired: DesiredState =
    options.scope === undefined ? loaded.state : { ...loaded.state, scope: options.scope };
  return {
    desired,
    warnings: loaded.warnings,
    secretSpans: loaded.secretSpans,
    ...(loaded.environment === undefined ? {} : { environment: loaded.environment }),
  };
}

/**
 * Loads the config, fetches the live state and computes the plan. Throws `ConfigError` for an
 * invalid config, `ApiError`/`NetworkError` from the API, `UserError` for a metadata value that
 * the ownership marker would push over its limit.
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
  options: {
    readonly adopt?: boolean;
    readonly noDelete?: boolean;
    readonly unprotect?: readonly string[];
    readonly configPaths?: readonly string[];
    readonly environment?: string;
    readonly signal?: AbortSignal;
    readonly tokens?: TokenFileView;
  } = {},
): Promise<ComputedPlan> {
  client.protectSecrets(sensitiveValues(desired));
  const live = await fetchLiveState(client, desired, {
    noDelete: options.noDelete ?? false,
    ...(options.signal ? { signal: options.signal } : {}),
  });
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
