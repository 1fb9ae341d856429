/**
 * A command's run (`plan`, `sync`, `apply`): `runOnce` with the account the command line and the
 * loaded config name. What belongs to the command line happens in its hooks: the loader's warnings printed once the config loaded, the connection, and the lease a writing
 * command holds until the run is over. The connection is closed (the lease released) on return.
 */
import type { ApiClientOptions } from '../api/index.js';
import type { Plan, TokenFileView } from '../plan-format/index.js';
import { runOnce, type RunInputs, type RunResult } from '../pipeline/index.js';
import type { PolicyRule } from '../policy/index.js';
import { builtinKinds } from '../resources/index.js';
import type { ScopeLease } from '../lease/index.js';
import { printConfigWarnings } from './config-report.js';
import { openConnection, type Connection, type ConnectionFlags } from './connection.js';
import { holdScope, withLease, type LeaseFlags } from './lease-flags.js';
import { environmentName } from './environment.js';
import { filesRootFrom } from './files-root.js';
import { planningSettings } from './plan-output.js';
import { policiesFrom } from './policy.js';

interface RunRequest {
  readonly paths: readonly string[];
  readonly flags: ConnectionFlags;
  readonly env: NodeJS.ProcessEnv;
  /** `--files-root` directories, absolute. */
  readonly filesRoot: readonly string[];
  readonly environment?: string | undefined;
  readonly scope?: string | undefined;
  readonly adopt: boolean;
  readonly noDelete: boolean;
  /** Protected keys this plan may delete or replace (`--unprotect`). */
  readonly unprotect?: readonly string[] | undefined;
  readonly client?: Partial<Omit<ApiClientOptions, 'baseUrl' | 'apiKey'>>;
  /** One-shot commands are bounded by `--deadline` (watch is not). */
  readonly deadline?: boolean;
  /** The token file's captured ids (`sync --token-output`) and `--recapture-tokens`. */
  readonly tokens?: TokenFileView | undefined;
  /** Commands that write hold the scope's lease from before the plan (docs/lease.md). */
  readonly lease?: { readonly command: string; readonly flags: LeaseFlags };
  /** `--policy` rules, loaded before anything is contacted. */
  readonly policies?: readonly PolicyRule[];
  /** `--traffic-tests` paths. */
  readonly trafficTests?: RunInputs['trafficTests'];
  readonly guards?: RunInputs['guards'];
  readonly saved?: Plan;
  readonly apply?: RunInputs['apply'];
}

interface CommandRun {
  readonly result: RunResult;
  /** Why writing stopped, when the scope's lease was lost during the run. */
  readonly leaseLost?: unknown;
}

/** What the lease hook needs from the run so far, and the lease it took. */
interface LeaseState {
  connection?: Connection;
  /** How the user named the account, for the `unlock` a held scope's refusal suggests. */
  environment?: string | undefined;
  lease?: ScopeLease | undefined;
}

/** runOnce's lease hook: takes the scope's lease on the account the run opened (none on the embedded emulator). */
function scopeLease(
  leaseRequest: NonNullable<RunRequest['lease']>,
  paths: readonly string[],
  state: LeaseState,
): NonNullable<RunInputs['lease']> {
  return async (_client, scope) => {
    if (state.connection !== undefined)
      state.lease = await holdScope(state.connection, scope, leaseRequest.command, leaseRequest.flags, {
        paths,
        environment: state.environment,
      });
    const lease = state.lease;
    return {
      held: true,
      signal: lease?.signal,
      ...(lease === undefined ? {} : { check: () => lease.check() }),
    };
  };
}

export async function runCommand(request: RunRequest): Promise<CommandRun> {
  const connectionSettings = {
    flags: request.flags,
    env: request.env,
    ...(request.client === undefined ? {} : { client: request.client }),
    ...(request.deadline === undefined ? {} : { deadline: request.deadline }),
  };
  let connection: Connection | undefined;
  const held: LeaseState = {};
  const leaseRequest = request.lease;
  try {
    const result = await runOnce({
      desired: {
        load: {
          paths: request.paths,
          env: request.env,
          filesRoot: request.filesRoot,
          ...(request.environment === undefined ? {} : { environment: request.environment }),
          ...(request.scope === undefined ? {} : { scope: request.scope }),
        },
      },
      async account(loaded) {
        if (loaded !== undefined) printConfigWarnings(loaded.warnings, loaded.secretSpans, request.env);
        held.environment = loaded?.environment?.name;
        const opened = await openConnection({
          ...connectionSettings,
          ...(loaded?.environment === undefined ? {} : { environment: loaded.environment }),
        });
        connection = opened;
        held.connection = opened;
        return { client: opened.client };
      },
      ...(leaseRequest === undefined ? {} : { lease: scopeLease(leaseRequest, request.paths, held) }),
      planning: {
        adopt: request.adopt,
        noDelete: request.noDelete,
        unprotect: request.unprotect,
        tokens: request.tokens,
        now: new Date(),
      },
      ...(request.policies === undefined || request.policies.length === 0
        ? {}
        : { policies: () => Promise.resolve(request.policies ?? []) }),
      ...(request.trafficTests === undefined ? {} : { trafficTests: request.trafficTests }),
      guards: request.guards ?? { force: false },
      saved: request.saved,
      apply: request.apply,
      // The config's kinds: the loader knows the built-in ones alone.
      kinds: builtinKinds,
    });
    const { lease } = held;
    return { result, ...(lease?.signal.aborted === true ? { leaseLost: lease.signal.reason } : {}) };
  } finally {
    if (connection !== undefined) await withLease(connection, held.lease).close();
  }
}

/**
 * What `plan` and `sync` ask of a run from their flags: the config's paths, its environment and
 * files root, the `--policy` rules and `--traffic-tests`, the planner's options, bounded by
 * `--deadline`. Each command adds what is its own (tokens, guards, the lease).
 */
export async function planRequest(
  values: ConnectionFlags &
    Parameters<typeof planningSettings>[0] &
    Parameters<typeof policiesFrom>[0] &
    Parameters<typeof filesRootFrom>[0] &
    Parameters<typeof environmentName>[0] & { readonly 'traffic-tests'?: readonly string[] | undefined },
  paths: readonly string[],
): Promise<RunRequest> {
  return {
    policies: await policiesFrom(values),
    trafficTests: values['traffic-tests'],
    paths,
    flags: values,
    env: process.env,
    filesRoot: filesRootFrom(values),
    environment: environmentName(values, process.env),
    ...planningSettings(values),
    deadline: true,
  };
}
