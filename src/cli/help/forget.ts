/** What `acctsync forget --help` prints, and the flags it parses: loaded without the command. */
import { defineHelp } from '../command.js';
import { environmentOptions } from '../environment.js';
import { accountConnectionOptions, deadlineOptions, leaseOptions } from '../shared-flags.js';

export const help = defineHelp({
  name: 'forget',
  synopsis: ['acctsync forget [PATH...] KEY... [options]'],
  description: `Removes acctsync's ownership marker from the live objects carrying KEY (ip_policies/office) in
this scope, and from the children that go with them (the policy's rules). The objects themselves
do not change; later plans neither update nor delete them. Refuses a KEY still in the config,
unless its entry is observed: remove its block first, or the next sync would create it again. PATH is the config, as for
plan (default account/ or acctsync.yaml); an argument shaped like a key (a top-level map, a slash,
a name) that is no file or directory there is a KEY.`,
  flags: {
    ...environmentOptions,
    scope: { type: 'string', value: 'S', help: "ownership scope (default: the config's scope)" },
    ...leaseOptions,
    ...accountConnectionOptions,
    ...deadlineOptions,
  },
});
