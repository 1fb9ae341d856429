/** `acctsync unlock SCOPE`: breaks a scope's lease by hand (docs/lease.md). */
import { UsageError } from '../../errors.js';
import { describeHolder } from '../../lease/holder.js';
import { deleteLease, findLease } from '../../lease/store.js';
import { defineCommand } from '../command.js';
import { help } from '../help/unlock.js';
import { openConnection } from '../connection.js';

export const command = defineCommand({
  ...help,

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
