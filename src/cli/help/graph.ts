/** What `acctsync graph --help` prints, and the flags it parses: loaded without the command. */
import { defineHelp } from '../command.js';
import { environmentOptions } from '../environment.js';
import { filesRootOptions } from '../files-root.js';
import { connectionOptions, deadlineOptions, ownershipOptions } from '../shared-flags.js';

const flags = {
  format: {
    type: 'string',
    default: 'mermaid',
    value: 'mermaid|dot',
    help: 'mermaid flowchart (default; renders in GitHub and GitLab markdown)\nor Graphviz DOT (dot -Tsvg)',
  },
  plan: {
    type: 'boolean',
    default: false,
    help: 'draw the change a sync would make (reads the account, like plan)\ninstead of the whole desired state',
  },
  kind: {
    type: 'string',
    multiple: true,
    value: 'KIND',
    help: 'only objects of KIND (a kind, tls_edges, or a config section, backends)\nand the objects next to them (repeatable)',
  },
  key: {
    type: 'string',
    multiple: true,
    value: 'KEY',
    help: 'only the object KEY, its nested items and the objects next to them (repeatable)',
  },
  ...environmentOptions,
  ...filesRootOptions,
  ...ownershipOptions,
  ...connectionOptions,
  ...deadlineOptions,
} as const;

export const help = defineHelp({
  name: 'graph',
  synopsis: ['acctsync graph [PATH...] [--plan] [--format mermaid|dot] [--kind KIND] [--key KEY]'],
  description: `Prints the objects of the desired state in PATH and the references between them as a graph:
an arrow goes from an object to each object that references it (or is nested in it), the order
the applier creates them in. Offline: no account is read, and values not available here
({env}, {file}) are not needed. With --plan, the change a sync would make instead, as the markdown
plan draws it: each changed object by its action, the unchanged objects they reference muted.
Connection, ownership and deadline options apply with --plan only.`,
  flags,
  notes: `Mermaid's renderer (GitHub's included) draws at most 500 edges and 50,000 characters: past
them a note on stderr says so; narrow the graph with --kind or --key, or use --format dot.`,
});
