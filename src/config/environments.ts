/**
 * Environments: one repository, several accounts. One file declares them (`environments:`), each
 * with the overlay files that change the shared base for it, the account it talks to (the names of
 * the variables holding its API URL and key), its scope and its `{var}` values. An environment may
 * extend another: its overlays apply after the other's.
 */
import { dirname, resolve } from 'node:path';
import type { DocPath } from './diagnostic.js';
import { isPlainObject } from '../plain-object.js';
import type { FileFinding, SourceFile } from './source.js';
import type { NamedValue, Values } from './sources.js';
import { didYouMean } from '../suggest.js';

/** How a command reaches an environment's account, and which part of it is managed. */
export interface EnvironmentSettings {
  readonly name: string;
  /** Overrides the config's scope. */
  readonly scope?: string;
  /** The variable holding the API's base URL (default `SVC_API_URL`). */
  readonly apiUrlEnv: string;
  /** The variable holding the API key (default `SVC_API_KEY`). */
  readonly apiKeyEnv: string;
}

export interface Environment extends EnvironmentSettings {
  /** Overlay files and directories, absolute. */
  readonly paths: readonly string[];
  readonly extends?: string;
  readonly values: ReadonlyMap<string, NamedValue>;
  readonly at: DocPath;
}

/** The environments one file declares, and the `values:` defaults beside them. */
export interface Declaration {
  readonly source: SourceFile;
  readonly environments: ReadonlyMap<string, Environment>;
  readonly defaults: ReadonlyMap<string, NamedValue>;
}

export const defaultApiUrlEnv = 'SVC_API_URL';
export const defaultApiKeyEnv = 'SVC_API_KEY';

function namedValues(source: SourceFile, at: DocPath, map: unknown): Map<string, NamedValue> {
  if (!isPlainObject(map)) return new Map();
  return new Map(
    Object.entries(map).map(([name, value]) => [name, { value, place: { source, path: [...at, name] } }]),
  );
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The declaration in `sources`, if any; a second declaring file is an error. */
export function findDeclaration(sources: readonly SourceFile[], out: FileFinding[]): Declaration | undefined {
  const declaring = sources.filter((s) => isPlainObject(s.value) && 'environments' in s.value);
  const valueFiles = sources.filter((s) => isPlainObject(s.value) && 'values' in s.value);
  const [source, ...others] = declaring.length > 0 ? declaring : valueFiles;
  for (const other of [...others, ...valueFiles.filter((s) => s !== source && !others.includes(s))]) {
    out.push({
      source: other,
      path: ['environments' in (other.value as object) ? 'environments' : 'values'],
      atKey: true,
      message: `environments and values are declared once, and ${source?.file} already does`,
      hint: 'keep environments: and values: in one file, the root of the config',
    });
  }
  if (source === undefined) return undefined;
  const root = source.value as Record<string, unknown>;
  const dir = dirname(source.absolute);
  const environments = new Map<string, Environment>();
  if (isPlainObject(root.environments)) {
    for (const [name, raw] of Object.entries(root.environments)) {
      if (!isPlainObject(raw)) continue;
      const at: DocPath = ['environments', name];
      environments.set(name, {
        name,
        paths: strings(raw.paths).map((p) => resolve(dir, p)),
        ...(typeof raw.extends === 'string' ? { extends: raw.extends } : {}),
        ...(typeof raw.scope === 'string' ? { scope: raw.scope } : {}),
        apiUrlEnv: typeof raw.api_url_env === 'string' ? raw.api_url_env : defaultApiUrlEnv,
        apiKeyEnv: typeof raw.api_key_env === 'string' ? raw.api_key_env : defaultApiKeyEnv,
        values: namedValues(source, [...at, 'values'], raw.values),
        at,
      });
    }
  }
  return { source, environments, defaults: namedValues(source, ['values'], root.values) };
}

/**
 * `name` and the environments it extends, the most basic first: the order their overlays apply
 * in. Undefined (with a finding) for an unknown name or a cycle.
 */
export function environmentChain(
  decl: Declaration,
  name: string,
  out: FileFinding[],
): Environment[] | undefined {
  const chain: Environment[] = [];
  let current: string | undefined = name;
  let from: { at: DocPath } | undefined;
  while (current !== undefined) {
    const env = decl.environments.get(current);
    if (env === undefined) {
      const hint = didYouMean(current, decl.environments.keys());
      out.push({
        source: decl.source,
        path: from === undefined ? ['environments'] : [...from.at, 'extends'],
        atKey: from === undefined,
        message: `no environment named ${current}`,
        ...(hint === undefined
          ? { hint: `the environments are ${[...decl.environments.keys()].join(', ')}` }
          : { hint }),
      });
      return undefined;
    }
    if (chain.includes(env)) {
      out.push({
        source: decl.source,
        path: [...env.at, 'extends'],
        message: `environments extend each other in a cycle: ${[...chain, env].map((e) => e.name).join(' -> ')}`,
      });
      return undefined;
    }
    chain.unshift(env);
    from = env;
    current = env.extends;
  }
  return chain;
}

/** The `{var}` values of the chain's last environment: defaults, then each environment's own. */
export function valuesOf(decl: Declaration | undefined, chain: readonly Environment[]): Values {
  const byName = new Map(decl?.defaults ?? []);
  for (const env of chain) for (const [name, value] of env.values) byName.set(name, value);
  const last = chain.at(-1);
  return last === undefined ? { byName } : { environment: last.name, byName };
}

/** What a command needs of the chain's last environment. */
export function settingsOf(env: Environment): EnvironmentSettings {
  return {
    name: env.name,
    ...(env.scope === undefined ? {} : { scope: env.scope }),
    apiUrlEnv: env.apiUrlEnv,
    apiKeyEnv: env.apiKeyEnv,
  };
}
