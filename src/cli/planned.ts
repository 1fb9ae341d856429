/**
 * The first half of plan, sync and apply: load the config (its environment names the account),
 * show its warnings, connect to that account and plan. The caller closes the connection.
 */
import type { ApiClientOptions } from '../api/index.js';
import { loadConfig } from '../config/index.js';
import type { TokenFileView } from '../plan/index.js';
import { planFor, type ComputedPlan } from '../pipeline/index.js';
import { printConfigWarnings } from './config-report.js';
import { openConnection, type Connection, type ConnectionFlags } from './connection.js';

export interface PlanRequest {
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
}

export interface Planned extends ComputedPlan {
  readonly connection: Connection;
}

export async function planFromConfig(request: PlanRequest): Promise<Planned> {
  const config = await loadConfig({
    paths: request.paths,
    env: request.env,
    ...(request.environment === undefined ? {} : { environment: request.environment }),
    ...(request.scope === undefined ? {} : { scope: request.scope }),
  });
  printConfigWarnings(config.warnings, config.secretSpans, request.env);
  const connection = await openConnection({
    flags: request.flags,
    env: request.env,
    ...(request.client === undefined ? {} : { client: request.client }),
    ...(request.deadline === undefined ? {} : { deadline: request.deadline }),
    ...(config.environment === undefined ? {} : { environment: config.environment }),
  });
  try {
    const computed = await planFor(config.desired, connection.client, {
      adopt: request.adopt,
      noDelete: request.noDelete,
      ...(request.unprotect === undefined ? {} : { unprotect: request.unprotect }),
      configPaths: request.paths,
      ...(config.environment === undefined ? {} : { environment: config.environment.name }),
      ...(request.tokens === undefined ? {} : { tokens: request.tokens }),
    });
    return { ...computed, connection };
  } catch (err) {
    await connection.close();
    throw err;
  }
}
