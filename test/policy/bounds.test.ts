/**
 * Policy rules are bounded, as a team (or whoever pushed the rule) meets them through the built CLI:
 * a rule that nests or allocates without bound is stopped at its time budget and named, the command
 * exits 1 (never killed by the system); `matches()` runs in linear time on a long value a dashboard
 * user set, and a pattern RE2 cannot run is refused at its place in the rule file; a daemon
 * evaluating such rules keeps answering `/healthz`. The memory bound is checked on the sandbox
 * itself, with a small heap, since the time budget stops the CLI's rules first.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RuleSandbox } from '../../src/policy/sandbox.js';
import { startCliAccount, type CliAccount } from '../safety/support.js';
import { policyFile, startWatch, waitFor } from '../watch/daemon-harness.js';

const hundred = `[${Array.from({ length: 100 }, (_, i) => i).join(', ')}]`;
const twenty = `[${Array.from({ length: 20 }, (_, i) => i).join(', ')}]`;

/** Nine nested `all()` over 20 items: 20^9 steps. */
const deepAll =
  Array.from({ length: 9 }, (_, i) => `${twenty}.all(v${i}, `).join('') + 'true' + ')'.repeat(9);
/** Five nested `map()` over 100 items: 10^10 elements. */
const deepMap = `size(${['a', 'b', 'c', 'd'].map((v) => `${hundred}.map(${v}, `).join('')}${hundred}.map(e, [a, b, c, d, e])))))) > 0`;

const rules = (entries: readonly { name: string; expression: string; message: string }[]): string =>
  [
    'version: 1',
    'rules:',
    ...entries.flatMap((r) => [
      `  - name: ${r.name}`,
      '    on: object',
      '    kinds: [ip_policies]',
      `    expression: ${JSON.stringify(r.expression)}`,
      `    message: ${JSON.stringify(r.message)}`,
    ]),
  ].join('\n') + '\n';

const catastrophic = "object.description.matches('^([A-Za-z0-9]+ ?)+$')";
/** A description a dashboard user could set: a backtracking engine takes minutes over it. */
const longDescription = `${'a'.repeat(200)}!`;

let account: CliAccount;
beforeEach(async () => {
  account = await startCliAccount();
  await account.write(
    'account/policies.yaml',
    policyFile('Office', longDescription).replace('watch-test', 'bounds'),
  );
});
afterEach(async () => {
  await account.close();
});

describe('a policy rule past its bounds', () => {
  it('is stopped at its time budget (or memory bound) and named; validate and plan exit 1', async () => {
    await account.write(
      'policies/rules.yaml',
      rules([
        { name: 'deep-all', expression: deepAll, message: 'never reported: it never finishes' },
        { name: 'deep-map', expression: deepMap, message: 'never reported either' },
      ]),
    );
    const started = Date.now();
    const run = await account.acctsync(['validate', 'account', '--policy', 'policies']);
    expect(run.code).toBe(1);
    // Four evaluations (two rules, two objects) of at most 1 s each, with a worker started for each.
    expect(Date.now() - started).toBeLessThan(30_000);
    // Nesting alone runs out of time; the map's lists may run out of memory first, on a fast machine.
    expect(run.stderr).toMatch(
      /error: policy rule deep-all: the rule was stopped: it ran longer than its time budget of 1 s \(at ip_policies\/p0\)/,
    );
    expect(run.stderr).toMatch(
      /error: policy rule deep-map: the rule was stopped: it (ran longer than its time budget of 1 s|used more than its memory bound of 64 MB) \(at ip_policies\/p0\)/,
    );
    expect(run.stderr).not.toContain('never reported');
    expect(run.stderr).not.toMatch(/\n\s+at /);

    const plan = await account.acctsync(['plan', 'account', '--policy', 'policies', '--output', 'json']);
    expect(plan.code).toBe(1);
    const findings = (
      JSON.parse(plan.stdout) as { policy: { rule: string; severity: string; message: string }[] }
    ).policy;
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([
      ['deep-all', 'error'],
      ['deep-all', 'error'],
      ['deep-map', 'error'],
      ['deep-map', 'error'],
    ]);
  });

  it('runs matches() in linear time over a long value, and refuses a pattern RE2 cannot run up front', async () => {
    await account.write(
      'policies/rules.yaml',
      rules([{ name: 'described-in-words', expression: catastrophic, message: 'a description is words' }]),
    );
    const run = await account.acctsync(['validate', 'account', '--policy', 'policies']);
    expect(run.code).toBe(1);
    // Evaluated, not stopped: the pattern ran to its answer within the 1 s budget.
    expect(run.stderr).toContain(
      'policy rule described-in-words: a description is words (at ip_policies/p1)',
    );
    expect(run.stderr).not.toContain('(at ip_policies/p0)');
    expect(run.stderr).not.toContain('time budget');

    await account.write(
      'policies/rules.yaml',
      rules([{ name: 'doubled', expression: "object.description.matches('(a)\\\\1')", message: 'no' }]),
    );
    const refused = await account.acctsync(['validate', 'account', '--policy', 'policies']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /policies\/rules\.yaml:6:45: error: the pattern does not compile as RE2: .*invalid escape sequence/,
    );
    expect(refused.stderr).toContain(
      'hint: matches() runs in linear time (RE2): no backreferences or lookaround',
    );
  });
});

describe('the rules sandbox', () => {
  it('stops a rule past its memory bound and takes the next rule in a fresh worker', async () => {
    const sandbox = new RuleSandbox({ evaluationMs: 60_000, runMs: 120_000, memoryMb: 32 });
    try {
      const rule = { on: 'object' as const, expression: deepMap };
      await expect(sandbox.evaluate(rule, {})).resolves.toEqual({
        kind: 'exceeded',
        bound: 'memoryMb',
        message: 'stopped: it used more than its memory bound of 32 MB',
      });
      const next = { on: 'object' as const, expression: "object.description == 'Office'" };
      await expect(sandbox.evaluate(next, { object: { description: 'Office' } })).resolves.toEqual({
        kind: 'value',
        value: true,
      });
    } finally {
      await sandbox.close();
    }
  });
});

describe('a daemon evaluating a rule that never finishes', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'acctsync-bounds-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('answers /healthz throughout, and refuses the reconcile naming the rule', async () => {
    const rulesFile = join(dir, 'rules.yaml');
    await writeFile(rulesFile, rules([{ name: 'deep-all', expression: deepAll, message: 'never' }]));
    const daemon = await startWatch({
      files: { 'policies.yaml': policyFile('One', 'Two', 'Three', 'Four') },
      args: ['--policy', rulesFile],
    });
    try {
      const slowest = { ms: 0, probes: 0 };
      const refused = await waitFor(
        'the reconcile to be refused',
        async () => {
          const started = performance.now();
          const res = await fetch(`${daemon.url}/healthz`, { signal: AbortSignal.timeout(5_000) });
          expect(res.status).toBe(200);
          slowest.ms = Math.max(slowest.ms, performance.now() - started);
          slowest.probes++;
          return daemon.reconciles().find((r) => r.status === 'refused');
        },
        60_000,
      );
      // Four objects at up to 1 s each: /healthz was asked many times while the rule ran.
      expect(slowest.probes).toBeGreaterThan(10);
      expect(slowest.ms).toBeLessThan(1_000);
      expect(JSON.stringify(refused)).toContain('deep-all');
      expect(JSON.stringify(refused)).toContain('time budget of 1 s');
      expect(daemon.child.exitCode).toBeNull();
      expect(await daemon.policies()).toEqual([]);
    } finally {
      await daemon.close();
    }
  });
});
