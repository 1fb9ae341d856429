/** `acctsync unlock SCOPE`: breaks a scope's lease by hand (docs/lease.md). */
import { UsageError } from '../../errors.js';
import { describeHolder } from '../../lease/holder.js';
import { deleteLease, findLease } from '../../lease/store.js';
import { defineCommand } from '../command.js';
import { help } from '../help/unlock.js';
import { openAccount } from '../account.js';

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
