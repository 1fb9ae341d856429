/**
 * The dispatch. It loads only what the command line asks for: `--help` the list below, `<command>
 * --help` that command's help module, a command its own modules, and the error renderer only when
 * there is an error to render.
 */
import { didYouMean } from '../suggest.js';
import { UsageError } from '../errors.js';
import { commands } from './commands.js';
import { exitStatusMeanings } from './exit-codes.js';
import { usageLine, usageText } from './usage.js';
import { guardWorkflowCommands, writeAnnotations } from './workflow-commands.js';
import { packageVersion } from '../api/options.js';

function entry(name: string): (typeof commands)[string] {
  const found = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (found === undefined) {
    const hint = didYouMean(name, Object.keys(commands));
    throw new UsageError(`unknown command ${name}`, {
      details: [...(hint === undefined ? [] : [hint]), "Run 'acctsync --help' for the list of commands."],
    });
  }
  return found;
}

async function helpOf(name: string): Promise<string> {
  return usageText((await entry(name).help()).help);
}

function overview(): string {
  const names = Object.keys(commands);
  const width = Math.max(...names.map((n) => n.length));
  return [
    'acctsync: keep a platform account equal to YAML in git.',
    '',
    'Usage: acctsync <command> [options]',
    '',
    'Commands:',
    ...names.map((n) => `  ${n.padEnd(width)}  ${commands[n]?.summary}`),
    '',
    'Which account (every command that talks to the API):',
    "  SVC_API_URL or --api-url URL       the API's base address; 'embedded' runs the local emulator",
    '  SVC_API_KEY or --api-key-file FILE the API key (never printed)',
    '  --rate-limit N/m                   pace requests below N per minute',
    '',
    'Exit status:',
    ...exitStatusMeanings.map(
      ([status, meaning]) => `  ${String(status).padEnd(3)} ${meaning.replaceAll('`', '')}`,
    ),
    '',
    "Run 'acctsync help <command>' (or 'acctsync <command> --help') for a command's options.",
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    throw new UsageError('no command given', { details: ['', overview()] });
  }
  if (name === '--help' || name === '-h') {
    console.log(overview());
    return 0;
  }
  if (name === 'help') {
    const [topic] = rest;
    console.log(topic === undefined ? overview() : await helpOf(topic));
    return 0;
  }
  if (name === '--version' || name === '-v') {
    console.log(packageVersion());
    return 0;
  }
  const { load } = entry(name);
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(await helpOf(name));
    return 0;
  }
  const { command } = await load();
  try {
    return await command.run(rest);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    throw new UsageError(err.message, {
      details: [...err.details, usageLine(command), `Run 'acctsync help ${name}' for its options.`],
      cause: err,
    });
  }
}

guardWorkflowCommands(process.env);
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  async (err: unknown) => {
    const { renderError } = await import('./render-error.js');
    const { text, annotations, exitCode } = renderError(err, process.env);
    writeAnnotations(annotations);
    console.error(text);
    process.exitCode = exitCode;
  },
);
