/**
 * The plan's what-if as a reviewer meets it: the built CLI in a config directory, an emulator over
 * real HTTP. A change to a TLS edge's rules or to an IP policy it uses is run over sample
 * connections before (the live edge) and after (the config), in text, markdown and JSON; a
 * change that moves no sample says so; `--traffic-tests` connections are used; an `on: change`
 * policy rule reading the outcome changes refuses.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCliAccount, type CliAccount } from '../safety/support.js';
import { validatePlan } from '../support/plan-schema.js';

/** The office (203.0.113.0/24) may reach the database; one address is blocklisted. */
const synced = `version: 1
scope: whatif
ip_policies:
  office:
    description: Office
    rules:
      - { cidr: 203.0.113.0/24, action: allow }
tls_edges:
  db:
    description: Database
    hostports: ['db.example.com:443']
    ip_restriction: { ip_policies: [office] }
    policy:
      inbound:
        - name: deny-blocklisted
          expressions: ["conn.client_ip == '198.51.100.7'"]
          actions: [{ type: deny }]
`;

/** A rule that refuses the lower half of the office range. */
const denyOffice = synced.replace(
  '        - name: deny-blocklisted',
  `        - name: deny-office-low
          expressions: ["inCidrRange(conn.client_ip, '203.0.113.0/25')"]
          actions: [{ type: deny }]
        - name: deny-blocklisted`,
);

let account: CliAccount;
beforeEach(async () => {
  account = await startCliAccount();
  await account.write('account/edges.yaml', synced);
  const sync = await account.acctsync(['sync', 'account', '--yes']);
  expect(sync.code, sync.stderr).toBe(0);
});
afterEach(async () => {
  await account.close();
});

interface JsonPlan {
  readonly trafficChanges?: readonly {
    readonly edge: string;
    readonly operations: readonly string[];
    readonly samples: string;
    readonly evaluated: number;
    readonly changes: readonly unknown[];
  }[];
}

describe('plan: outcome changes of a changed TLS edge', () => {
  it('a rule that denies part of the office range: in text, markdown and JSON', async () => {
    await account.write('account/edges.yaml', denyOffice);
    const text = await account.acctsync(['plan', 'account']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      [
        'Traffic (sample connections through each changed TLS edge, live -> desired):',
        '  tls_edges/db (derived samples, 4 evaluated):',
        '    203.0.113.1: allowed by IP policy office -> refused by rule deny-office-low',
        '',
      ].join('\n'),
    );

    const markdown = await account.acctsync(['plan', 'account', '--output', 'markdown']);
    expect(markdown.code, markdown.stderr).toBe(0);
    const lines = markdown.stdout.split('\n');
    // Near the top: right after the summary, before the changes.
    expect(lines.slice(0, 11)).toEqual([
      '### acctsync plan: scope `whatif`',
      '',
      '**Plan: 0 to create, 1 to update, 0 to replace, 0 to delete, 0 to adopt; 2 unchanged.**',
      '',
      '#### Traffic: sample connections whose outcome changes',
      '',
      '| Edge | Connection | Live | Desired |',
      '|---|---|---|---|',
      '| `tls_edges/db` | 203.0.113.1 | allowed by IP policy office | refused by rule deny-office-low |',
      '',
      '- `tls_edges/db`: 1 of 4 sample connections change outcome (derived samples, 4 evaluated)',
    ]);

    const json = await account.acctsync(['plan', 'account', '--output', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout) as JsonPlan;
    expect(validatePlan(plan), JSON.stringify(validatePlan.errors)).toBe(true);
    expect(plan.trafficChanges).toEqual([
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
  });

  it('a deny rule added to an IP policy the edge uses: the edge is changed through its policy', async () => {
    await account.write(
      'account/edges.yaml',
      synced.replace(
        '      - { cidr: 203.0.113.0/24, action: allow }',
        '      - { cidr: 203.0.113.0/24, action: allow }\n      - { cidr: 203.0.113.128/25, action: deny }',
      ),
    );
    const json = await account.acctsync(['plan', 'account', '--output', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout) as JsonPlan & { operations: { id: string }[] };
    expect(plan.operations.map((o) => o.id)).toEqual(['create ip_policies/office/rules/203.0.113.128/25']);
    expect(plan.trafficChanges).toEqual([
      {
        edge: 'tls_edges/db',
        operations: ['create ip_policies/office/rules/203.0.113.128/25'],
        samples: 'derived',
        evaluated: 4,
        changes: [
          {
            connection: '203.0.113.129',
            before: { verdict: 'allowed', by: 'IP policy office' },
            after: { verdict: 'refused', by: 'IP policy office' },
          },
        ],
      },
    ]);
  });

  it('a change that moves no sample says so', async () => {
    await account.write(
      'account/edges.yaml',
      synced.replace('description: Database', 'description: The database'),
    );
    const text = await account.acctsync(['plan', 'account']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      'Traffic (sample connections through each changed TLS edge, live -> desired):\n  tls_edges/db (derived samples, 3 evaluated): no sample connection changes outcome\n',
    );
    const markdown = await account.acctsync(['plan', 'account', '--output', 'markdown']);
    expect(markdown.stdout).toContain(
      '#### Traffic: sample connections whose outcome changes\n\n- `tls_edges/db`: no sample connection changes outcome (derived samples, 3 evaluated)\n',
    );
    const json = await account.acctsync(['plan', 'account', '--output', 'json']);
    expect((JSON.parse(json.stdout) as JsonPlan).trafficChanges).toEqual([
      {
        edge: 'tls_edges/db',
        operations: ['update tls_edges/db'],
        samples: 'derived',
        evaluated: 3,
        changes: [],
      },
    ]);
  });

  it('an edge that refuses nothing before or after is not listed', async () => {
    const open = `version: 1
scope: whatif
tls_edges:
  db:
    description: Database
    hostports: ['db.example.com:443']
`;
    await account.write('account/edges.yaml', open);
    const sync = await account.acctsync(['sync', 'account', '--yes']);
    expect(sync.code, sync.stderr).toBe(0);
    await account.write(
      'account/edges.yaml',
      open.replace('description: Database', 'description: The database'),
    );
    const text = await account.acctsync(['plan', 'account']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('~ tls_edges/db');
    expect(text.stdout).not.toContain('Traffic');
  });

  it('an edge whose rules name no address says there is no sample to evaluate', async () => {
    const geo = synced
      .replace('    ip_restriction: { ip_policies: [office] }\n', '')
      .replace("conn.client_ip == '198.51.100.7'", "conn.geo.country_code == 'KP'");
    await account.write('account/edges.yaml', geo);
    const sync = await account.acctsync(['sync', 'account', '--yes']);
    expect(sync.code, sync.stderr).toBe(0);
    await account.write(
      'account/edges.yaml',
      geo.replace('description: Database', 'description: The database'),
    );
    const text = await account.acctsync(['plan', 'account']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      '  tls_edges/db (derived samples, 0 evaluated): no sample connection to evaluate (its rules name no address: pass --traffic-tests)\n',
    );
  });

  it('a plan that changes no TLS edge has no traffic section', async () => {
    await account.write(
      'account/edges.yaml',
      `${synced}reserved_domains:\n  app: { domain: app.example.com }\n`,
    );
    const text = await account.acctsync(['plan', 'account']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toContain('Traffic');
    const json = await account.acctsync(['plan', 'account', '--output', 'json']);
    expect(JSON.parse(json.stdout)).not.toHaveProperty('trafficChanges');
  });
});

describe('on: change policy rules see the outcome changes', () => {
  const rules = `version: 1
rules:
  - name: nobody-loses-access
    on: change
    expression: change.traffic.all(t, t.before.verdict != 'allowed' || t.after.verdict == 'allowed')
    message: a connection that got through is refused after this change
`;

  it('refuse the plan and the sync of a change that refuses an office address', async () => {
    await account.write('policies/rules.yaml', rules);
    await account.write('account/edges.yaml', denyOffice);
    const writes = account.writes();
    const plan = await account.acctsync(['plan', 'account', '--policy', 'policies']);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain(
      '  error: rule nobody-loses-access on tls_edges/db: a connection that got through is refused after this change (account/edges.yaml:9)',
    );
    const sync = await account.acctsync(['sync', 'account', '--policy', 'policies', '--yes']);
    expect(sync.code).toBe(1);
    expect(sync.stderr).toContain('1 policy rule is broken: nothing was written');
    expect(account.writes()).toBe(writes);
  });

  it('let a change through whose samples keep their verdicts', async () => {
    await account.write('policies/rules.yaml', rules);
    await account.write(
      'account/edges.yaml',
      synced.replace('description: Database', 'description: The database'),
    );
    const plan = await account.acctsync(['plan', 'account', '--policy', 'policies']);
    expect(plan.code, plan.stdout).toBe(0);
    expect(plan.stdout).not.toContain('nobody-loses-access');
  });
});

describe('--traffic-tests: the samples are the tests connections', () => {
  const tests = `version: 1
tests:
  - name: the office reaches the database
    edge: tls_edges/db
    connection: { client_ip: 203.0.113.7, geo: { country_code: DE } }
    expect: allow
  - name: the upper office half reaches it too
    edge: tls_edges/db
    connection: { client_ip: 203.0.113.200 }
    expect: allow
`;

  it('in text, markdown and JSON, each change with its test', async () => {
    await account.write('traffic-tests/db.yaml', tests);
    await account.write('account/edges.yaml', denyOffice);
    const text = await account.acctsync(['plan', 'account', '--traffic-tests', 'traffic-tests']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      [
        '  tls_edges/db (traffic tests, 2 evaluated):',
        '    test "the office reaches the database": 203.0.113.7 (DE): allowed by IP policy office -> refused by rule deny-office-low',
        '',
      ].join('\n'),
    );
    const markdown = await account.acctsync([
      'plan',
      'account',
      '--traffic-tests',
      'traffic-tests/db.yaml',
      '--output',
      'markdown',
    ]);
    expect(markdown.stdout).toContain(
      '| `tls_edges/db` | 203.0.113.7 (DE), test "the office reaches the database" | allowed by IP policy office | refused by rule deny-office-low |',
    );
    const json = await account.acctsync([
      'plan',
      'account',
      '--traffic-tests',
      'traffic-tests',
      '--output',
      'json',
    ]);
    const plan = JSON.parse(json.stdout) as JsonPlan;
    expect(validatePlan(plan), JSON.stringify(validatePlan.errors)).toBe(true);
    expect(plan.trafficChanges).toEqual([
      {
        edge: 'tls_edges/db',
        operations: ['update tls_edges/db'],
        samples: 'tests',
        evaluated: 2,
        changes: [
          {
            connection: '203.0.113.7 (DE)',
            test: 'the office reaches the database',
            before: { verdict: 'allowed', by: 'IP policy office' },
            after: { verdict: 'refused', by: 'rule deny-office-low' },
          },
        ],
      },
    ]);
  });

  it('a tests file that does not load stops sync before the account is read, at its line', async () => {
    await account.write('traffic-tests/db.yaml', tests.replace('edge: tls_edges/db', 'edge: tls_edges/dbb'));
    await account.write('account/edges.yaml', denyOffice);
    const writes = account.writes();
    const reads = account.answered((r) => r.method === 'GET');
    const run = await account.acctsync(['sync', 'account', '--yes', '--traffic-tests', 'traffic-tests']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error: the traffic tests are invalid: 1 error');
    expect(run.stderr).toContain(
      'traffic-tests/db.yaml:4:11: error: the config has no TLS edge tls_edges/dbb',
    );
    expect(run.stderr).not.toContain('    at ');
    expect(account.writes()).toBe(writes);
    expect(account.answered((r) => r.method === 'GET')).toBe(reads);
  });
});
