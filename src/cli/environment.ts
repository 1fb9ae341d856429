/** `--env NAME` (or `ACCTSYNC_ENV`): which declared environment a command works on. */
import type { FlagTable } from './flags.js';

export const environmentOptions = {
  env: {
    type: 'string',
    value: 'NAME',
    help: 'the environment to use, for a config that declares environments\n(default: ACCTSYNC_ENV; see docs/environments.md)',
  },
} as const satisfies FlagTable;

/** The environment named by the flag, else by `ACCTSYNC_ENV`. */
export function environmentName(
  values: { readonly env?: string | undefined },
  env: NodeJS.ProcessEnv,
): string | undefined {
  const name = values.env ?? env.ACCTSYNC_ENV;
  return name === undefined || name === '' ? undefined : name;
}
