/** What `acctsync unlock --help` prints, and the flags it parses: loaded without the command. */
import { defineHelp } from '../command.js';
import { environmentOptions } from '../environment.js';
import { accountConnectionOptions, deadlineOptions } from '../shared-flags.js';

export const help = defineHelp({
  name: 'unlock',
  synopsis: ['acctsync unlock SCOPE [PATH...] [--env NAME] [options]'],
  description: `Deletes the lease that a sync, apply, forget or watch holds on SCOPE in the account, so that the
next writer takes the scope at once instead of waiting for the lease to expire. Use it only when
the holder is gone: one still running stops writing at its next renewal, but what it has in flight
still reaches the account. A lease renewed within its TTL (its holder may well be running) is
broken only after you confirm on a terminal, or with --force. See docs/lease.md. The account is the
one the environment --env names in the config at PATH (default account/ or acctsync.yaml), else
SVC_API_URL's.`,
  flags: {
    ...environmentOptions,
    ...accountConnectionOptions,
    ...deadlineOptions,
    force: { type: 'boolean', default: false, help: 'break a live lease without asking' },
  },
});
