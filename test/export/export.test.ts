import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadDesiredState } from '../../src/config/index.js';
import { exportAccount, renderExport, type AccountExport } from '../../src/export/index.js';
import { type Plan } from '../../src/plan-format/index.js';
import { computePlan } from '../../src/pipeline/index.js';
import { startAccount } from '../support/account.js';
import { useAccount } from '../support/use-account.js';
import { populate, secretsEnv, type Populated } from './account.js';
import { runCliAgainst } from '../support/cli.js';

const account = useAccount({}, 'file');
let ids: Populated;
let exp: AccountExport;
let dir: string;
/** A schema path as the CLI would write it for a file next to `schemas/`. */
const schemaRef = 'schemas/acctsync.schema.json';

beforeAll(async () => {
  ids = await populate(account.client);
  exp = await exportAccount({ client: account.client, scope: 'default' });
  dir = await mkdtemp(join(tmpdir(), 'acctsync-export-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every file of a directory with its text, by name. */
async function readDir(path: string): Promise<Record<string, string>> {
  const names = (await readdir(path)).sort();
  return Object.fromEntries(
    await Promise.all(
      names.map(async (n): Promise<[string, string]> => [n, await readFile(join(path, n), 'utf8')]),
    ),
  );
}

function document(): unknown {
  const [file] = renderExport(exp, false, schemaRef);
  return parse(file?.text ?? '');
}

/** The value at `path` inside parsed YAML. */
function at(value: unknown, ...path: (string | number)[]): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], value);
}

/** The keys of the map at `path`. */
function keysAt(value: unknown, ...path: (string | number)[]): string[] {
  return Object.keys(at(value, ...path) as object);
}

describe('export of an account populated through the API', () => {
  it('writes every managed map, named from descriptions, domains, hostports, subjects and key comments', () => {
    const doc = document();
    expect(at(doc, 'version')).toBe(1);
    expect(at(doc, 'scope')).toBe('default');
    expect(keysAt(doc, 'api_keys').sort()).toEqual(['bootstrap-key', 'ci-deploy-key']);
    expect(keysAt(doc, 'ssh_credentials')).toEqual(['test-acctsync']);
    expect(keysAt(doc, 'reserved_domains')).toEqual(['api.example.com', 'app.example.com']);
    expect(keysAt(doc, 'tls_edges')).toEqual(['tls.example.com-443']);
    expect(keysAt(doc, 'certificate_authorities')).toEqual(['acme-test-root-ca']);
    expect(keysAt(doc, 'tls_certificates')).toEqual(['api.example.com']);
    expect(keysAt(doc, 'backends').sort()).toEqual([
      'canary',
      'maintenance-page',
      'web-agents',
      'web-with-fallback',
    ]);
  });

  it('writes references as names when the target is exported, raw ids otherwise', () => {
    const doc = document();
    expect(at(doc, 'ip_restrictions', 'dashboard-from-the-office', 'ip_policies')).toEqual(['office']);
    expect(at(doc, 'backends', 'web-with-fallback', 'failover', 'backends')).toEqual([
      'web-agents',
      'maintenance-page',
    ]);
    expect(at(doc, 'backends', 'canary', 'weighted', 'backends')).toEqual({
      'web-agents': 90,
      'maintenance-page': 10,
    });
    expect(at(doc, 'tls_edges', 'tls.example.com-443', 'backend')).toEqual({ backend: 'web-agents' });
    expect(at(doc, 'reserved_domains', 'api.example.com', 'certificate')).toBe('api.example.com');
    expect(at(doc, 'event_subscriptions', 'policy-changes', 'destinations')).toEqual([
      'audit-logs',
      'monitoring',
    ]);
    // Endpoint configurations are not managed: the reference stays a raw id.
    expect(at(doc, 'reserved_addrs', 'ssh-bastion', 'endpoint_configuration')).toBe(
      ids.endpointConfiguration,
    );
  });

  it('nests rules and routes, keeps modules, and leaves out defaults, read-only and server-filled values', () => {
    const doc = document();
    const ruleId: unknown = expect.stringMatching(/^ipr_/);
    const domainId: unknown = expect.stringMatching(/^rd_/);
    expect(at(doc, 'ip_policies', 'office', 'rules')).toEqual([
      { id: ruleId, cidr: '10.0.0.0/8', action: 'allow' },
      {
        id: ruleId,
        description: 'guest wifi',
        cidr: '192.168.1.0/24',
        action: 'deny',
      },
    ]);
    const [root, admin, team] = at(doc, 'https_edges', 'web', 'routes') as unknown[];
    expect(at(root, 'backend')).toEqual({ backend: 'web-with-fallback' });
    expect(at(root, 'circuit_breaker')).toEqual({
      tripped_duration: 30,
      rolling_window: 60,
      num_buckets: 10,
      error_threshold_percentage: 0.5,
    });
    expect(at(admin, 'ip_restriction')).toEqual({ ip_policies: ['office'] });
    // Written through the API without it, the service turned IdP-initiated login on; acctsync's
    // default is off, so the export says what the account holds.
    expect(at(team, 'saml')).toEqual({
      idp_metadata: '<EntityDescriptor/>',
      force_authn: true,
      allow_idp_initiated: true,
    });
    expect(at(team, 'oauth')).toEqual({
      provider: { provider_a: { teams: ['acme/ops'] } },
      auth_check_interval: 300,
    });
    expect(at(doc, 'tls_edges', 'tls.example.com-443', 'tls_termination')).toEqual({ min_version: '1.2' });
    expect(at(doc, 'reserved_domains', 'app.example.com')).toEqual({
      id: domainId,
      domain: 'app.example.com',
      certificate_management_policy: { private_key_type: 'ecdsa' },
    });
    const text = renderExport(exp, false, schemaRef)[0]?.text ?? '';
    for (const member of [
      'created_at',
      'uri:',
      'token',
      'owner_id',
      'addr:',
      'subject_common_name',
      'entity_id',
      'tunnels',
    ])
      expect(text).not.toContain(member);
  });

  it('pins every entry and nested item to the id of the live object it describes', async () => {
    const doc = document();
    expect(at(doc, 'ip_policies', 'office', 'id')).toBe(ids.office);
    expect(at(doc, 'https_edges', 'web', 'id')).toBe(ids.httpsEdge);
    expect(at(doc, 'tls_certificates', 'api.example.com', 'id')).toBe(ids.cert);
    const rules = (
      await account.client.get<{ ip_policy_rules: Array<{ id: string; cidr: string }> }>('/ip_policy_rules')
    ).body.ip_policy_rules;
    const ruleIds = (at(doc, 'ip_policies', 'office', 'rules') as Array<{ id: string }>).map((r) => r.id);
    expect(ruleIds).toEqual(
      ['10.0.0.0/8', '192.168.1.0/24'].map((cidr) => rules.find((r) => r.cidr === cidr)?.id),
    );
  });

  it('writes user metadata without the ownership marker, and leaves out other scopes', () => {
    const doc = document();
    expect(at(doc, 'ip_policies', 'office', 'metadata')).toBe('plain text note');
    // Already managed by this scope: keeps the name its marker records.
    expect(at(doc, 'ip_policies', 'partners', 'metadata')).toBe('{"owner":"sales"}');
    expect(keysAt(doc, 'ip_policies')).toEqual(['office', 'partners']);
    expect(exp.otherScopes).toEqual([{ id: ids.otherScopePolicy, scope: 'other-team' }]);
    expect(renderExport(exp, false, schemaRef)[0]?.text).not.toContain('acctsync"');
  });

  it('leaves secrets as {env} placeholders with a comment naming the variable, never the values', () => {
    const text = renderExport(exp, false, schemaRef)[0]?.text ?? '';
    const variables = Object.keys(secretsEnv());
    expect(exp.placeholders.map((p) => p.variable).sort()).toEqual([...variables].sort());
    for (const v of variables) expect(text).toContain(`{ env: ${v} } # secret: set ${v}`);
    for (const secret of ['oidc-secret', 'oauth-secret', 'cloud-secret', 'monitoring-secret', 'PRIVATE KEY'])
      expect(text).not.toContain(secret);
    // The managed OAuth application (provider_a) has no secret to set.
    expect(at(document(), 'https_edges', 'web', 'routes', 2, 'oauth', 'provider', 'provider_a')).toEqual({
      teams: ['acme/ops'],
    });
  });

  it('is deterministic', async () => {
    const again = await exportAccount({ client: account.client, scope: 'default' });
    expect(renderExport(again, true, schemaRef)).toEqual(renderExport(exp, true, schemaRef));
  });

  it('exports only the selected maps, with references to the rest as ids', async () => {
    const only = await exportAccount({ client: account.client, scope: 'default', maps: ['tls_edges'] });
    const doc: unknown = parse(renderExport(only, false, schemaRef)[0]?.text ?? '');
    expect(keysAt(doc)).toEqual(['version', 'scope', 'tls_edges']);
    expect(at(doc, 'tls_edges', 'tls.example.com-443', 'backend', 'backend')).toBe(ids.tunnelGroup);
    expect(at(doc, 'tls_edges', 'tls.example.com-443', 'mutual_tls', 'certificate_authorities')).toEqual([
      ids.ca,
    ]);
  });

  it('validates with the loader, split into files by kind', async () => {
    const out = join(dir, 'validate');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(out);
    for (const f of renderExport(exp, true, schemaRef)) await writeFile(join(out, f.name), f.text);
    expect((await readdir(out)).sort()).toContain('acctsync.yaml');
    const loaded = await loadDesiredState([out], { env: secretsEnv(), cwd: dir });
    expect(loaded.ok ? [] : loaded.diagnostics).toEqual([]);
  });
});

describe('round trip: export, then sync --adopt', () => {
  /** Every operation of a plan as one line, for readable failures. */
  const lines = (plan: Plan): string[] =>
    plan.operations.map((op) => `${op.action} ${op.key} ${JSON.stringify(op.changes)}`);

  it('plans only adoption markers for every exported object, then nothing once synced', async () => {
    const out = join(dir, 'roundtrip');
    const exported = await runCliAgainst(['export', '--out', out], account);
    expect(exported.stderr).toContain('exported');
    expect(exported.code).toBe(0);
    const env = secretsEnv();
    const dry = await computePlan({ paths: [out], client: account.client, env, adopt: true });
    expect(dry.plan.operations.length).toBeGreaterThan(20);
    expect(lines(dry.plan).filter((line) => !line.startsWith('adopt ') || !line.endsWith(' []'))).toEqual([]);

    const synced = await runCliAgainst(['sync', out, '--adopt'], account, { env });
    expect(synced.code, synced.stderr).toBe(0);
    const after = await computePlan({ paths: [out], client: account.client, env });
    expect(lines(after.plan)).toEqual([]);

    // A re-export of the adopted account keeps every name: they now come from the markers.
    const before = await readDir(out);
    const reexported = await runCliAgainst(['export', '--out', out], account);
    expect(reexported.code, reexported.stderr).toBe(0);
    expect(await readDir(out)).toEqual(before);
  }, 120_000);
});

describe('acctsync export (CLI)', () => {
  it('writes to stdout without --out and to a single file with a .yaml --out', async () => {
    const stdout = await runCliAgainst(['export', '--kind', 'ip_policies'], account);
    expect(stdout.code).toBe(0);
    expect(keysAt(parse(stdout.stdout), 'ip_policies')).toContain('office');
    const file = join(dir, 'one.yaml');
    const single = await runCliAgainst(
      ['export', '--out', file, '--kind', 'backends', '--kind', 'tls_edges'],
      account,
    );
    expect(single.code).toBe(0);
    const written = await readFile(file, 'utf8');
    // The schema line points at the installed package's schema, relative to the file.
    const schemaLine = /^# yaml-language-server: \$schema=(.+)\n/.exec(written);
    expect(schemaLine?.[1]).toBeDefined();
    expect(JSON.parse(await readFile(join(dir, schemaLine?.[1] ?? ''), 'utf8'))).toMatchObject({
      title: 'acctsync desired state',
    });
    expect(keysAt(parse(written))).toEqual(['version', 'scope', 'backends', 'tls_edges']);
  });

  it('refuses an unknown kind, naming the valid ones', async () => {
    const result = await runCliAgainst(['export', '--kind', 'ip_policy'], account);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: unknown kind ip_policy');
    expect(result.stderr).toContain('ip_policies');
  });

  it('removes the file of a kind that became empty on a re-export into the same directory', async () => {
    const out = join(dir, 'stale');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(out);
    // As an earlier export wrote it: an export replaces or removes only its own files.
    await writeFile(
      join(out, 'reserved_addrs.yaml'),
      '# Exported by acctsync export. Take it over with: acctsync sync --adopt\nversion: 1\nreserved_addrs: {}\n',
    );
    await using empty = await startAccount();
    const result = await runCliAgainst(['export', '--out', out], empty);
    expect(result.code).toBe(0);
    expect((await readdir(out)).sort()).toEqual(['acctsync.yaml', 'api_keys.yaml']);
  });
});
