#!/usr/bin/env node
import { UsageError } from '../errors.js';
import { commands } from './commands.js';
import { renderError } from './render-error.js';
import { packageVersion } from '../api/version.js';

function overview(): string {
  const names = Object.keys(commands);
  return [
    'acctsync: keep a platform account equal to YAML in git.',
    '',
    'Usage: acctsync <command> [options]',
    '',
    'Commands:',
    ...names.map((n) => `  ${n}`),
    '',
    "Run 'acctsync <command> --help' for a command's options.",
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(overview());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    console.log(packageVersion());
    return 0;
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (load === undefined) throw new UsageError(`unknown command ${name}`, { details: [overview()] });
  const { command } = await load();
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(command.usage);
    return 0;
  }
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const { text, exitCode } = renderError(err);
    console.error(text);
    process.exitCode = exitCode;
  },
);
