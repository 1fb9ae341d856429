/** What `acctsync export --help` prints, and the flags it parses: loaded without the command. */
import { defineHelp } from '../command.js';
import { exportableMaps } from '../../export/maps.js';
import { environmentOptions } from '../environment.js';
import { accountConnectionOptions, deadlineOptions } from '../shared-flags.js';

export const help = defineHelp({
  name: 'export',
  synopsis: [
    'acctsync export [PATH...] [--kind K...] [--out DIR|FILE] [--scope S] [--force] [connection options]',
    'acctsync export [PATH...] --env NAME [--out FILE] [--force] [--move-ids] [connection options]',
  ],
  description: `Reads the live account and writes it as acctsync YAML: logical names derived from descriptions,
domains, hostports, CIDRs and certificate subjects; references as names; secrets the API never
returns as {env: ...} placeholders, each with a comment naming the variable to set.`,
  flags: {
    kind: {
      type: 'string',
      multiple: true,
      value: 'K',
      help: `export only this top-level map (repeatable): ${exportableMaps.join(', ')}`,
    },
    out: {
      type: 'string',
      value: 'PATH',
      help: 'a directory (one file per kind plus acctsync.yaml), or a .yaml/.yml file;\nstdout when absent',
    },
    scope: {
      type: 'string',
      value: 'S',
      help: 'the scope written to the config (default: the scope of the config at PATH, in --out,\nor at account/ or acctsync.yaml, else default); objects another scope manages are left out',
    },
    env: {
      ...environmentOptions.env,
      help: "for a config that declares environments (PATH, default account/ or\nacctsync.yaml): read NAME's account and rewrite NAME's overlay file (or --out)\nwith what differs from the base: patch:, drop: and added objects\n(default: ACCTSYNC_ENV; see docs/environments.md)",
    },
    force: {
      type: 'boolean',
      default: false,
      help: 'replace files acctsync export did not write (a hand-written acctsync.yaml or\noverlay): refused otherwise',
    },
    'move-ids': {
      type: 'boolean',
      default: false,
      help: 'with --env: also take every id: out of the base files (edited in place); the\noverlay keeps the ids of objects not taken over yet (see docs/environments.md)',
    },
    ...accountConnectionOptions,
    ...deadlineOptions,
  },
});
