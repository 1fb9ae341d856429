/**
 * How problems in the desired-state files reach a person and a CI system, the same for every
 * command that loads config: `file:line:col` code frames, sorted by file and position, and under
 * GitHub Actions one workflow annotation per problem. Both go to stderr, which the Actions runner
 * reads for workflow commands too, so that stdout stays the plan a pipeline parses.
 */
import { compare } from '../compare.js';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  maxFileBytes,
  renderDiagnostic,
  renderGithubAnnotation,
  type Diagnostic,
  type SecretSpans,
} from '../config/index.js';
import { writeAnnotations } from './workflow-commands.js';

/** Problems in reading order: by file, then line and column; errors before warnings at one place. */
function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      compare(a.file, b.file) ||
      a.line - b.line ||
      a.column - b.column ||
      (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1),
  );
}

/** The file's text for a code frame, when it is small text worth showing. */
function sourceText(file: string, cache: Map<string, string | undefined>): string | undefined {
  if (!cache.has(file)) {
    let text: string | undefined;
    try {
      const path = resolve(file);
      if (statSync(path).size <= maxFileBytes) {
        const bytes = readFileSync(path);
        text = bytes.includes(0) ? undefined : bytes.toString('utf8');
      }
    } catch {
      text = undefined;
    }
    cache.set(file, text);
  }
  return cache.get(file);
}

/** One code frame per diagnostic, each preceded by a blank line, literal secrets masked. */
export function diagnosticFrames(diagnostics: readonly Diagnostic[], secrets: SecretSpans): string[] {
  const cache = new Map<string, string | undefined>();
  return sortDiagnostics(diagnostics).map(
    (d) => `\n${renderDiagnostic(d, sourceText(d.file, cache), secrets[d.file])}`,
  );
}

/** Workflow annotations for GitHub Actions, or none outside it. */
export function diagnosticAnnotations(diagnostics: readonly Diagnostic[], env: NodeJS.ProcessEnv): string[] {
  return env.GITHUB_ACTIONS === 'true' ? sortDiagnostics(diagnostics).map(renderGithubAnnotation) : [];
}

/** Prints the warnings of a config that loaded, annotations then frames, on stderr. */
export function printConfigWarnings(
  warnings: readonly Diagnostic[],
  secrets: SecretSpans,
  env: NodeJS.ProcessEnv,
): void {
  writeAnnotations(diagnosticAnnotations(warnings, env));
  for (const frame of diagnosticFrames(warnings, secrets)) console.error(frame);
}
