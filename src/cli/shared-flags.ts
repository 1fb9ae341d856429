/**
 * The flag tables several commands share. Only data and the defaults they print: `acctsync
 * <command> --help` reads them without loading what the flags drive.
 */
import { defaultTimeoutMs } from '../api/options.js';
import { defaultGuardOptions, defaultParallelism } from '../apply/defaults.js';
import { defaultLeaseTtlMs, maxLeaseTtlMs } from '../lease/default-ttl.js';
import { formatDuration } from '../duration.js';
import type { FlagTable } from './flags.js';

/** `--traffic-tests` on the commands that plan: the connections the plan's what-if runs. */
export const sampleTrafficTestsOptions = {
  'traffic-tests': {
    type: 'string',
    multiple: true,
    value: 'PATH',
    help: 'traffic test files (a file or a directory of them; repeatable): their connections\nare the samples the plan runs through each changed TLS edge a test names',
  },
} as const satisfies FlagTable;

/** Command-line options every command that talks to the API accepts. */
export const connectionOptions = {
  'api-url': {
    type: 'string',
    value: 'URL',
    help: "API address, or 'embedded' (default: SVC_API_URL, else embedded)",
  },
  'api-key-file': { type: 'string', value: 'FILE', help: 'file holding the API key (default: SVC_API_KEY)' },
  'rate-limit': {
    type: 'string',
    value: 'N/m',
    help: 'pace requests below N per minute (the live API allows about 120)',
  },
  timeout: {
    type: 'string',
    value: 'DURATION',
    help: `per request attempt (default ${formatDuration(defaultTimeoutMs)}); 4 attempts per request`,
  },
} as const satisfies FlagTable;

/**
 * The connection options of the commands that act on an account as it is (export, forget, unlock,
 * events, sessions): no account configured is an error there, and the emulator is asked for by name.
 */
export const accountConnectionOptions = {
  ...connectionOptions,
  'api-url': {
    type: 'string',
    value: 'URL',
    help: "API address (default: SVC_API_URL, or the environment's variable), or 'embedded' for\nthe local emulator's account; with none, the command refuses",
  },
} as const satisfies FlagTable;

/**
 * The overall budget of a one-shot command (plan, sync, apply, export, ...): every request, retry
 * and rate-limit wait stops there. Not for `watch`, whose client lives as long as the daemon.
 */
export const defaultDeadlineMs = 15 * 60_000;

/** `--deadline`, for one-shot commands. */
export const deadlineOptions = {
  deadline: {
    type: 'string',
    value: 'DURATION',
    help: `for the whole command (default ${formatDuration(defaultDeadlineMs)})`,
  },
} as const satisfies FlagTable;

/** Options of every command that prints a plan. */
export const planOutputOptions = {
  output: {
    type: 'string',
    default: 'text',
    value: 'text|json|markdown',
    help: 'rendering on stdout (default text; json is documented in docs/plan-output.md)',
  },
  out: { type: 'string', value: 'FILE', help: "also save the JSON plan, for 'acctsync apply FILE'" },
  'detailed-exitcode': {
    type: 'boolean',
    default: false,
    help: 'exit 0 without changes, 2 with changes, 1 on error or a plan sync would refuse',
  },
  'no-graph': {
    type: 'boolean',
    default: false,
    help: 'leave the change graph (a mermaid block) out of the markdown',
  },
} as const satisfies FlagTable;

/** What the plan may touch: the flags `plan`, `sync` and `watch` share. */
export const ownershipOptions = {
  adopt: {
    type: 'boolean',
    default: false,
    help: 'take over unmanaged objects matching a desired one by natural key',
  },
  'no-delete': {
    type: 'boolean',
    default: false,
    help: 'plan no deletion of managed objects that left the config',
  },
  scope: { type: 'string', value: 'S', help: "ownership scope (default: the config's scope)" },
} as const satisfies FlagTable;

/** How the plan is computed: the flags `plan` and `sync` share (`watch` never unprotects). */
export const planningOptions = {
  ...ownershipOptions,
  unprotect: {
    type: 'string',
    multiple: true,
    value: 'KEY',
    help: 'allow deleting or replacing the protected object KEY (repeatable)',
  },
} as const satisfies FlagTable;

/** `--lock-ttl`, alone for `watch`, whose standby waits for the lease without a timeout. */
export const leaseTtlOptions = {
  'lock-ttl': {
    type: 'string',
    value: 'DURATION',
    help: `how long the scope's lease outlives a holder that stops renewing it\n(default ${formatDuration(defaultLeaseTtlMs)}, at most ${formatDuration(maxLeaseTtlMs)}; see docs/lease.md)`,
  },
} as const satisfies FlagTable;

export const leaseOptions = {
  'lock-timeout': {
    type: 'string',
    value: 'DURATION',
    help: "wait this long for the scope's lease when another writer holds it\n(default 0: refuse at once, naming the holder)",
  },
  ...leaseTtlOptions,
} as const satisfies FlagTable;

/** How a plan runs: the flags `sync`, `apply` and `watch` share. */
export const runFlags = {
  parallelism: {
    type: 'string',
    value: 'N',
    help: `operations running at once (default ${defaultParallelism})`,
  },
  'continue-on-error': {
    type: 'boolean',
    default: false,
    help: 'after a failure, keep running what does not depend on it',
  },
  'max-delete-percent': {
    type: 'string',
    value: 'P',
    help: `refuse when deletes and replaces exceed P% of the managed objects (default ${defaultGuardOptions.maxDeletePercent})`,
  },
  'max-delete-min-managed': {
    type: 'string',
    value: 'N',
    help: `apply that percentage only from N managed objects up (default ${defaultGuardOptions.maxDeleteMinManaged})`,
  },
  'token-output': {
    type: 'string',
    value: 'FILE',
    help: 'write tokens of created API keys and credentials to FILE (JSON, mode 0600)',
  },
} as const satisfies FlagTable;

/** `sync`'s and `apply`'s: a run a person started may skip the guards and prints its result. */
export const executionFlags = {
  ...runFlags,
  force: { type: 'boolean', default: false, help: 'skip the mass-delete and empty-config guards' },
  output: {
    type: 'string',
    default: 'text',
    value: 'text|json',
    help: 'result format (json: see docs/apply.md)',
  },
} as const satisfies FlagTable;

/** `--policy PATH` on validate, plan, sync, apply and watch. */
export const policyOptions = {
  policy: {
    type: 'string',
    multiple: true,
    value: 'PATH',
    help: 'policy rules to enforce (a file or a directory of them; repeatable)',
  },
} as const satisfies FlagTable;

/** `--traffic-tests PATH` on validate: the tests `test-traffic` runs, run too. */
export const trafficTestsOptions = {
  'traffic-tests': {
    type: 'string',
    multiple: true,
    value: 'PATH',
    help: 'traffic tests to run against the config, offline (a file or a directory\nof them; repeatable; see acctsync test-traffic)',
  },
} as const satisfies FlagTable;
