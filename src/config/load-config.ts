/** The loader as commands use it: the config loaded, or a `ConfigError` naming every problem. */
import type { DesiredState } from '../resources/index.js';
import { ConfigError, type Diagnostic } from './diagnostic.js';
import type { EnvironmentSettings } from './environments.js';
import { loadDesiredState } from './load.js';
import type { SecretSpans } from './secret-spans.js';

export interface LoadConfigOptions {
  /** Config files or directories; the loader's defaults when empty. */
  readonly paths: readonly string[];
  /** Where `{env}` values come from. */
  readonly env?: NodeJS.ProcessEnv;
  /** Base of relative config paths. */
  readonly cwd?: string;
  /** Overrides the config's scope. */
  readonly scope?: string;
  /** The environment to load, for a config that declares environments. */
  readonly environment?: string;
  /** `--files-root`: directories `{file}` values and symlinks may also read below. */
  readonly filesRoot?: readonly string[];
}

/** The desired state loaded from config files, with what the CLI shows and needs besides. */
export interface LoadedConfig {
  readonly desired: DesiredState;
  readonly warnings: readonly Diagnostic[];
  readonly secretSpans: SecretSpans;
  /** The environment loaded: which variables name its account. */
  readonly environment?: EnvironmentSettings;
  /** The config's other environments, in declaration order (none without environments). */
  readonly otherEnvironments: readonly string[];
}

/**
 * Loads the config before any connection: an environment's config names the account to connect
 * to. Throws `ConfigError` for an invalid config.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  const loaded = await loadDesiredState([...options.paths], {
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.environment === undefined ? {} : { environment: options.environment }),
    ...(options.filesRoot === undefined ? {} : { filesRoot: options.filesRoot }),
  });
  if (!loaded.ok) throw new ConfigError(loaded.diagnostics, { secretSpans: loaded.secretSpans });
  const desired: DesiredState =
    options.scope === undefined ? loaded.state : { ...loaded.state, scope: options.scope };
  return {
    desired,
    warnings: loaded.warnings,
    secretSpans: loaded.secretSpans,
    ...(loaded.environment === undefined ? {} : { environment: loaded.environment }),
    otherEnvironments: loaded.environments.filter((name) => name !== loaded.environment?.name),
  };
}
