/** `acctsync unlock SCOPE`: breaks a scope's lease by hand (docs/lease.md). */
import { createInterface } from 'node:readline/promises';
import { UsageError, UserError } from '../../errors.js';
import { deleteLease, describeHolder, findLease, judge, shownTime } from '../../lease/index.js';
import type { LeaseRecord } from '../../resources/index.js';
import { defineCommand } from '../command.js';
import { help } from '../help/unlock.js';
import { openAccount } from '../account.js';

/** Whether `unlock` may ask: a terminal on both sides. */
const interactive = (): boolean => process.stdin.isTTY && process.stderr.isTTY;

/**
 * Asks on the terminal before a live lease is broken; anything but `yes` cancels.
 * @throws {UserError} when the answer is not `yes`, or when there is no terminal to ask on
 */
async function confirmBreaking(scope: string, holder: LeaseRecord): Promise<void> {
  const live = `scope ${scope} is held by ${describeHolder(holder)}, renewed within its TTL (until ${shownTime(holder.expiresAt)})`;
  if (!interactive())
    throw new UserError(`${live}: not breaking it without a terminal to confirm on`, {
      details: [
        'Its holder may be running. If you know it is gone, break it with: acctsync unlock --force ' + scope,
      ],
    });
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(
      `${live}; its holder may still be running. Only 'yes' breaks it.\n  Enter a value: `,
    );
    if (answer.trim() !== 'yes') throw new UserError(`unlock cancelled: scope ${scope} is still held`);
  } finally {
    rl.close();
  }
}

export const command = defineCommand({
  ...help,

  async run(values, positionals) {
    const [scope, ...paths] = positionals;
    if (scope === undefined || scope === '')
      throw new UsageError('unlock takes the scope, then the config path', {
        details: ['For example: acctsync unlock production config/ --env production'],
      });
    const { connection } = await openAccount('unlock', values, paths);
    try {
      const lease = await findLease(connection.client, scope);
      if (lease === undefined) {
        process.stdout.write(`scope ${scope} is not held: nothing to unlock\n`);
        return 0;
      }
      const { record } = lease;
      const state = judge(record, connection.client.serviceClock);
      if (record !== undefined && state === 'live' && !values.force) await confirmBreaking(scope, record);
      const holder = record === undefined ? 'an unreadable holder' : describeHolder(record);
      const why = state === 'forged' ? ' (a forged record: it claims the lease beyond any TTL)' : '';
      process.stderr.write(
        `warning: breaking the lease on scope ${scope} held by ${holder}${why}. If that process still runs, ` +
          'it stops writing at its next renewal, but requests it has in flight still land.\n',
      );
      await deleteLease(connection.client, lease.id);
      process.stdout.write(`unlocked scope ${scope}\n`);
      return 0;
    } finally {
      await connection.close();
    }
  },
});
