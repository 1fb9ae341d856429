/**
 * `acctsync events`: the event deliveries the emulator recorded, to test subscriptions locally. The
 * platform API has no way to read deliveries back, so this reads the emulator's control surface.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { ApiError, type ApiClient } from '../../api/index.js';
import { UserError } from '../../errors.js';
import { inert, inertQuoted } from '../../inert.js';
import { defineCommand } from '../command.js';
import { help } from '../help/events.js';
import { openAccount } from '../account.js';

const deliveriesPath = '/_emulator/deliveries';
const pollMs = 1000;

/** A recorded delivery, as the emulator's control surface returns it. */
interface Delivery {
  readonly subscription_id: string;
  readonly destination_id: string;
  readonly event: {
    readonly event_id: string;
    readonly event_type: string;
    readonly event_timestamp: string;
    readonly object: unknown;
  };
}

async function readDeliveries(client: ApiClient, url: string): Promise<Delivery[]> {
  try {
    const body = (await client.get<{ deliveries?: unknown }>(deliveriesPath)).body;
    if (!Array.isArray(body.deliveries)) throw new Error('no deliveries member');
    return body.deliveries as Delivery[];
  } catch (err) {
    if (err instanceof ApiError && err.status !== 404 && err.status !== 405) throw err;
    throw new UserError(`acctsync events works only with the acctsync emulator; ${url} is not one`, {
      details: [
        'The platform API cannot read event deliveries back. Test subscriptions locally against the',
        'emulator: --api-url embedded, or point --api-url at a running emulator.',
      ],
      cause: err,
    });
  }
}

function objectId(object: unknown): string {
  const id = typeof object === 'object' && object !== null ? (object as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : '-';
}

function line(d: Delivery, json: boolean): string {
  if (json) return inertQuoted(JSON.stringify(d));
  const e = d.event;
  return inert(
    `${e.event_timestamp}  ${e.event_type}  ${objectId(e.object)}  -> ${d.destination_id} (${d.subscription_id}, ${e.event_id})`,
  );
}

const identity = (d: Delivery): string => `${d.event.event_id} ${d.subscription_id} ${d.destination_id}`;

export const command = defineCommand({
  ...help,

  async run(values, paths) {
    if (values.output !== 'text' && values.output !== 'json') {
      throw new UserError(`events: --output must be text or json, not ${values.output}`);
    }
    const json = values.output === 'json';
    const { connection } = await openAccount('events', values, paths, { deadline: false });
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      const seen = new Set<string>();
      let first = true;
      while (first || (values.follow && !stop.signal.aborted)) {
        const fresh = (await readDeliveries(connection.client, connection.url)).filter(
          (d) => !seen.has(identity(d)),
        );
        fresh.forEach((d) => seen.add(identity(d)));
        if (fresh.length > 0) process.stdout.write(`${fresh.map((d) => line(d, json)).join('\n')}\n`);
        else if (first && !values.follow && !json) process.stdout.write('no event deliveries recorded\n');
        first = false;
        if (values.follow) await delay(pollMs, undefined, { signal: stop.signal }).catch(() => undefined);
      }
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await connection.close();
    }
    return 0;
  },
});
