/** Every subcommand, by name. Each entry loads its module only when that command runs. */
import type { Command } from './command.js';

export const commands: Readonly<Record<string, () => Promise<{ command: Command }>>> = {
  validate: () => import('./commands/validate.js'),
  plan: () => import('./commands/plan.js'),
  sync: () => import('./commands/sync.js'),
  apply: () => import('./commands/apply.js'),
  watch: () => import('./commands/watch.js'),
  export: () => import('./commands/export.js'),
  forget: () => import('./commands/forget.js'),
  unlock: () => import('./commands/unlock.js'),
  sessions: () => import('./commands/sessions.js'),
  events: () => import('./commands/events.js'),
  serve: () => import('./commands/serve.js'),
};
