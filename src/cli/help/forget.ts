/** What `acctsync forget --help` prints, and the flags it parses: loaded without the command. */
import { defineHelp } from '../command.js';
import { connectionOptions, deadlineOptions, leaseOptions } from '../shared-flags.js';

export const help = defineHelp({
  name: 'forget',
  synopsis: ['acctsync forget KEY... [options]'],
  description: `Removes acctsync's ownership marker from the live objects carrying KEY (ip_policies/office) in
this scope, and from the children that go with them (the policy's rules). The objects themselves
do not change; later plans neither update nor delete them. Refuses a KEY still in the config,
unless its entry is observed: remove its block first, or the next sync would create it again.`,
  flags: {
    config: {
      type: 'string',
      multiple: true,
      value: 'PATH',
      help: 'config file or directory (repeatable; default account/ or acctsync.yaml)',
    },
    scope: { type: 'string', value: 'S', help: "ownership scope (default: the config's scope)" },
    ...leaseOptions,
    ...connectionOptions,
    ...deadlineOptions,
  },
});
