/**
 * Which account an environment names, read from the declaration alone: the account commands
 * (`unlock`, `forget`, `export`, `events`, `sessions`) reach the environment's account without
 * loading the whole config, so a secret they never send need not be set for them.
 */
import { ConfigError } from './diagnostic.js';
import { environmentChain, findDeclaration, settingsOf, type EnvironmentSettings } from './environments.js';
import { defaultPaths, expandPaths } from './files.js';
import { isPlainObject } from '../plain-object.js';
import { readSources } from './source-reader.js';
import { UserError } from '../errors.js';
import type { SourceFile } from './source.js';

interface EnvironmentAccount {
  readonly settings: EnvironmentSettings;
  /** The scope the environment works in: its own, else the config's. */
  readonly scope?: string;
}

/** The `scope:` the config at `paths` (the defaults when empty) sets, if it is there and sets one. */
export async function configScope(
  paths: readonly string[],
  cwd: string = process.cwd(),
): Promise<string | undefined> {
  const { files } = await expandPaths(paths.length > 0 ? [...paths] : defaultPaths(cwd), cwd);
  return scopeOf((await readSources(files)).sources);
}

function scopeOf(sources: readonly SourceFile[]): string | undefined {
  return sources
    .map((s) => (isPlainObject(s.value) ? s.value.scope : undefined))
    .find((s): s is string => typeof s === 'string');
}

/** `environment`'s account settings in the config at `paths` (the defaults when empty). */
export async function environmentAccount(
  paths: readonly string[],
  environment: string,
  cwd: string = process.cwd(),
): Promise<EnvironmentAccount> {
  const given = paths.length > 0 ? [...paths] : defaultPaths(cwd);
  const { files } = await expandPaths(given, cwd);
  const { sources, findings } = await readSources(files);
  const declaration = findDeclaration(sources, []);
  if (declaration === undefined) {
    throw new UserError(`--env ${environment}: ${given.join(' ')} declares no environments`, {
      details: [
        'Name the config that declares them (acctsync <command> PATH --env NAME), or leave out --env and ACCTSYNC_ENV.',
      ],
    });
  }
  const chain = environmentChain(declaration, environment, []);
  if (chain === undefined) {
    throw new UserError(`no environment named ${environment} in ${declaration.source.file}`, {
      details: [`The environments are ${[...declaration.environments.keys()].join(', ')}.`],
    });
  }
  if (findings.some((d) => d.severity === 'error')) throw new ConfigError(findings);
  const env = chain[chain.length - 1]!;
  const scope = env.scope ?? scopeOf(sources);
  return { settings: settingsOf(env), ...(scope === undefined ? {} : { scope }) };
}
