/** `acctsync unlock SCOPE`: breaks a scope's lease by hand (docs/lease.md). */
import { UsageError } from '../../errors.js';
import { describeHolder } from '../../lease/holder.js';
import { deleteLease, findLease } from '../../lease/store.js';
import { defineCommand } from '../command.js';
import { connectionOptions, deadlineOptions, openConnection } from '../connection.js';

export const command = defineCommand({
  name: 'unlock',
  summary: "break a scope's lease by hand, when the writer holding it is gone",
  synopsis: ['acctsync unlock SCOPE [options]'],
  description: `Deletes the lease that a sync, apply, forget or watch holds on SCOPE in the account, so that the
next writer takes the scope at once instead of waiting for the lease to expire. Use it only when
the holder is gone: one still running stops starting operations at its next renewal, but what it
has in flight still reaches the account. See docs/lease.md.`,
  flags: { ...connectionOptions, ...deadlineOptions },

  async run(values, positionals) {
    const [scope, ...extra] = positionals;
    if (scope === undefined || scope === '' || extra.length > 0)
      throw new UsageError('unlock takes exactly one argument, the scope', {
        details: ['For example: acctsync unlock production'],
      });
    const connection = await openConnection({ flags: values, env: process.env, deadline: true });
    try {
      const lease = await findLease(connection.client, scope);
      if (lease === undefined) {
        process.stdout.write(`scope ${scope} is not held: nothing to unlock\n`);
        return 0;
      }
      const holder = lease.record === undefined ? 'an unreadable holder' : describeHolder(lease.record);
      process.stderr.write(
        `warning: breaking the lease on scope ${scope} held by ${holder}. If that process still runs, it ` +
          'stops starting operations at its next renewal, but requests it has in flight still land.\n',
      );
      await deleteLease(connection.client, lease.id);
      process.stdout.write(`unlocked scope ${scope}\n`);
      return 0;
    } finally {
      await connection.close();
    }
  },
});
