/**
 * The planner: desired state (YAML) vs live state (API) → a `Plan` of plain data, with renderers.
 * `computePlan` is the one entry commands use; the stages are exported for the applier and tests.
 */
import type { ApiClient } from '../api/index.js';
import { ConfigError, loadDesiredState, type Diagnostic, type SecretSpans } from '../config/index.js';
import type { DesiredState } from '../resources/index.js';
import { buildPlan, type TokenFileView } from './build.js';
import { fetchLiveState, type LiveState } from './live.js';
import { sensitiveValues } from './secrets.js';
import type { Plan } from './types.js';

export * from './types.js';
export { buildPlan, type BuildOptions, type TokenFileView } from './build.js';
export { fetchLiveState, kindsToFetch, type FetchOptions, type LiveObject, type LiveState } from './live.js';
export { desiredFingerprint, liveFingerprint } from './fingerprint.js';
export { formatMetadata, parseMetadata, hashSecret, newSalt, type OwnershipMarker } from './ownership.js';
export { renderText, type TextOptions } from './render-text.js';
export { renderJson } from './render-json.js';
export { renderMarkdown, markdownLimit } from './render-markdown.js';

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
  /** Overrides the config's scope. */
  readonly scope?: string;
  readonly signal?: AbortSignal;
  /** The token file's captured ids (`--token-output`) and `--recapture-tokens`. */
  readonly tokens?: TokenFileView;
}

export interface ComputedPlan {
  readonly plan: Plan;
  readonly desired: DesiredState;
  readonly live: LiveState;
}

/** A plan computed from config files: also the loader's warnings, for the CLI to show as `validate` does. */
export interface ComputedConfigPlan extends ComputedPlan {
  readonly warnings: readonly Diagnostic[];
  readonly secretSpans: SecretSpans;
}

/**
 * Loads the config, fetches the live state and computes the plan. Throws `ConfigError` for an
 * invalid config, `ApiError`/`NetworkError` from the API, `UserError` for a metadata value that
 * the ownership marker would push over its limit.
 */
export async function computePlan(options: ComputePlanOptions): Promise<ComputedConfigPlan> {
  const loaded = await loadDesiredState([...options.paths], {
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  if (!loaded.ok) throw new ConfigError(loaded.diagnostics, { secretSpans: loaded.secretSpans });
  const desired: DesiredState =
    options.scope === undefined ? loaded.state : { ...loaded.state, scope: options.scope };
  const computed = await planFor(desired, options.client, { ...options, configPaths: options.paths });
  return { ...computed, warnings: loaded.warnings, secretSpans: loaded.secretSpans };
}

/** The plan for a desired state already loaded (tests, `watch`). */
export async function planFor(
  desired: DesiredState,
  client: ApiClient,
  options: {
    readonly adopt?: boolean;
    readonly noDelete?: boolean;
    readonly configPaths?: readonly string[];
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
    ...(options.tokens ? { tokens: options.tokens } : {}),
  });
  return { plan, desired, live };
}
