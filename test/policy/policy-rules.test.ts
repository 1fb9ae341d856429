/**
 * `--policy` rules as a team meets them: the built CLI in a config directory, against an emulator
 * over real HTTP. Object and change rules, errors and warnings, in text, JSON, markdown and GitHub
 * annotations; a broken error rule fails validate and plan and stops sync and apply before any write.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCliAccount, type CliAccount } from '../safety/support.js';

const policy = `version: 1
rules:
  - name: tls-edges-restrict-ips
    on: object
    kinds: [tls_edges]
    expression: has(object.ip_restriction) || has(object.policy)
    message: every TLS edge restricts who may connect
  - name: api-keys-are-described
    on: object
    kinds: [api_keys]
    expression: has(object.description) && object.description != ''
    message: an API key needs a description
    severity: warning
  - name: domains-are-never-deleted
    on: change
    kinds: [reserved_domains]
    expression: change.action != 'delete'
    message: releasing a domain needs a human
`;

const keep = `version: 1
scope: policy
ip_policies:
  office:
    description: Office
`;

const domain = `${keep}reserved_domains:
  app:
    domain: app.example.com
`;

/** Line 4 declares the edge, line 7 the key. */
const edgeAndKey = `version: 1
scope: policy
tls_edges:
  db:
    hostports: ['db.example.com:443']
api_keys:
  ci:
    metadata: '{}'
`;

let account: CliAccount;
beforeEach(async () => {
  account = await startCliAccount();
  await account.write('policies/rules.yaml', policy);
});
afterEach(async () => {
  await account.close();
});

describe('on: object rules', () => {
  it('fail validate at the object, with the warning beside the error, in text and annotations', async () => {
    await account.write('account/all.yaml', edgeAndKey);
    const run = await account.acctsync(['validate', 'account', '--policy', 'policies']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'account/all.yaml:4:3: error: policy rule tls-edges-restrict-ips: every TLS edge restricts who may connect (at tls_edges/db)',
    );
    expect(run.stderr).toContain('> 4 |   db:');
    expect(run.stderr).toContain(
      'account/all.yaml:7:3: warning: policy rule api-keys-are-described: an API key needs a description',
    );
    const annotated = await account.acctsync(['validate', 'account', '--policy', 'policies/rules.yaml'], {
      GITHUB_ACTIONS: 'true',
    });
    expect(annotated.stderr).toContain(
      '::error file=account/all.yaml,line=4,col=3::tls_edges/db: policy rule tls-edges-restrict-ips: every TLS edge restricts who may connect',
    );
    expect(annotated.stderr).toContain(
      '::warning file=account/all.yaml,line=7,col=3::api_keys/ci: policy rule api-keys-are-described',
    );
    expect(account.writes()).toBe(0);
  });

  it('a warning alone changes no exit code', async () => {
    await account.write(
      'account/all.yaml',
      edgeAndKey.replace(
        "    hostports: ['db.example.com:443']",
        "    hostports: ['db.example.com:443']\n    policy: { inbound: [] }",
      ),
    );
    const run = await account.acctsync(['validate', 'account', '--policy', 'policies']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('warning: policy rule api-keys-are-described');
    expect(run.stdout).toContain('valid: 2 objects in 1 file');
  });

  it('fail plan (exit 1) and show in text, JSON, markdown and annotations', async () => {
    await account.write('account/all.yaml', edgeAndKey);
    const text = await account.acctsync(['plan', 'account', '--policy', 'policies'], {
      GITHUB_ACTIONS: 'true',
    });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(
      'Policy:\n  error: rule tls-edges-restrict-ips on tls_edges/db: every TLS edge restricts who may connect (account/all.yaml:4)\n  warning: rule api-keys-are-described on api_keys/ci: an API key needs a description (account/all.yaml:7)',
    );
    expect(text.stderr).toContain('::error file=account/all.yaml,line=4,col=3::');

    const json = await account.acctsync(['plan', 'account', '--policy', 'policies', '--output', 'json']);
    expect(json.code).toBe(1);
    const plan = JSON.parse(json.stdout) as { policy: unknown[] };
    expect(plan.policy).toEqual([
      {
        rule: 'tls-edges-restrict-ips',
        severity: 'error',
        object: 'tls_edges/db',
        message: 'every TLS edge restricts who may connect',
        location: { file: 'account/all.yaml', line: 4, column: 3 },
      },
      {
        rule: 'api-keys-are-described',
        severity: 'warning',
        object: 'api_keys/ci',
        message: 'an API key needs a description',
        location: { file: 'account/all.yaml', line: 7, column: 3 },
      },
    ]);

    const markdown = await account.acctsync([
      'plan',
      'account',
      '--policy',
      'policies',
      '--output',
      'markdown',
    ]);
    const lines = markdown.stdout.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      '### acctsync plan: scope `policy`',
      '',
      '#### Policy',
      '',
      '**1 policy error: this plan will not be applied.**',
    ]);
    expect(markdown.stdout).toContain(
      '| error | `tls-edges-restrict-ips` | `tls_edges/db` | every TLS edge restricts who may connect | account/all.yaml:4 |',
    );
    expect(markdown.stdout).toContain('| warning | `api-keys-are-described` | `api_keys/ci` |');
    expect(account.writes()).toBe(0);
  });

  it('stop sync before any write', async () => {
    await account.write('account/all.yaml', edgeAndKey);
    const run = await account.acctsync(['sync', 'account', '--policy', 'policies']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error: 1 policy rule is broken: nothing was written');
    expect(account.writes()).toBe(0);
  });
});

describe('on: change rules', () => {
  it('stop sync and apply before deleting a domain, and fail plan; a warning rule lets it through', async () => {
    await account.write('account/domains.yaml', domain);
    expect((await account.acctsync(['sync', 'account', '--policy', 'policies'])).code).toBe(0);
    const created = account.writes();
    expect(created).toBeGreaterThan(0);

    await account.write('account/domains.yaml', keep);
    const plan = await account.acctsync(['plan', 'account', '--policy', 'policies', '--out', 'plan.json']);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain(
      '  error: rule domains-are-never-deleted on reserved_domains/app: releasing a domain needs a human',
    );
    const sync = await account.acctsync(['sync', 'account', '--policy', 'policies', '--yes']);
    expect(sync.code).toBe(1);
    expect(sync.stderr).toContain(
      'rule domains-are-never-deleted on reserved_domains/app: releasing a domain needs a human',
    );
    const apply = await account.acctsync(['apply', 'plan.json', '--policy', 'policies']);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('1 policy rule is broken: nothing was written');
    expect(account.writes()).toBe(created);
    const live = (await account.client.request<{ reserved_domains: unknown[] }>('GET', '/reserved_domains'))
      .body;
    expect(live.reserved_domains).toHaveLength(1);

    await account.write(
      'policies/rules.yaml',
      policy.replace(
        'message: releasing a domain needs a human',
        'message: releasing a domain needs a human\n    severity: warning',
      ),
    );
    const warned = await account.acctsync(['sync', 'account', '--policy', 'policies', '--yes']);
    expect(warned.stderr).toContain('delete reserved_domains/app: done');
    expect(warned.code).toBe(0);
    expect(warned.stdout).toContain('warning: rule domains-are-never-deleted on reserved_domains/app');
    expect(account.writes()).toBeGreaterThan(created);
  });
});

describe('policy files', () => {
  it('are refused at their own file:line:col before any request', async () => {
    await account.write('account/domains.yaml', domain);
    await account.write(
      'policies/broken.yaml',
      `version: 1
rules:
  - name: typo
    on: object
    expression: objekt.description != ''
    message: m
  - name: typo
    on: everything
    kinds: [reserved_domain]
    expression: 'true'
    message: m
  - name: cut-short
    on: change
    expression: change.action == 'delete' &&
    message: m
`,
    );
    const run = await account.acctsync(['sync', 'account', '--policy', 'policies/broken.yaml']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error: the policy rules are invalid: 5 errors');
    expect(run.stderr).toContain(
      'policies/broken.yaml:5:17: error: the expression does not compile: Unknown variable: objekt',
    );
    expect(run.stderr).toContain(
      'policies/broken.yaml:7:11: error: rule name typo is already used at policies/broken.yaml:3:5',
    );
    expect(run.stderr).toContain('policies/broken.yaml:8:9: error: on must be object or change');
    expect(run.stderr).toContain('policies/broken.yaml:9:13: error: unknown kind reserved_domain');
    expect(run.stderr).toContain('hint: did you mean reserved_domains?');
    expect(run.stderr).toContain(
      'policies/broken.yaml:14:45: error: the expression does not compile: Unexpected token: EOF',
    );
    expect(account.answered(() => true)).toBe(0);
  });
});
