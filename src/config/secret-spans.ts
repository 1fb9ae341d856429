/**
 * Where secrets sit as plain text in the config files, so that code frames blank them and no
 * diagnostic repeats one.
 */
import { sensitiveMask } from '../sensitive-mask.js';
import type { Diagnostic } from './diagnostic.js';
import type { DeclaredObject } from './objects.js';
import { scalarSpan, type SourceFile } from './source.js';

/** Text offsets of a secret written literally in a file: code frames blank them. */
export interface SecretSpan {
  readonly start: number;
  readonly end: number;
}

/** Secret spans by file, named as diagnostics name files. */
export type SecretSpans = Readonly<Record<string, readonly SecretSpan[]>>;

/** Where secrets sit as plain text in the files (values from `{env}`/`{file}` are not in them). */
export function literalSecrets(declared: readonly DeclaredObject[]): SecretSpans {
  const out: Record<string, SecretSpan[]> = {};
  for (const o of declared) {
    for (const path of o.sensitive) {
      const { source, path: at } = o.place(path);
      const span = scalarSpan(source, at);
      if (span !== undefined) (out[source.file] ??= []).push(span);
    }
  }
  return out;
}

/** A diagnostic about a secret value says what was expected, never what was found. */
export function withoutSecretFound(
  d: Diagnostic,
  spans: SecretSpans,
  sources: readonly SourceFile[],
): Diagnostic {
  const source = sources.find((s) => s.file === d.file);
  const inFile = spans[d.file];
  if (d.found === undefined || source === undefined || inFile === undefined) return d;
  const offset = source.lineCounter.lineStarts[d.line - 1];
  if (offset === undefined) return d;
  const at = offset + d.column - 1;
  if (!inFile.some((span) => at >= span.start && at < span.end)) return d;
  const { found, ...rest } = d;
  return { ...rest, message: rest.message.replaceAll(found, sensitiveMask) };
}
