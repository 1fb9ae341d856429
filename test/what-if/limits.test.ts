/**
 * The plan's what-if is a deterministic function of its inputs: which edges are evaluated is
 * decided by counts (expression evaluations per plan, samples per edge), so two plans of the same
 * inputs carry the same `trafficChanges` on any machine; an edge past the count is listed as not
 * evaluated, saying why. The wall-time safety net, made to fire, fails the plan with a typed error
 * instead of answering differently.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runOnce } from '../../src/pipeline/index.js';
import { builtinKinds } from '../../src/resources/index.js';
import { EvaluationStoppedError } from '../../src/traffic/index.js';
import { startCliAccount, type CliAccount } from '../safety/support.js';
import { validatePlan } from '../support/plan-schema.js';

/** A rule per address: each is one expression, and one derived sample. */
function blocklist(addresses: number): string {
  return Array.from(
    { length: addresses },
    (_, i) => `        - name: deny-${i}
          expressions: ["conn.client_ip == '198.51.${100 + (i >> 8)}.${i & 255}'"]
          actions: [{ type: deny }]
`,
  ).join('');
}

/**
 * `big` blocks 400 addresses, one rule each; `db` lets the office in. Both are changed by the plan:
 * `big` to 401 rules (64 samples × 801 expressions: 51,264 evaluations, past the plan's 50,000),
 * `db` by a rule refusing the office's lower half (4 samples, 2 expressions).
 */
function config(bigRules: number, denyOfficeLow: boolean): string {
  return `version: 1
scope: limits
ip_policies:
  office:
    rules:
      - { cidr: 203.0.113.0/24, action: allow }
tls_edges:
  big:
    hostports: ['big.example.com:443']
    policy:
      inbound:
${blocklist(bigRules)}  db:
    hostports: ['db.example.com:443']
    ip_restriction: { ip_policies: [office] }
    policy:
      inbound:
${
  denyOfficeLow
    ? `        - name: deny-office-low
          expressions: ["inCidrRange(conn.client_ip, '203.0.113.0/25')"]
          actions: [{ type: deny }]
`
    : ''
}        - name: deny-blocklisted
          expressions: ["conn.client_ip == '198.51.100.7'"]
          actions: [{ type: deny }]
`;
}

let account: CliAccount;
beforeEach(async () => {
  account = await startCliAccount();
  await account.write('account/edges.yaml', config(400, false));
  const sync = await account.acctsync(['sync', 'account', '--yes']);
  expect(sync.code, sync.stderr).toBe(0);
  await account.write('account/edges.yaml', config(401, true));
});
afterEach(async () => {
  await account.close();
});

describe("the plan's what-if limits", () => {
  it('an edge past the evaluation limit is listed as not evaluated, the same in every plan', async () => {
    const first = await account.acctsync(['plan', 'account', '--output', 'json']);
    expect(first.code, first.stderr).toBe(0);
    const second = await account.acctsync(['plan', 'account', '--output', 'json']);
    expect(second.code, second.stderr).toBe(0);
    const plan = JSON.parse(first.stdout) as { trafficChanges?: unknown };
    expect(validatePlan(plan), JSON.stringify(validatePlan.errors)).toBe(true);
    expect((JSON.parse(second.stdout) as { trafficChanges?: unknown }).trafficChanges).toEqual(
      plan.trafficChanges,
    );
    expect(plan.trafficChanges).toEqual([
      {
        edge: 'tls_edges/big',
        operations: ['update tls_edges/big'],
        samples: 'derived',
        evaluated: 0,
        leftOut: 337,
        notEvaluated:
          "it needs up to 51264 expression evaluations, past the 50000 left of the plan's what-if limit of 50000",
        changes: [],
      },
      // Edges after it are still evaluated while the limit has room for them.
      {
        edge: 'tls_edges/db',
        operations: ['update tls_edges/db'],
        samples: 'derived',
        evaluated: 4,
        changes: [
          {
            connection: '203.0.113.1',
            before: { verdict: 'allowed', by: 'IP policy office' },
            after: { verdict: 'refused', by: 'rule deny-office-low' },
          },
        ],
      },
    ]);

    const text = await account.acctsync(['plan', 'account']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      [
        'Traffic (sample connections through each changed TLS edge, live -> desired):',
        "  tls_edges/big (derived samples, 0 evaluated (337 more left out)): not evaluated: it needs up to 51264 expression evaluations, past the 50000 left of the plan's what-if limit of 50000",
        '  tls_edges/db (derived samples, 4 evaluated):',
        '    203.0.113.1: allowed by IP policy office -> refused by rule deny-office-low',
        '',
      ].join('\n'),
    );

    const markdown = await account.acctsync(['plan', 'account', '--output', 'markdown']);
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(markdown.stdout).toContain(
      "- `tls_edges/big`: not evaluated: it needs up to 51264 expression evaluations, past the 50000 left of the plan's what-if limit of 50000 (derived samples, 0 evaluated (337 more left out))",
    );
  });

  it('at most 64 test connections per edge are evaluated, the rest counted', async () => {
    const tests = Array.from(
      { length: 66 },
      (_, i) => `  - name: office host ${i + 1}
    edge: tls_edges/db
    connection: { client_ip: 203.0.113.${i + 1} }
    expect: allow
`,
    ).join('');
    await account.write('traffic-tests/db.yaml', `version: 1\ntests:\n${tests}`);
    const json = await account.acctsync([
      'plan',
      'account',
      '--traffic-tests',
      'traffic-tests',
      '--output',
      'json',
    ]);
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout) as {
      trafficChanges: { edge: string; evaluated: number; leftOut?: number; changes: { test?: string }[] }[];
    };
    const db = plan.trafficChanges.find((e) => e.edge === 'tls_edges/db');
    expect(db).toMatchObject({ samples: 'tests', evaluated: 64, leftOut: 2 });
    // The lower half of the office (hosts 1 to 64, the first 64 tests) is refused after the change.
    expect(db?.changes.map((c) => c.test)).toEqual(
      Array.from({ length: 64 }, (_, i) => `office host ${i + 1}`),
    );
  });

  it('an on: change policy rule sees the edges not evaluated, and can refuse them', async () => {
    await account.write(
      'policies/rules.yaml',
      `version: 1
rules:
  - name: every-edge-evaluated
    on: change
    expression: change.trafficNotEvaluated.size() == 0
    message: the what-if did not evaluate an edge this change moves
`,
    );
    const plan = await account.acctsync(['plan', 'account', '--policy', 'policies']);
    expect(plan.stdout).toContain(
      '  error: rule every-edge-evaluated on tls_edges/big: the what-if did not evaluate an edge this change moves (account/edges.yaml:',
    );
    expect(plan.stdout).not.toContain('every-edge-evaluated on tls_edges/db');
    expect(plan.code).toBe(1);
  });

  it('a runaway the counts do not bound fails `plan` with an error, not a different plan', async () => {
    await account.write(
      'account/edges.yaml',
      config(401, true).replace(
        '        - name: deny-office-low',
        `        - name: hungry
          expressions: ['lists.range(10000).map(a, lists.range(10000)).size() > 0']
          actions: [{ type: deny }]
        - name: deny-office-low`,
      ),
    );
    const plan = await account.acctsync(['plan', 'account', '--output', 'json']);
    expect(plan.stderr).toContain(
      'error: the offline traffic evaluation was stopped at expression 1 of rule hungry on tls_edges/db (account/edges.yaml:',
    );
    expect(plan.stderr).toContain('it used more than the safety limit of 64 MB of memory');
    expect(plan.stdout).toBe('');
    expect(plan.code).toBe(1);
  });

  it('the wall-time safety net, made to fire, fails the plan with a typed error', async () => {
    const run = runOnce({
      desired: { load: { paths: [join(account.dir, 'account')], cwd: account.dir, env: {} } },
      account: () => Promise.resolve({ client: account.client }),
      planning: { adopt: false, noDelete: false, now: new Date() },
      guards: { force: false },
      whatIf: { net: { runMs: 0 } },
      kinds: builtinKinds,
    });
    await expect(run).rejects.toBeInstanceOf(EvaluationStoppedError);
    await expect(run).rejects.toThrow(
      // The live side of the first sample the IP restriction lets through (203.0.113.1).
      "the offline traffic evaluation was stopped at expression 1 of rule deny-blocklisted on tls_edges/db: the run's expressions together ran longer than the safety limit of 0 s",
    );
  });
});
