/**
 * Renaming an entry keeps its live object (docs/config.md "Renaming an entry"): automatically when
 * the entry keeps a value the service holds unique (a domain, an edge's hostports), with a `moved:`
 * entry otherwise; nested items follow their parent. Met as a user meets it: the built CLI against
 * the emulator over HTTP.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Plan } from '../../src/plan-format/index.js';
import { startCliAccount, type CliAccount } from '../safety/support.js';

const before = `version: 1
scope: renames
reserved_domains:
  www: { domain: www.example.com }
https_edges:
  web:
    hostports: [web.example.com:443]
    routes:
      - { match_type: path_prefix, match: /api }
api_keys:
  deployer: { description: CI deploys }
ip_policies:
  office:
    protect: true
    rules:
      - { cidr: 10.0.0.0/8, action: allow }
`;

const after = `version: 1
scope: renames
moved:
  - { from: api_keys/deployer, to: api_keys/ci-deployer }
  - { from: ip_policies/office, to: ip_policies/hq }
reserved_domains:
  website: { domain: www.example.com, description: Web site }
https_edges:
  site:
    hostports: [web.example.com:443]
    routes:
      - { match_type: path_prefix, match: /api }
api_keys:
  ci-deployer: { description: CI deploys }
ip_policies:
  hq:
    rules:
      - { cidr: 10.0.0.0/8, action: allow }
`;

let account: CliAccount;
beforeEach(async () => {
  account = await startCliAccount();
});
afterEach(async () => {
  await account.close();
});

async function sync(): Promise<void> {
  const run = await account.acctsync(['sync', '--yes']);
  expect(run.code, run.stderr + run.stdout).toBe(0);
}

async function planJson(args: readonly string[] = []): Promise<Plan> {
  const run = await account.acctsync(['plan', '--output', 'json', ...args]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Plan;
}

/** Every managed object's id by the key in its marker. */
async function idsByKey(): Promise<Map<string, string>> {
  const plan = await planJson();
  return new Map(Object.entries(plan.resolvedIds));
}

describe('two edges renamed along a chain in one change (b -> c, a -> b)', () => {
  const edges = (entries: Record<string, string>): string =>
    `version: 1\nscope: renames\nhttps_edges:\n${Object.entries(entries)
      .map(([name, host]) => `  ${name}: { hostports: [${host}:443] }`)
      .join('\n')}\n`;
  /** Syncs edges a (one.example.com) and b (two.example.com); returns every id by key. */
  const syncTwoEdges = async (): Promise<Map<string, string>> => {
    await account.write('account/main.yaml', edges({ a: 'one.example.com', b: 'two.example.com' }));
    await sync();
    return idsByKey();
  };

  it('keeps each edge with its hostport: the new b is the old a, and c the old b', async () => {
    const ids = await syncTwoEdges();
    await account.write('account/main.yaml', edges({ b: 'one.example.com', c: 'two.example.com' }));
    const plan = await planJson();
    expect(plan.operations.map((op) => [op.action, op.renamedFrom, op.key]).sort()).toEqual([
      ['rename', 'https_edges/a', 'https_edges/b'],
      ['rename', 'https_edges/b', 'https_edges/c'],
    ]);
    await sync();
    const renamed = await idsByKey();
    expect(renamed.get('https_edges/b')).toBe(ids.get('https_edges/a'));
    expect(renamed.get('https_edges/c')).toBe(ids.get('https_edges/b'));
    expect((await account.acctsync(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('still swaps a value between two entries that both stay, keeping each id with its key', async () => {
    const ids = await syncTwoEdges();
    await account.write('account/main.yaml', edges({ a: 'two.example.com', b: 'one.example.com' }));
    const plan = await planJson();
    // Updates only (the hostports freed first, then set): no rename, create or delete.
    expect([...new Set(plan.operations.map((op) => `${op.action} ${op.key}`))].sort()).toEqual([
      'update https_edges/a',
      'update https_edges/b',
    ]);
    await sync();
    expect(await idsByKey()).toEqual(ids);
  });
});

describe('a domain, an edge, an API key and an IP policy renamed', () => {
  beforeEach(async () => {
    await account.write('account/main.yaml', before);
    await sync();
  });

  it('plans renames only, shown as ~> old -> new, and keeps every id through the sync', async () => {
    const ids = await idsByKey();
    await account.write('account/main.yaml', after);
    const plan = await planJson();
    expect(plan.summary).toMatchObject({
      create: 0,
      delete: 0,
      replace: 0,
      update: 0,
      rename: 6,
      removed: 0,
    });
    expect(plan.operations.map((op) => [op.action, op.renamedFrom, op.key, op.reason_code]).sort()).toEqual([
      ['rename', 'api_keys/deployer', 'api_keys/ci-deployer', 'rename_because_moved'],
      ['rename', 'https_edges/web', 'https_edges/site', 'rename_because_same_unique_value'],
      [
        'rename',
        'https_edges/web/routes/path_prefix:/api',
        'https_edges/site/routes/path_prefix:/api',
        'rename_because_parent_renamed',
      ],
      ['rename', 'ip_policies/office', 'ip_policies/hq', 'rename_because_moved'],
      [
        'rename',
        'ip_policies/office/rules/10.0.0.0/8',
        'ip_policies/hq/rules/10.0.0.0/8',
        'rename_because_parent_renamed',
      ],
      ['rename', 'reserved_domains/www', 'reserved_domains/website', 'rename_because_same_unique_value'],
    ]);

    const text = await account.acctsync(['plan']);
    expect(text.stdout).toMatch(
      /^ ~> reserved_domains\/www -> website {2}reserved domain rd_\w+ {2}\(same domain\)$/m,
    );
    expect(text.stdout).toMatch(
      /^ ~> api_keys\/deployer -> ci-deployer {2}API key ak_\w+ {2}\(a moved: entry\)$/m,
    );
    expect(text.stdout).toContain('0 to delete, 0 to adopt, 6 to rename; 0 unchanged.');
    const markdown = await account.acctsync(['plan', '--output', 'markdown']);
    expect(markdown.stdout).toMatch(
      /^! ~> https_edges\/web -> site \(HTTPS edge edghts_\w+\): same hostports$/m,
    );
    expect(markdown.stdout).not.toContain('#### Destructive changes');

    // A protected policy renamed needs no --unprotect: a rename is never a delete.
    await sync();
    const renamed = await idsByKey();
    for (const [from, to] of [
      ['reserved_domains/www', 'reserved_domains/website'],
      ['https_edges/web', 'https_edges/site'],
      ['https_edges/web/routes/path_prefix:/api', 'https_edges/site/routes/path_prefix:/api'],
      ['api_keys/deployer', 'api_keys/ci-deployer'],
      ['ip_policies/office', 'ip_policies/hq'],
      ['ip_policies/office/rules/10.0.0.0/8', 'ip_policies/hq/rules/10.0.0.0/8'],
    ] as const) {
      expect(renamed.get(to), to).toBe(ids.get(from));
    }
    // The moved: entries stay and change nothing.
    const again = await account.acctsync(['plan', '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
    // Protection moved with the policy: removing its entry now is refused.
    const withoutPolicy = after
      .replace('  - { from: ip_policies/office, to: ip_policies/hq }\n', '')
      .replace(/ip_policies:\n[^]*$/, '');
    await account.write('account/main.yaml', withoutPolicy);
    const refused = await account.acctsync(['plan']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/- ip_policies\/hq \(ipp_\w+\): left the config/);
  });

  it('never counts renames for the mass-delete guard', async () => {
    const many = Array.from({ length: 12 }, (_, i) => `  p${i}: { description: policy ${i} }`).join('\n');
    await account.write('account/main.yaml', `${before}${many}\n`);
    await sync();
    const moved = Array.from(
      { length: 12 },
      (_, i) => `  - { from: ip_policies/p${i}, to: ip_policies/q${i} }`,
    );
    const renamedPolicies = many.replace(/ {2}p(\d+):/g, '  q$1:');
    await account.write(
      'account/main.yaml',
      before.replace('reserved_domains:', `moved:\n${moved.join('\n')}\nreserved_domains:`) +
        `${renamedPolicies}\n`,
    );
    const writes = account.writes();
    const run = await account.acctsync(['sync', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('12 to rename');
    expect(account.writes() - writes).toBe(12);
  });
});

describe('moved: entries', () => {
  it('refuses, at each entry, a move validate can tell is wrong, and changes nothing', async () => {
    await account.write(
      'account/main.yaml',
      `version: 1
scope: renames
moved:
  - { from: api_keys/old, to: api_keys/ci-deployr }
  - { from: api_keys/gone, to: credentials/agent }
  - { from: ip_policies/a, to: ip_policies/b }
  - { from: ip_policies/b, to: ip_policies/a }
  - { from: api_keys/ci-deployer, to: api_keys/z }
  - { from: api_keys/old, to: api_keys/ci-deployer }
  - { from: https_edges/web/routes/path_prefix:/api, to: https_edges/other/routes/path_prefix:/api }
api_keys:
  ci-deployer: {}
credentials:
  agent: {}
https_edges:
  web: { hostports: [web.example.com:443] }
  other: { hostports: [other.example.com:443] }
`,
    );
    const run = await account.acctsync(['validate']);
    expect(run.code).toBe(1);
    const errors = run.stderr.split('\n').filter((line) => line.includes(': error: '));
    expect(errors).toEqual([
      'account/main.yaml:4:31: error: api_keys/ci-deployr names no entry (at moved[0].to)',
      'account/main.yaml:5:32: error: moved from api_keys/gone to credentials/agent: a move keeps the object, which cannot change kind (at moved[1].to)',
      'account/main.yaml:6:32: error: moves loop: ip_policies/a -> ip_policies/b -> ip_policies/a (at moved[2].to)',
      'account/main.yaml:7:32: error: moves loop: ip_policies/b -> ip_policies/a -> ip_policies/b (at moved[3].to)',
      "account/main.yaml:8:13: error: api_keys/ci-deployer still has an entry: a move's from is the old name, which no entry may keep (at moved[4].from)",
      'account/main.yaml:8:39: error: api_keys/z names no entry (at moved[4].to)',
      'account/main.yaml:9:13: error: api_keys/old is moved twice (also at account/main.yaml:4:5) (at moved[5].from)',
      'account/main.yaml:10:58: error: moved from https_edges/web/routes/path_prefix:/api to https_edges/other/routes/path_prefix:/api: a nested item moves only within its parent (the service cannot move it to another) (at moved[6].to)',
    ]);
    expect(run.stderr).toContain('hint: did you mean api_keys/ci-deployer?');
    expect(account.writes()).toBe(0);
  });

  it('keeps a route whose match changes with a move inside its edge, and refuses a move across kinds the loader cannot see', async () => {
    const edge = (match: string, moved = '') => `version: 1
scope: renames
${moved}https_edges:
  web:
    hostports: [web.example.com:443]
    routes:
      - { match_type: path_prefix, match: ${match} }
backends:
  app: { http_response: { status_code: 200, body: ok } }
`;
    await account.write('account/main.yaml', edge('/api'));
    await sync();
    const ids = await idsByKey();
    const move = (from: string, to: string) => `moved:\n  - { from: ${from}, to: ${to} }\n`;
    await account.write(
      'account/main.yaml',
      edge('/v2', move('https_edges/web/routes/path_prefix:/api', 'https_edges/web/routes/path_prefix:/v2')),
    );
    const plan = await planJson();
    expect(plan.operations.map((op) => [op.action, op.key, op.changes.map((c) => c.path.join('.'))])).toEqual(
      [['rename', 'https_edges/web/routes/path_prefix:/v2', ['match']]],
    );
    await sync();
    expect((await idsByKey()).get('https_edges/web/routes/path_prefix:/v2')).toBe(
      ids.get('https_edges/web/routes/path_prefix:/api'),
    );

    // backends share one map: only the live object tells its variant.
    await account.write(
      'account/main.yaml',
      edge('/v2', move('backends/app', 'backends/site')).replace(
        '  app: { http_response: { status_code: 200, body: ok } }',
        '  site: { tunnel_group: { labels: { app: web } } }',
      ),
    );
    const refused = await account.acctsync(['plan']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('error: moved: backends/app -> backends/site changes the object');
    expect(refused.stderr).toMatch(
      /account\/main\.yaml:4:5: backends\/app \(bkdhr_\w+\) is a HTTP response backend, backends\/site a tunnel group backend/,
    );
  });

  it('moving an entry to another file, or from an overlay into the base, is no change', async () => {
    await account.write(
      'config/acctsync.yaml',
      'version: 1\nscope: renames\nenvironments:\n  staging:\n    paths: [staging]\n',
    );
    await account.write(
      'config/base/network.yaml',
      'version: 1\nip_policies:\n  office: { description: Office }\n',
    );
    await account.write('config/staging/lab.yaml', 'version: 1\nip_policies:\n  lab: { description: Lab }\n');
    const synced = await account.acctsync(['sync', 'config/', '--env', 'staging', '--yes']);
    expect(synced.code, synced.stderr).toBe(0);
    const unchanged = async () => {
      const run = await account.acctsync(['plan', 'config/', '--env', 'staging', '--detailed-exitcode']);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain('No changes. 2 objects up to date.');
    };
    await account.write('config/base/network.yaml', 'version: 1\n');
    await account.write(
      'config/base/office.yaml',
      'version: 1\nip_policies:\n  office: { description: Office }\n',
    );
    await unchanged();
    await account.write('config/staging/lab.yaml', 'version: 1\n');
    await account.write('config/base/lab.yaml', 'version: 1\nip_policies:\n  lab: { description: Lab }\n');
    await unchanged();
  });
});
