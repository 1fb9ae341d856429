/**
 * The exit status contract, the same for every command. `acctsync --help`, the error renderer and
 * the commands read this table; README's "Exit codes" table is held to it by a test.
 */
export const exitStatus = { success: 0, error: 1, changes: 2, internal: 70 } as const;

/** Each status and what it means, in the order a pipeline author reads them. */
export const exitStatusMeanings: readonly (readonly [status: number, meaning: string])[] = [
  [exitStatus.success, 'success; with `--detailed-exitcode`, also "no changes"'],
  [exitStatus.changes, 'changes present (only `plan` and `sync --dry-run` with `--detailed-exitcode`)'],
  [
    exitStatus.error,
    'any error: invalid config, API or network failure, a failed operation, unknown flag or value; with `--detailed-exitcode`, a plan that `sync` would refuse',
  ],
  [
    exitStatus.internal,
    'internal error: a bug in acctsync (the message asks for a report, with the lines it prints)',
  ],
];
