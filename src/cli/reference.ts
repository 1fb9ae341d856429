/** docs/cli.md: every command's help, rendered from the commands' own tables so it cannot drift. */
import type { CommandHelp } from './command.js';
import { commands } from './commands.js';
import { usageText } from './usage.js';

interface Documented {
  readonly summary: string;
  readonly help: CommandHelp;
}

async function loadAll(): Promise<Documented[]> {
  return Promise.all(
    Object.values(commands).map(async ({ summary, help }) => ({ summary, help: (await help()).help })),
  );
}

function section({ summary, help }: Documented): string {
  return [
    `## acctsync ${help.name}`,
    '',
    `${summary.charAt(0).toUpperCase()}${summary.slice(1)}.`,
    '',
    '```text',
    usageText(help),
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
    ...all.map(({ summary, help }) => `- [\`${help.name}\`](#acctsync-${help.name}): ${summary}`),
    '',
    all.map(section).join('\n\n'),
  ].join('\n')}\n`;
}
