/** docs/cli.md: every command's help, rendered from the commands' own tables so it cannot drift. */
import type { Command } from './command.js';
import { commands } from './commands.js';
import { usageText } from './usage.js';

async function loadAll(): Promise<Command[]> {
  return Promise.all(Object.values(commands).map(async (load) => (await load()).command));
}

function section(command: Command): string {
  return [
    `## acctsync ${command.name}`,
    '',
    `${command.summary.charAt(0).toUpperCase()}${command.summary.slice(1)}.`,
    '',
    '```text',
    usageText(command),
    '```',
  ].join('\n');
}

/** The text of docs/cli.md. */
export async function cliReference(): Promise<string> {
  const all = await loadAll();
  return `${[
    '# Command-line reference',
    '',
    "<!-- Generated from the commands' flag tables by `npm run build && npm run gen:cli-doc`; do not edit. -->",
    '',
    'What `acctsync <command> --help` prints, for every command. Exit codes and the connection',
    'settings are in the README.',
    '',
    ...all.map((c) => `- [\`${c.name}\`](#acctsync-${c.name}): ${c.summary}`),
    '',
    all.map(section).join('\n\n'),
  ].join('\n')}\n`;
}
