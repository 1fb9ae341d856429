/** A command's help text, rendered from its {@link CommandHelp}: what `--help` prints and docs/cli.md shows. */
import type { CommandHelp } from './command.js';
import { flagSignature, type FlagTable } from './flags.js';

/** `  --name VALUE   help`, the help's continuation lines under the first. */
function flagLines(flags: FlagTable): string[] {
  const rows = Object.entries(flags).map(([name, flag]) => [flagSignature(name, flag), flag.help] as const);
  const width = Math.max(0, ...rows.map(([signature]) => signature.length)) + 2;
  return rows.flatMap(([signature, help]) =>
    help.split('\n').map((line, i) => `  ${(i === 0 ? signature : '').padEnd(width)}${line}`.trimEnd()),
  );
}

/** The first line of the usage text, for usage errors. */
export function usageLine(command: CommandHelp): string {
  return `Usage: ${command.synopsis[0] ?? `acctsync ${command.name}`}`;
}

/** The whole text of `acctsync <command> --help`. */
export function usageText(command: CommandHelp): string {
  const [first, ...more] = command.synopsis;
  const parts = [
    [`Usage: ${first ?? `acctsync ${command.name}`}`, ...more.map((s) => `       ${s}`)].join('\n'),
  ];
  if (command.description !== undefined) parts.push(command.description);
  if (Object.keys(command.flags).length > 0) parts.push(['Options:', ...flagLines(command.flags)].join('\n'));
  if (command.notes !== undefined) parts.push(command.notes);
  return parts.join('\n\n');
}
