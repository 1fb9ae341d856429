/**
 * Every subcommand, by name, with its one line for `acctsync --help`. A command's help (its usage
 * and flag table) and the command itself load only when asked for, so that `--help` loads neither.
 */
import type { Command, CommandHelp } from './command.js';

interface CommandEntry {
  /** One line for `acctsync --help` and docs/cli.md. */
  readonly summary: string;
  /** What `acctsync <name> --help` prints, without the modules the command runs on. */
  readonly help: () => Promise<{ help: CommandHelp }>;
  readonly load: () => Promise<{ command: Command }>;
}

export const commands: Readonly<Record<string, CommandEntry>> = {
  validate: {
    summary: 'check the desired state offline (schema, rules, references)',
    help: () => import('./help/validate.js'),
    load: () => import('./commands/validate.js'),
  },
  'test-traffic': {
    summary: 'run traffic tests (sample connections and their expected outcome) against the config, offline',
    help: () => import('./help/test-traffic.js'),
    load: () => import('./commands/test-traffic.js'),
  },
  plan: {
    summary: 'show what a sync would change (also: sync --dry-run)',
    help: () => import('./help/plan.js'),
    load: () => import('./commands/plan.js'),
  },
  graph: {
    summary: 'draw the desired state, or with --plan the change, as a mermaid or Graphviz graph',
    help: () => import('./help/graph.js'),
    load: () => import('./commands/graph.js'),
  },
  sync: {
    summary: 'make the live account equal to the desired state (plan, then apply)',
    help: () => import('./help/sync.js'),
    load: () => import('./commands/sync.js'),
  },
  apply: {
    summary: 'apply a plan saved by plan --out, if the config and the account did not change since',
    help: () => import('./help/apply.js'),
    load: () => import('./commands/apply.js'),
  },
  watch: {
    summary: 'keep the account equal to the config: reconcile on every change and on an interval',
    help: () => import('./help/watch.js'),
    load: () => import('./commands/watch.js'),
  },
  export: {
    summary: 'write the live account as acctsync YAML',
    help: () => import('./help/export.js'),
    load: () => import('./commands/export.js'),
  },
  forget: {
    summary: 'stop managing objects without deleting them (removes the ownership marker)',
    help: () => import('./help/forget.js'),
    load: () => import('./commands/forget.js'),
  },
  unlock: {
    summary: "break a scope's lease by hand, when the writer holding it is gone",
    help: () => import('./help/unlock.js'),
    load: () => import('./commands/unlock.js'),
  },
  sessions: {
    summary: 'list, inspect, restart, stop and update tunnel sessions',
    help: () => import('./help/sessions.js'),
    load: () => import('./commands/sessions.js'),
  },
  events: {
    summary: 'show the event deliveries the emulator recorded',
    help: () => import('./help/events.js'),
    load: () => import('./commands/events.js'),
  },
  serve: {
    summary: 'serve the Account Management API emulator locally',
    help: () => import('./help/serve.js'),
    load: () => import('./commands/serve.js'),
  },
};
