/**
 * Traffic tests on the command line: `test-traffic` and `validate --traffic-tests` run them the
 * same way and print the same report: each test passed or failed, and for a failure what decided
 * instead (the rule or module, at its file:line) and why.
 */
import { renderGithubAnnotation } from '../config/index.js';
import type { DesiredState } from '../resources/index.js';
import { inert } from '../inert.js';
import { runTrafficTests, type Decision, type TrafficTestResult } from '../traffic/index.js';

function where(location: { file: string; line: number } | undefined): string {
  return location === undefined ? '' : ` (${location.file}:${location.line})`;
}

function decided(decision: Decision): string {
  const name = decision.by === 'rule' ? `rule ${decision.name}` : decision.name;
  return `${name}${where(decision.location)}`;
}

/** What went wrong with one failed test, in one line. */
function failure({ test, outcome }: TrafficTestResult): string {
  const expected = `expected ${test.expect}${test.by === undefined ? '' : ` by ${test.by}`}`;
  if (outcome.verdict === 'unknown')
    return `${expected}, but the outcome is unknown at ${decided(outcome.decision)}: ${outcome.unknown?.reason ?? outcome.decision.detail}`;
  return `${expected}, got ${outcome.verdict} by ${decided(outcome.decision)}: ${outcome.decision.detail}`;
}

/** The report of `results` as text lines. */
function reportLines(results: readonly TrafficTestResult[]): string[] {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`${r.passed ? 'ok  ' : 'FAIL'} ${r.test.name}${where(r.test.location)}`);
    if (r.passed) continue;
    lines.push(`     ${failure(r)}`);
    for (const a of r.outcome.actions) lines.push(`     ran: rule ${a.rule}: ${a.type} (${a.effect})`);
    for (const note of r.outcome.notes) lines.push(`     note: ${note}`);
  }
  const failed = results.filter((r) => !r.passed).length;
  lines.push(`traffic tests: ${results.length - failed} passed, ${failed} failed`);
  return lines.map(inert);
}

/** The results as `--output json` prints them. */
function reportJson(results: readonly TrafficTestResult[]): unknown {
  const failed = results.filter((r) => !r.passed).length;
  return {
    passed: results.length - failed,
    failed,
    tests: results.map(({ test, outcome, passed }) => ({
      name: test.name,
      location: test.location,
      edge: test.edge,
      expect: test.expect,
      ...(test.by === undefined ? {} : { by: test.by }),
      passed,
      outcome,
    })),
  };
}

/**
 * Runs the tests under `paths` against `state` and prints the report; resolves to whether every
 * test passed (under GitHub Actions, each failure is also an annotation on the test's line). A tests
 * file that does not load throws its `TrafficTestsError`.
 */
export async function runAndReport(
  state: DesiredState,
  paths: readonly string[],
  format: 'text' | 'json',
): Promise<boolean> {
  const results = await runTrafficTests(state, paths);
  if (format === 'json') console.log(JSON.stringify(reportJson(results), null, 2));
  else console.log(reportLines(results).join('\n'));
  if (process.env.GITHUB_ACTIONS === 'true') {
    for (const r of results.filter((x) => !x.passed)) {
      const { file, line, column } = r.test.location;
      const message = `traffic test ${r.test.name}: ${failure(r)}`;
      process.stderr.write(
        `${renderGithubAnnotation({ severity: 'error', file, line, column, path: '', message })}\n`,
      );
    }
  }
  return results.every((r) => r.passed);
}
