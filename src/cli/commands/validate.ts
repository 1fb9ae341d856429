/** `acctsync validate [PATH...]`: loads the desired state offline and reports every problem. */
import { counted } from '../../count.js';
import { ConfigError, loadDesiredState, type Diagnostic, type LoadResult } from '../../config/index.js';
import { inert } from '../../inert.js';
import { defineCommand } from '../command.js';
import { help } from '../help/validate.js';
import { printConfigWarnings } from '../config-report.js';
import { environmentName } from '../environment.js';
import { filesRootFrom } from '../files-root.js';
import { policiesFrom, policyDiagnostic } from '../policy.js';
import { policyFindings, type PolicyRule } from '../../policy/index.js';
import { builtinKinds } from '../../resources/index.js';
import { runAndReport } from '../traffic-tests.js';

function keyOf(d: Diagnostic): string {
  return JSON.stringify([d.file, d.line, d.column, d.severity, d.message]);
}

/**
 * The problems of every environment checked: one found in all of them shows once, as it is; one
 * found in some says in which, since the same line can hold another value in each environment.
 */
function merged(results: ReadonlyArray<[string | undefined, readonly Diagnostic[]]>): Diagnostic[] {
  const count = new Map<string, number>();
  for (const [, list] of results)
    for (const key of new Set(list.map(keyOf))) count.set(key, (count.get(key) ?? 0) + 1);
  const seen = new Set<string>();
  return results.flatMap(([name, list]) =>
    list.flatMap((d) => {
      const key = keyOf(d);
      if (seen.has(key)) return [];
      seen.add(key);
      const everywhere = name === undefined || count.get(key) === results.length;
      return [everywhere ? d : { ...d, message: `${d.message} [environment ${name}]` }];
    }),
  );
}

/** One result per environment to check: the one named, each declared one, or the config as is. */
async function loadEach(
  paths: string[],
  named: string | undefined,
  filesRoot: readonly string[],
): Promise<Array<[string | undefined, LoadResult]>> {
  // Where validate runs (a pull request's first check) the secrets are not: those it cannot read
  // are named, not errors; plan, sync, apply and watch still refuse them.
  const options = { uncheckedUnavailable: true, filesRoot } as const;
  const first = await loadDesiredState(
    paths,
    named === undefined ? options : { ...options, environment: named },
  );
  if (first.ok || first.needsEnvironment !== true) return [[named, first]];
  const out: Array<[string | undefined, LoadResult]> = [];
  for (const name of first.environments)
    out.push([name, await loadDesiredState(paths, { ...options, environment: name })]);
  return out;
}

/** Each loaded environment with its broken `on: object` rules as diagnostics (errors fail it). */
async function withPolicy(
  results: Array<[string | undefined, LoadResult]>,
  policies: readonly PolicyRule[],
): Promise<Array<[string | undefined, LoadResult]>> {
  if (policies.length === 0) return results;
  const out: Array<[string | undefined, LoadResult]> = [];
  for (const [name, r] of results) {
    if (!r.ok) {
      out.push([name, r]);
      continue;
    }
    const env = name ?? r.environment?.name ?? '';
    const found = (await policyFindings(policies, { state: r.state, env, kinds: builtinKinds })).map(
      policyDiagnostic,
    );
    const errors = found.filter((d) => d.severity === 'error');
    const warnings = [...r.warnings, ...found.filter((d) => d.severity === 'warning')];
    if (errors.length === 0) {
      out.push([name, { ...r, warnings }]);
      continue;
    }
    const failed: LoadResult = {
      ok: false,
      diagnostics: [...errors, ...warnings],
      files: r.files,
      secretSpans: r.secretSpans,
      environments: r.environments,
    };
    out.push([name, failed]);
  }
  return out;
}

export const command = defineCommand({
  ...help,

  async run(values, positionals) {
    const policies = await policiesFrom(values);
    const results = await withPolicy(
      await loadEach(positionals, environmentName(values, process.env), filesRootFrom(values)),
      policies,
    );
    const secretSpans = Object.assign(
      {},
      ...results.map(([, r]) => r.secretSpans),
    ) as LoadResult['secretSpans'];
    if (results.some(([, r]) => !r.ok)) {
      const problems = merged(results.map(([name, r]) => [name, r.ok ? r.warnings : r.diagnostics]));
      throw new ConfigError(problems, { secretSpans });
    }
    const warnings = merged(results.map(([name, r]) => [name, r.ok ? r.warnings : []]));
    printConfigWarnings(warnings, secretSpans, process.env);
    for (const [name, result] of results) {
      if (!result.ok) continue;
      const n = result.state.objects.length;
      const m = result.files.length;
      const which = name === undefined ? '' : ` (environment ${name})`;
      console.log(`valid${which}: ${counted(n, 'object', 'objects')} in ${counted(m, 'file', 'files')}`);
    }
    const unchecked = [...new Set(results.flatMap(([, r]) => (r.ok ? r.unchecked : [])))];
    if (unchecked.length > 0)
      console.log(
        inert(
          `not checked: ${counted(unchecked.length, 'value', 'values')} not available here: ${unchecked.join(', ')} (plan, sync, apply and watch need ${unchecked.length === 1 ? 'it' : 'them'})`,
        ),
      );
    let passed = true;
    for (const [name, result] of values['traffic-tests'] === undefined ? [] : results) {
      if (!result.ok) continue;
      if (name !== undefined) console.log(`traffic tests (environment ${name}):`);
      if (!(await runAndReport(result.state, values['traffic-tests'] ?? [], 'text'))) passed = false;
    }
    return passed ? 0 : 1;
  },
});
