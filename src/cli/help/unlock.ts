/** What `acctsync unlock --help` prints, and the flags it parses: loaded without the command. */
import { defineHelp } from '../command.js';
import { connectionOptions, deadlineOptions } from '../shared-flags.js';

export const help = defineHelp({
  name: 'unlock',
  synopsis: ['acctsync unlock SCOPE [options]'],
  description: `Deletes the lease that a sync, apply, forget or watch holds on SCOPE in the account, so that the
next writer takes the scope at once instead of waiting for the lease to expire. Use it only when
the holder is gone: one still running stops starting operations at its next renewal, but what it
has in flight still reaches the account. See docs/lease.md.`,
  flags: { ...connectionOptions, ...deadlineOptions },
});
