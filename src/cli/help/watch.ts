/** What `acctsync watch --help` prints, and the flags it parses: loaded without the command. */
import { defineHelp } from '../command.js';
import { watchFlags } from '../watch-flags.js';

export const help = defineHelp({
  name: 'watch',
  synopsis: ['acctsync watch [PATH...] [options]'],
  description: `Runs until SIGTERM or SIGINT. Reconciles once at start, after every change to the config files
(debounced), and every --interval to undo changes made by hand. A config that fails to load changes
nothing; the mass-delete and empty-config guards always hold (there is no --force). See docs/watch.md.`,
  flags: watchFlags,
  notes: 'Durations are written like 500ms, 30s, 5m or 1h.',
});
