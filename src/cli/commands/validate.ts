/** `acctsync validate [PATH...]`: loads the desired state offline and reports every problem. */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  ConfigError,
  loadDesiredState,
  maxFileBytes,
  renderDiagnostic,
  renderGithubAnnotation,
  type Diagnostic,
  type SecretSpans,
} from '../../config/index.js';
import { parseCommandArgs } from '../args.js';
import type { Command } from '../command.js';

const usage = `Usage: acctsync validate [PATH...]

Checks the desired state without contacting the API: structure, every rule and limit of the
service, references, duplicates and cycles. PATH is a YAML file or a directory of them; the
default is the directory account/ if it exists, else acctsync.yaml.

Exit status: 0 valid, 1 invalid. With GITHUB_ACTIONS=true, problems are also printed as
workflow annotations.`;

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

function frames(diagnostics: readonly Diagnostic[], secrets: SecretSpans): string[] {
  const cache = new Map<string, string | undefined>();
  return diagnostics.map((d) => `\n${renderDiagnostic(d, sourceText(d.file, cache), secrets[d.file])}`);
}

export const command: Command = {
  summary: 'check the desired state offline',
  usage,
  async run(argv) {
    const { positionals } = parseCommandArgs('validate', argv, {});
    const result = await loadDesiredState(positionals);
    const diagnostics = result.ok ? result.warnings : result.diagnostics;
    if (process.env.GITHUB_ACTIONS === 'true') {
      for (const d of diagnostics) console.log(renderGithubAnnotation(d));
    }
    if (!result.ok) throw new ConfigError(diagnostics, { details: frames(diagnostics, result.secretSpans) });
    for (const frame of frames(diagnostics, result.secretSpans)) console.error(frame);
    const n = result.state.objects.length;
    const m = result.files.length;
    console.log(`valid: ${n} ${n === 1 ? 'object' : 'objects'} in ${m} ${m === 1 ? 'file' : 'files'}`);
    return 0;
  },
};
