/**
 * Reads the text an `{env: NAME}` or `{file: path}` source names, within what a config may read:
 * no variable of acctsync's own or of the CI system (`guarded-variables.ts`), no file outside the
 * config's root or inside `.git/` (`files-root.ts`). Problems name the variable or the path as
 * written, never what was read.
 */
import { dirname, resolve } from 'node:path';
import { describeSystemError } from '../errors.js';
import { describeRoot, filesRootVariable, type FilesRoot } from './files-root.js';
import { readFileInRoot, type RootFileRead } from './root-file.js';
import { guardedVariableOwner } from './guarded-variables.js';

/** Files named by `{file}` hold a certificate or a secret, never more. */
const maxValueFileBytes = 1024 * 1024;

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

/** What reading external values needs besides the source. */
export interface ExternalContext {
  readonly env: NodeJS.ProcessEnv;
  readonly filesRoot: FilesRoot;
}

type ExternalValue =
  | { readonly ok: true; readonly value: string; readonly subject: string }
  | { readonly ok: false; readonly message: string; readonly hint?: string }
  /** Not an `{env}` or `{file}` source: the schema pass reports it. */
  | { readonly ok: 'malformed' };

const refused = (message: string, hint?: string): ExternalValue => ({
  ok: false,
  message,
  ...(hint === undefined ? {} : { hint }),
});

/** The text of an `{env}` or `{file}` source written in the YAML file at `yamlFile`. */
export function readExternal(
  source: Record<string, unknown>,
  yamlFile: string,
  ctx: ExternalContext,
): ExternalValue {
  if (typeof source.env === 'string') return readEnv(source.env, ctx);
  if (typeof source.file === 'string') return readFile(source.file, yamlFile, ctx.filesRoot);
  return { ok: 'malformed' };
}

function readEnv(name: string, ctx: ExternalContext): ExternalValue {
  const owner = guardedVariableOwner(name);
  if (owner !== undefined) {
    return refused(
      `{env: ${name}} is refused: ${name} is a variable of ${owner}, which a config may not read`,
      'give the value its own variable (docs/config.md lists the variables refused)',
    );
  }
  const value = ctx.env[name];
  if (value === undefined) {
    return refused(`environment variable ${name} is not set`, `export ${name} before running acctsync`);
  }
  return { ok: true, value, subject: `the value of env ${name}` };
}

function readFile(written: string, yamlFile: string, root: FilesRoot): ExternalValue {
  const file = resolve(dirname(yamlFile), written);
  const read = readFileInRoot(root, file, maxValueFileBytes);
  if (!read.ok) return fileRefused(read, written, file, root);
  const { bytes } = read;
  const text = utf8Text(bytes);
  if (text === undefined) {
    return refused(
      `file ${written} is not UTF-8 text`,
      'save it as UTF-8 (a UTF-16 file, with or without a byte-order mark, is refused)',
    );
  }
  return { ok: true, value: fileValue(text), subject: `the content of ${written} (${bytes.length} bytes)` };
}

function fileRefused(
  read: Exclude<RootFileRead, { ok: true }>,
  written: string,
  file: string,
  root: FilesRoot,
): ExternalValue {
  switch (read.reason) {
    case 'git':
      return refused(`file ${written} is inside .git/, which a config may not read`);
    case 'outside':
      return refused(
        `file ${written} is outside the config's root (${describeRoot(root)})`,
        `a config reads files only inside the git work tree that holds it (or the config directory given); --files-root DIR (or ${filesRootVariable}) adds a directory on purpose`,
      );
    case 'missing':
      return refused(
        `file ${written} does not exist (looked for ${file})`,
        'paths are relative to this YAML file',
      );
    case 'changed':
      return refused(
        `file ${written} changed while it was opened (a symbolic link replaced a part of its path); nothing was read`,
      );
    case 'not-a-file':
      return refused(
        `${written} is not a regular file`,
        'name a file, not a directory, FIFO, socket or device',
      );
    case 'too-large':
      return refused(`file ${written} is larger than 1 MB`);
    case 'unreadable':
      return refused(`cannot read file ${written}: ${describeSystemError(read.error)}`);
  }
}

/**
 * The file's text, or undefined when it is not UTF-8: a UTF-16 file (BOM or not) or a binary one
 * would otherwise be silently mangled into a different secret.
 */
function utf8Text(bytes: Buffer): string | undefined {
  const utf16Bom =
    bytes.length >= 2 &&
    ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  if (utf16Bom || bytes.includes(0)) return undefined;
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * A one-line file loses its final newline (an editor adds it; a secret never ends with one).
 * Multi-line content (PEM) is kept byte for byte, final newline included.
 */
function fileValue(text: string): string {
  const trimmed = text.replace(/\r?\n$/, '');
  return trimmed.includes('\n') ? text : trimmed;
}
