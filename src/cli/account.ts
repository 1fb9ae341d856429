/**
 * The account an account command (`unlock`, `forget`, `export`, `events`, `sessions`) acts on:
 * the one `--env NAME` / `ACCTSYNC_ENV` names in the config at PATH, else `SVC_API_URL` and
 * `SVC_API_KEY`. With none configured such a command refuses; the embedded emulator only when
 * `--api-url embedded` names it.
 */
import { environmentAccount, type EnvironmentSettings } from '../config/index.js';
import { openConnection, type Connection, type ConnectionFlags } from './connection.js';
import { environmentName } from './environment.js';

/** Where a command's account comes from, as the user gave it: to repeat in a suggested command. */
export interface AccountTarget {
  readonly paths: readonly string[];
  readonly environment?: string | undefined;
}

interface OpenedAccount {
  readonly connection: Connection;
  readonly target: AccountTarget;
  /** The environment's settings, when one is named. */
  readonly environment?: EnvironmentSettings;
  /** The scope the named environment works in. */
  readonly scope?: string;
}

/** ` config/ --env production`: what a suggested command needs to reach the same account. */
export function targetArguments(target: AccountTarget): string {
  const env = target.environment === undefined ? '' : ` --env ${target.environment}`;
  return `${target.paths.map((p) => ` ${p}`).join('')}${env}`;
}

/** Opens the account of `acctsync <command>`; refuses when none is configured (connection.ts). */
export async function openAccount(
  command: string,
  values: ConnectionFlags & { readonly env?: string | undefined },
  paths: readonly string[],
  options: { readonly deadline?: boolean } = {},
): Promise<OpenedAccount> {
  const name = environmentName(values, process.env);
  const target = { paths, environment: name };
  const declared = name === undefined ? undefined : await environmentAccount(paths, name);
  const connection = await openConnection({
    flags: values,
    env: process.env,
    deadline: options.deadline ?? true,
    accountCommand: command,
    ...(declared === undefined ? {} : { environment: declared.settings }),
  });
  return {
    connection,
    target,
    ...(declared === undefined ? {} : { environment: declared.settings }),
    ...(declared?.scope === undefined ? {} : { scope: declared.scope }),
  };
}
