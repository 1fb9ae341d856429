/**
 * Under GitHub Actions the runner reads a step's stdout and stderr for workflow commands (a line
 * starting with `::name ...::`, or `##[name]` anywhere in a line). The plan's text and markdown
 * are already inert (src/inert.ts), but JSON and YAML must stay exact, and a value inside them may
 * look like a command. So each write that could hold one is framed by `::stop-commands::TOKEN` and
 * `::TOKEN::`, a random token no value can guess: the runner obeys nothing in between. acctsync's
 * own annotations are written outside any frame through {@link writeAnnotations}.
 */
import { randomUUID } from 'node:crypto';
import { fstatSync } from 'node:fs';
import { onGithubActions } from './ci.js';

type Write = (chunk: string | Uint8Array, ...rest: unknown[]) => boolean;

/** The streams' own writes, for annotations; undefined when nothing is framed. */
let rawStderr: Write | undefined;

/** A line the runner could take for a command, in either of its syntaxes. */
function couldHoldCommand(text: string): boolean {
  return /^\s*::/m.test(text) || /##[a-z]*\[/i.test(text);
}

/** `text` between a stop-commands marker and its resume marker, when it needs them. */
function framed(text: string): string {
  if (!couldHoldCommand(text)) return text;
  const token = randomUUID().replace(/-/g, '');
  return `::stop-commands::${token}\n${text}${text.endsWith('\n') ? '' : '\n'}::${token}::\n`;
}

/** A redirect to a file (`> plan.md`) is not read by the runner: the file keeps the output as it is. */
function isFile(stream: NodeJS.WriteStream & { readonly fd: number }): boolean {
  try {
    return fstatSync(stream.fd).isFile();
  } catch {
    return false;
  }
}

function guard(stream: NodeJS.WriteStream & { readonly fd: number }): Write {
  const write = stream.write.bind(stream) as Write;
  if (isFile(stream)) return write;
  stream.write = (chunk: string | Uint8Array, ...rest: unknown[]) =>
    write(framed(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')), ...rest);
  return write;
}

/** Frames the process's stdout and stderr under GitHub Actions; does nothing elsewhere. */
export function guardWorkflowCommands(env: NodeJS.ProcessEnv): void {
  if (!onGithubActions(env) || rawStderr !== undefined) return;
  guard(process.stdout);
  rawStderr = guard(process.stderr);
}

/** acctsync's own workflow annotations (`::error file=...::`), on stderr and never framed. */
export function writeAnnotations(lines: readonly string[]): void {
  if (lines.length === 0) return;
  const text = `${lines.join('\n')}\n`;
  if (rawStderr === undefined) process.stderr.write(text);
  else rawStderr(text);
}
