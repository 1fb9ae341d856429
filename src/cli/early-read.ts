/**
 * Reading the account while the config loads, as the floor of docs/performance.md does: the list
 * requests overlap the load instead of following it. Only where the load cannot change which
 * account or which collections: no environment named (its config names the account's variables),
 * an API URL given (the embedded emulator would write its state file), deletes on (every managed
 * collection is read, whatever the config holds) and no lease (a writer reads after it holds it).
 * Until the config has loaded, nothing of the read is shown: a config that fails aborts it and
 * prints its own error alone, as a plan that read nothing would.
 */
import { setMaxListeners } from 'node:events';
import { defaultApiUrlEnv } from '../config/index.js';
import { kindsToFetch, readLiveState, type LiveState } from '../live/index.js';
import {
  embeddedUrl,
  givenApiUrl,
  openConnection,
  type Connection,
  type ConnectionSettings,
} from './connection.js';

/** What the plan takes of an early read once the config has loaded. */
interface TakenRead {
  readonly connection: Connection;
  /** The live state; a server's refusal is read again by `planFor`, its secrets protected. */
  readonly live: Promise<LiveState>;
}

export interface EarlyRead {
  /** The config loaded: the retry reports held so far are printed, and later ones as they come. */
  take(): Promise<TakenRead | undefined>;
  /** The config failed (or named an account after all): the read is aborted and its reports dropped. */
  discard(): Promise<void>;
}

interface EarlyReadRequest {
  readonly connection: Omit<ConnectionSettings, 'announce' | 'environment'>;
  readonly environment?: string | undefined;
  readonly noDelete: boolean;
  readonly lease: boolean;
}

/** Whether the account and the collections to read are known before the config is. */
function readsEarly(request: EarlyReadRequest): boolean {
  const url = givenApiUrl(request.connection.flags, request.connection.env, defaultApiUrlEnv);
  return (
    !request.lease &&
    !request.noDelete &&
    request.environment === undefined &&
    url !== undefined &&
    url !== embeddedUrl
  );
}

/** Opens the connection and starts reading every managed collection, or nothing when it must wait. */
export function startEarlyRead(request: EarlyReadRequest): EarlyRead | undefined {
  if (!readsEarly(request)) return undefined;
  const held: string[] = [];
  let shown = false;
  const announce = (line: string): void => {
    if (shown) process.stderr.write(`${line}\n`);
    else held.push(line);
  };
  const abort = new AbortController();
  // Every list request listens on it while in flight: many at once is not a leak.
  setMaxListeners(0, abort.signal);
  const connection = openConnection({ ...request.connection, announce });
  const live = connection.then((c) =>
    readLiveState(c.client, kindsToFetch({ scope: '', objects: [] }), { signal: abort.signal }),
  );
  // Settled later by take() or discard(); until then a failure must not count as unhandled.
  connection.catch(() => undefined);
  live.catch(() => undefined);
  return {
    async take() {
      shown = true;
      for (const line of held.splice(0)) process.stderr.write(`${line}\n`);
      // A connection that could not open is opened again the ordinary way, whose error is the plan's.
      return connection.then(
        (c) => ({ connection: c, live }),
        () => undefined,
      );
    },
    async discard() {
      held.length = 0;
      abort.abort(new Error('the config did not load'));
      await connection.then((c) => c.close()).catch(() => undefined);
    },
  };
}
