/**
 * `acctsync test-traffic` and `validate --traffic-tests` as a user meets them: the built CLI in a
 * config directory, offline. Tests files pass and fail on the right rule (named, at its file:line),
 * an outcome the sample cannot decide is unknown and names the variable, and a bad tests file is
 * refused at its file:line:col.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadDesiredState } from '../../src/config/index.js';
import { EvaluationStoppedError, runTrafficTests } from '../../src/traffic/index.js';
import { examplesDir, repoRoot, runCli } from '../support/cli.js';

/** Line 14 holds the rule deny-tor, line 17 geo-fence, line 20 office-only. */
const config = `version: 1
scope: traffic
ip_policies:
  office:
    rules:
      - { cidr: 203.0.113.0/24, action: allow }
tls_edges:
  db:
    hostports: ['db.example.com:443']
    policy:
      inbound:
        - name: log-all
          actions: [{ type: log, config: { metadata: { edge: db } } }]
        - name: deny-tor
          expressions: ['conn.client_ip.is_tor_node']
          actions: [{ type: deny }]
        - name: geo-fence
          expressions: ["conn.geo.country_code != 'DE'"]
          actions: [{ type: deny }]
        - name: office-only
          expressions: ["conn.tls.sni == 'db.example.com'"]
          actions: [{ type: restrict-ips, config: { allow: ['203.0.113.0/24', '2001:db8::/32'] } }]
`;

const passing = `version: 1
tests:
  - name: the office in Germany gets in
    edge: tls_edges/db
    connection: { client_ip: 203.0.113.7, client_ip.is_tor_node: false, geo: { country_code: DE } }
    expect: allow
    by: office-only
  - name: a tor exit is refused
    edge: tls_edges/db
    connection: { client_ip: 203.0.113.7, client_ip.is_tor_node: true }
    expect: deny
    by: deny-tor
  - name: France is refused
    edge: tls_edges/db
    variables: { conn.client_ip.is_tor_node: false, conn.geo.country_code: FR }
    connection: { client_ip: 203.0.113.7 }
    expect: deny
    by: geo-fence
  - name: a German address outside the office is refused
    edge: tls_edges/db
    connection: { client_ip: 192.0.2.1, client_ip.is_tor_node: false, geo.country_code: DE }
    expect: deny
    by: office-only
`;

/** One test of the edge slow.yaml defines. */
const slowTest = `version: 1
tests:
  - name: slow
    edge: tls_edges/slow
    connection: { client_ip: 203.0.113.7 }
    expect: allow
`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'acctsync-traffic-'));
  await writeFile(join(dir, 'edges.yaml'), config);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function acctsync(args: string[]) {
  return runCli(args, { cwd: dir, timeoutMs: 120_000 });
}

describe('acctsync test-traffic', () => {
  it('passes tests files whose expectations hold, and says so', async () => {
    await writeFile(join(dir, 'tests.yaml'), passing);
    const run = await acctsync(['test-traffic', 'edges.yaml', 'tests.yaml']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(
      [
        'ok   the office in Germany gets in (tests.yaml:3)',
        'ok   a tor exit is refused (tests.yaml:8)',
        'ok   France is refused (tests.yaml:13)',
        'ok   a German address outside the office is refused (tests.yaml:19)',
        'traffic tests: 4 passed, 0 failed',
        '',
      ].join('\n'),
    );
    expect(run.code).toBe(0);
  });

  it('fails a test on the rule that decided instead, at its file:line, with the actions that ran', async () => {
    await writeFile(
      join(dir, 'tests.yaml'),
      `version: 1
tests:
  - name: the office in France gets in
    edge: tls_edges/db
    connection: { client_ip: 203.0.113.7, client_ip.is_tor_node: false, geo: { country_code: FR } }
    expect: allow
  - name: a tor exit is refused by the geo fence
    edge: tls_edges/db
    connection: { client_ip: 203.0.113.7, client_ip.is_tor_node: true, geo: { country_code: FR } }
    expect: deny
    by: geo-fence
`,
    );
    const run = await acctsync(['test-traffic', 'edges.yaml', 'tests.yaml']);
    expect(run.stdout).toBe(
      [
        'FAIL the office in France gets in (tests.yaml:3)',
        '     expected allow, got deny by rule geo-fence (edges.yaml:17): rule geo-fence: deny',
        '     ran: rule log-all: log (logged)',
        '     ran: rule geo-fence: deny (closed the connection)',
        'FAIL a tor exit is refused by the geo fence (tests.yaml:7)',
        '     expected deny by geo-fence, got deny by rule deny-tor (edges.yaml:14): rule deny-tor: deny',
        '     ran: rule log-all: log (logged)',
        '     ran: rule deny-tor: deny (closed the connection)',
        'traffic tests: 0 passed, 2 failed',
        '',
      ].join('\n'),
    );
    expect(run.code).toBe(1);
  });

  it('marks each failed test on its line under GitHub Actions', async () => {
    await writeFile(join(dir, 'tests.yaml'), passing.replace('expect: allow', 'expect: deny'));
    const run = await runCli(['test-traffic', 'edges.yaml', 'tests.yaml'], {
      cwd: dir,
      env: { GITHUB_ACTIONS: 'true' },
      timeoutMs: 120_000,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^::error file=tests\.yaml,line=3,col=5(,[^:]*)?::traffic test the office in Germany gets in: expected deny by office-only, got allow by rule office-only/m,
    );
  });

  it('says the outcome is unknown, naming the variable, when the sample does not set what it depends on', async () => {
    await writeFile(
      join(dir, 'tests.yaml'),
      `version: 1
tests:
  - name: tor status not given
    edge: tls_edges/db
    connection: { client_ip: 203.0.113.7, geo: { country_code: DE } }
    expect: allow
`,
    );
    const run = await acctsync(['test-traffic', 'edges.yaml', 'tests.yaml', '--output', 'json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as {
      failed: number;
      tests: { passed: boolean; outcome: { verdict: string; decision: unknown; unknown: unknown } }[];
    };
    expect(report.failed).toBe(1);
    expect(report.tests[0]!.outcome.verdict).toBe('unknown');
    expect(report.tests[0]!.outcome.unknown).toEqual({
      variable: 'conn.client_ip.is_tor_node',
      reason:
        'expression 1 of rule deny-tor cannot be decided: it reads conn.client_ip.is_tor_node, which the connection does not set',
    });
    expect(report.tests[0]!.outcome.decision).toMatchObject({
      by: 'rule',
      name: 'deny-tor',
      location: { file: 'edges.yaml', line: 14 },
    });
  });

  it('refuses a bad tests file at each problem, all in one run, before evaluating anything', async () => {
    await writeFile(
      join(dir, 'tests.yaml'),
      `version: 1
tests:
  - name: misspelt
    edge: tls_edges/dbb
    connection: { clent_ip: 203.0.113.7, client_port: high }
    expect: allow
    by: geo-fense
  - name: misspelt
    edge: tls_edges/db
    connection: { client_ip: 203.0.113.7 }
    expect: maybe
`,
    );
    const run = await acctsync(['test-traffic', 'edges.yaml', 'tests.yaml']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('error: the traffic tests are invalid: 4 errors');
    expect(run.stderr).toContain('tests.yaml:4:11: error: the config has no TLS edge tls_edges/dbb');
    expect(run.stderr).toContain('hint: did you mean tls_edges/db?');
    expect(run.stderr).toContain('tests.yaml:5:19: error: unknown variable conn.clent_ip');
    expect(run.stderr).toContain('hint: did you mean conn.client_ip?');
    expect(run.stderr).toContain('tests.yaml:5:55: error: conn.client_port must be an int');
    expect(run.stderr).toMatch(/tests\.yaml:11:13: error: .*allow, deny/);
    expect(run.stderr).not.toContain('    at ');
  });

  it('names a `by` that nothing on the edge is called', async () => {
    await writeFile(
      join(dir, 'tests.yaml'),
      `version: 1
tests:
  - name: misspelt rule
    edge: tls_edges/db
    connection: { client_ip: 203.0.113.7 }
    expect: deny
    by: geo-fense
`,
    );
    const run = await acctsync(['test-traffic', 'edges.yaml', 'tests.yaml']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('tests.yaml:7:9: error: nothing named geo-fense can decide on tls_edges/db');
    expect(run.stderr).toContain('hint: did you mean geo-fence?');
  });

  it('leaves an expression past the count limits undecided, the same on every machine', async () => {
    await writeFile(
      join(dir, 'slow.yaml'),
      `version: 1
scope: traffic
tls_edges:
  slow:
    hostports: ['slow.example.com:443']
    policy:
      inbound:
        - name: nested
          expressions:
            - lists.range(300).all(a, lists.range(300).all(b, lists.range(300).all(c, lists.range(300).all(d, a + b + c + d >= 0))))
          actions: [{ type: deny }]
`,
    );
    await writeFile(join(dir, 'tests.yaml'), slowTest);
    const run = await acctsync(['test-traffic', 'slow.yaml', 'tests.yaml']);
    // 300^4 iterations would take minutes: the nesting alone decides, before anything runs.
    expect(run.stdout).toContain(
      'expected allow, but the outcome is unknown at rule nested (slow.yaml:8): expression 1 of rule nested cannot be decided: it is not evaluated offline: it nests 4 comprehensions, past the limit of 2',
    );
    expect(run.code).toBe(1);
  });

  it('fails with an error, not a test outcome, when the safety net stops a runaway', async () => {
    await writeFile(
      join(dir, 'slow.yaml'),
      `version: 1
scope: traffic
tls_edges:
  slow:
    hostports: ['slow.example.com:443']
    policy:
      inbound:
        - name: hungry
          expressions:
            - lists.range(10000).map(a, lists.range(10000)).size() > 0
          actions: [{ type: deny }]
`,
    );
    await writeFile(join(dir, 'tests.yaml'), slowTest);
    const run = await acctsync(['test-traffic', 'slow.yaml', 'tests.yaml']);
    expect(run.stderr).toContain(
      'error: the offline traffic evaluation was stopped at expression 1 of rule hungry on tls_edges/slow (slow.yaml:8): it used more than the safety limit of 64 MB of memory',
    );
    expect(run.stdout).toBe('');
    expect(run.code).toBe(1);
  });

  it('the safety net, made to fire in-process, throws the typed error', async () => {
    await writeFile(join(dir, 'tests.yaml'), passing);
    const loaded = await loadDesiredState(['edges.yaml'], { cwd: dir, env: {} });
    if (!loaded.ok) throw new Error('the config loads');
    const run = runTrafficTests(loaded.state, ['tests.yaml'], { cwd: dir, net: { runMs: 0 } });
    await expect(run).rejects.toBeInstanceOf(EvaluationStoppedError);
    await expect(run).rejects.toThrow(
      "the offline traffic evaluation was stopped at expression 1 of rule deny-tor on tls_edges/db (edges.yaml:14): the run's expressions together ran longer than the safety limit of 0 s",
    );
  });

  it('refuses an invalid config as every command does, running no test', async () => {
    await writeFile(join(dir, 'edges.yaml'), config.replace('action: allow', 'action: alow'));
    await writeFile(join(dir, 'tests.yaml'), passing);
    const run = await acctsync(['test-traffic', 'edges.yaml', 'tests.yaml']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('error: the desired state is invalid: 1 error');
    expect(run.stderr).toContain('edges.yaml:6:41: error: must be one of allow, deny; found "alow"');
  });

  it('refuses a command line without tests files', async () => {
    const run = await acctsync(['test-traffic', 'edges.yaml']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('test-traffic: needs the config and at least one tests file');
  });

  it("runs the example's tests against the example account", async () => {
    const run = await runCli(
      ['test-traffic', join(examplesDir, 'account'), join(examplesDir, 'traffic-tests')],
      {
        cwd: repoRoot,
        timeoutMs: 120_000,
      },
    );
    expect(run.stdout).toContain('traffic tests: 4 passed, 0 failed');
    expect(run.code).toBe(0);
  });
});

describe('acctsync validate --traffic-tests', () => {
  it('runs the tests offline with the config, and fails on a failed expectation', async () => {
    await writeFile(join(dir, 'tests.yaml'), passing);
    const ok = await acctsync(['validate', 'edges.yaml', '--traffic-tests', 'tests.yaml']);
    expect(ok.stdout).toContain('valid: 3 objects in 1 file');
    expect(ok.stdout).toContain('traffic tests: 4 passed, 0 failed');
    expect(ok.code).toBe(0);
    await writeFile(join(dir, 'tests.yaml'), passing.replace('expect: allow', 'expect: deny'));
    const failed = await acctsync(['validate', 'edges.yaml', '--traffic-tests', 'tests.yaml']);
    expect(failed.stdout).toContain('FAIL the office in Germany gets in (tests.yaml:3)');
    expect(failed.stdout).toContain(
      'expected deny by office-only, got allow by rule office-only (edges.yaml:20): rule office-only: restrict-ips: 203.0.113.7 is in 203.0.113.0/24 (allow) of rule office-only',
    );
    expect(failed.code).toBe(1);
  });
});
