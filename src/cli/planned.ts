/**
 * The first half of plan, sync and apply: load the config (its environment names the account),
 * show its warnings, connect to that account and plan. The caller closes the connection.
 */
import type { ApiClientOptions } from '../api/index.js';
import { loadConfig } from '../config/index.js';
import type { TokenFileView } from '../plan/index.js';
import { planFor, type ComputedPlan } from '../pipeline/index.js';
import { policyFindings, type PolicyRule } from '../policy/index.js';
import { printConfigWarnings } from './config-report.js';
import { openConnection, type Connection, type ConnectionFlags } from './connection.js';
import { startEarlyRead, type EarlyRead } from './early-read.js';
import { holdScope, withLease, type LeaseFlags } from './lease-flags.js';
import type { ScopeLease } from '../lease/lease.js';

interface PlanRequest {
  readonly paths: readonly string[];
  readonly flags: ConnectionFlags;
  readonly env: NodeJS.ProcessEnv;
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
  /** `--policy` rules: the plan carries what they find. */
  readonly policies?: readonly PolicyRule[];
}

interface Planned extends ComputedPlan {
  /** Closing it releases the lease first. */
  readonly connection: Connection;
  /** Held while the connection is open; its signal says when writing must stop. */
  readonly lease?: ScopeLease | undefined;
}

export async function planFromConfig(request: PlanRequest): Promise<Planned> {
  const connectionSettings = {
    flags: request.flags,
    env: request.env,
    ...(request.client === undefined ? {} : { client: request.client }),
    ...(request.deadline === undefined ? {} : { deadline: request.deadline }),
  };
  const early = startEarlyRead({
    connection: connectionSettings,
    environment: request.environment,
    noDelete: request.noDelete,
    lease: request.lease !== undefined,
  });
  const config = await loadConfig({
    paths: request.paths,
    env: request.env,
    ...(request.environment === undefined ? {} : { environment: request.environment }),
    ...(request.scope === undefined ? {} : { scope: request.scope }),
  }).catch(async (err: unknown) => {
    await early?.discard();
    throw err;
  });
  printConfigWarnings(config.warnings, config.secretSpans, request.env);
  const taken = await takeEarlyRead(early, config.environment === undefined);
  const connection =
    taken?.connection ??
    (await openConnection({
      ...connectionSettings,
      ...(config.environment === undefined ? {} : { environment: config.environment }),
    }));
  let lease: ScopeLease | undefined;
  try {
    if (request.lease)
      lease = await holdScope(connection, config.desired.scope, request.lease.command, request.lease.flags);
    const computed = await planFor(config.desired, connection.client, {
      adopt: request.adopt,
      noDelete: request.noDelete,
      ...(request.unprotect === undefined ? {} : { unprotect: request.unprotect }),
      configPaths: request.paths,
      ...(config.environment === undefined ? {} : { environment: config.environment.name }),
      ...(request.tokens === undefined ? {} : { tokens: request.tokens }),
      ...(taken === undefined ? {} : { live: taken.live }),
    });
    return {
      ...(await withPolicy(computed, request.policies, config.environment?.name ?? '')),
      connection: withLease(connection, lease),
      lease,
    };
  } catch (err) {
    await withLease(connection, lease).close();
    throw err;
  }
}

/** The early read, when the config loaded named no account of its own. */
async function takeEarlyRead(
  early: EarlyRead | undefined,
  defaultAccount: boolean,
): ReturnType<EarlyRead['take']> {
  if (early === undefined) return undefined;
  if (defaultAccount) return early.take();
  await early.discard();
  return undefined;
}

/** The plan with the findings of `policies` over its desired state and its operations. */
async function withPolicy(
  computed: ComputedPlan,
  policies: readonly PolicyRule[] | undefined,
  env: string,
): Promise<ComputedPlan> {
  if (policies === undefined || policies.length === 0) return computed;
  const policy = await policyFindings(policies, { state: computed.desired, env, plan: computed.plan });
  return { ...computed, plan: { ...computed.plan, policy } };
}
