/** `acctsync validate [PATH...]`: loads the desired state offline and reports every problem. */
import { ConfigError, loadDesiredState, type Diagnostic, type LoadResult } from '../../config/index.js';
import { parseCommandArgs } from '../args.js';
import type { Command } from '../command.js';
import { printConfigWarnings } from '../config-report.js';
import { environmentName, environmentOptions, environmentUsage } from '../environment.js';

const usage = `Usage: acctsync validate [PATH...] [--env NAME]

Checks the desired state without contacting the API: structure, every rule and limit of the
service, references, duplicates and cycles. PATH is a YAML file or a directory of them; the
default is the directory account/ if it exists, else acctsync.yaml. A config that declares
environments is checked for each of them, or for the one --env names.

Options:
${environmentUsage}

Exit status: 0 valid, 1 invalid. With GITHUB_ACTIONS=true, problems are also printed as
workflow annotations.`;

/** A problem of the base shows once, not once per environment. */
function distinct(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = JSON.stringify([d.file, d.line, d.column, d.severity, d.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** One result per environment to check: the one named, each declared one, or the config as is. */
async function loadEach(
  paths: string[],
  named: string | undefined,
): Promise<Array<[string | undefined, LoadResult]>> {
  const first = await loadDesiredState(paths, named === undefined ? {} : { environment: named });
  if (first.ok || first.needsEnvironment !== true) return [[named, first]];
  const out: Array<[string | undefined, LoadResult]> = [];
  for (const name of first.environments)
    out.push([name, await loadDesiredState(paths, { environment: name })]);
  return out;
}

export const command: Command = {
  summary: 'check the desired state offline (schema, rules, references)',
  usage,
  async run(argv) {
    const { values, positionals } = parseCommandArgs('validate', argv, environmentOptions);
    const results = await loadEach(positionals, environmentName(values, process.env));
    const failed = results.flatMap(([, r]) => (r.ok ? [] : [r]));
    const secretSpans = Object.assign(
      {},
      ...results.map(([, r]) => r.secretSpans),
    ) as LoadResult['secretSpans'];
    if (failed.length > 0) {
      throw new ConfigError(distinct(failed.flatMap((r) => r.diagnostics)), { secretSpans });
    }
    printConfigWarnings(
      distinct(results.flatMap(([, r]) => (r.ok ? r.warnings : []))),
      secretSpans,
      process.env,
    );
    for (const [name, result] of results) {
      if (!result.ok) continue;
      const n = result.state.objects.length;
      const m = result.files.length;
      const which = name === undefined ? '' : ` (environment ${name})`;
      console.log(
        `valid${which}: ${n} ${n === 1 ? 'object' : 'objects'} in ${m} ${m === 1 ? 'file' : 'files'}`,
      );
    }
    return 0;
  },
};
