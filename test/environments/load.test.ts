/**
 * Loading one environment of a config that declares several: what the base is, how overlays
 * patch, drop and add, where diagnostics point, and that a config without environments loads as
 * it always did.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadDesiredState, type Diagnostic, type LoadResult } from '../../src/config/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'acctsync-envs-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(file: string, text: string): void {
  mkdirSync(join(dir, file, '..'), { recursive: true });
  writeFileSync(join(dir, file), text);
}

const root = `version: 1
scope: web
environments:
  staging:
    paths: [staging]
    api_url_env: STAGING_SVC_API_URL
    api_key_env: STAGING_SVC_API_KEY
    values: { office: 10.1.0.0/16 }
  production:
    paths: [production]
    scope: web-prod
    values: { office: 10.0.0.0/8, banner: Production }
values:
  banner: Welcome
`;

const base = `version: 1
ip_policies:
  office:
    description: Office networks
    rules:
      - { cidr: { var: office }, action: allow, description: HQ }
  guest:
    description: Guests
backends:
  banner:
    http_response:
      status_code: 200
      body: { var: banner }
      headers: { x-env: base }
`;

function load(environment?: string): Promise<LoadResult> {
  return loadDesiredState(['.'], {
    cwd: dir,
    env: {},
    ...(environment === undefined ? {} : { environment }),
  });
}

async function objects(environment: string): Promise<Record<string, Record<string, unknown>>> {
  const result = await load(environment);
  if (!result.ok)
    throw new Error(result.diagnostics.map((d) => `${d.file}:${d.line} ${d.message}`).join('\n'));
  return Object.fromEntries(result.state.objects.map((o) => [o.key, o.fields]));
}

async function problems(environment?: string): Promise<Diagnostic[]> {
  const result = await load(environment);
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.diagnostics;
}

describe('environments', () => {
  beforeEach(() => {
    write('acctsync.yaml', root);
    write('base/network.yaml', base);
    mkdirSync(join(dir, 'staging'));
    mkdirSync(join(dir, 'production'));
  });

  it('each environment is the base plus its overlays, with its own values, scope and account variables', async () => {
    write('production/network.yaml', 'version: 1\nip_policies:\n  blocklist: { description: Bad actors }\n');
    write('staging/empty.yaml', 'version: 1\n');
    const staging = await load('staging');
    const production = await load('production');
    if (!staging.ok || !production.ok) throw new Error('both load');
    expect(staging.state.scope).toBe('web');
    expect(production.state.scope).toBe('web-prod');
    expect(staging.environment).toEqual({
      name: 'staging',
      apiUrlEnv: 'STAGING_SVC_API_URL',
      apiKeyEnv: 'STAGING_SVC_API_KEY',
    });
    expect(production.environment).toEqual({
      name: 'production',
      scope: 'web-prod',
      apiUrlEnv: 'SVC_API_URL',
      apiKeyEnv: 'SVC_API_KEY',
    });
    expect(staging.environments).toEqual(['staging', 'production']);
    const keys = (r: typeof staging) => r.state.objects.map((o) => o.key).sort();
    expect(keys(staging)).toEqual([
      'backends/banner',
      'ip_policies/guest',
      'ip_policies/office',
      'ip_policies/office/rules/10.1.0.0/16',
    ]);
    expect(keys(production)).toContain('ip_policies/blocklist');
    expect(keys(production)).toContain('ip_policies/office/rules/10.0.0.0/8');
    expect(keys(staging)).not.toContain('ip_policies/blocklist');
  });

  it('{var} takes the environment value over the default', async () => {
    expect((await objects('staging'))['backends/banner']!.body).toBe('Welcome');
    expect((await objects('production'))['backends/banner']!.body).toBe('Production');
  });

  it('patch merges maps, replaces lists, and null removes', async () => {
    write(
      'production/network.yaml',
      `version: 1
patch:
  ip_policies:
    office:
      description: Office networks (production)
      rules:
        - { cidr: 192.0.2.0/24, action: allow }
  backends:
    banner:
      http_response:
        headers: { x-env: production, x-extra: "1" }
        body: null
`,
    );
    const o = await objects('production');
    expect(o['ip_policies/office']!.description).toBe('Office networks (production)');
    expect(Object.keys(o).filter((k) => k.startsWith('ip_policies/office/rules/'))).toEqual([
      'ip_policies/office/rules/192.0.2.0/24',
    ]);
    expect(o['backends/banner']!.headers).toEqual({ 'x-env': 'production', 'x-extra': '1' });
    expect(o['backends/banner']).not.toHaveProperty('body');
    expect(o['backends/banner']!.status_code).toBe(200);
  });

  it('drop removes a base object, its children with it, in that environment only', async () => {
    write('staging/network.yaml', 'version: 1\ndrop:\n  ip_policies: [guest, office]\n');
    const staging = await objects('staging');
    expect(Object.keys(staging).filter((k) => k.startsWith('ip_policies/'))).toEqual([]);
    expect(Object.keys(await objects('production'))).toContain('ip_policies/guest');
  });

  it('an overlay that defines a base name without patch: is an error, as any duplicate', async () => {
    write('staging/network.yaml', 'version: 1\nip_policies:\n  guest: { description: Other }\n');
    const [d] = await problems('staging');
    expect(d).toMatchObject({ file: 'staging/network.yaml', line: 3 });
    expect(d!.message).toContain('defined twice');
    expect(d!.message).toContain('base/network.yaml:7');
  });

  it('a patch of an object the base does not define points at the overlay and at the nearest base object', async () => {
    write(
      'production/network.yaml',
      'version: 1\npatch:\n  ip_policies:\n    ofice:\n      description: x\n',
    );
    const [d] = await problems('production');
    expect(d).toMatchObject({
      file: 'production/network.yaml',
      line: 4,
      message: 'this overlay patches ip_policies/ofice, which the base does not define',
      hint: 'did you mean ip_policies/office (base/network.yaml:3)?',
    });
  });

  it('two files of one environment patching one value is an error naming both', async () => {
    write('production/a.yaml', 'version: 1\npatch:\n  ip_policies:\n    office:\n      description: A\n');
    write('production/b.yaml', 'version: 1\npatch:\n  ip_policies:\n    office:\n      description: B\n');
    const found = await problems('production');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ file: 'production/b.yaml', line: 5 });
    expect(found[0]!.message).toBe(
      'this value is also patched at production/a.yaml:5, in another file of the same environment',
    );
  });

  it('a value undefined in one environment is an error in that environment, at the {var}', async () => {
    write('base/more.yaml', 'version: 1\nip_policies:\n  lab:\n    description: { var: lab_name }\n');
    write(
      'acctsync.yaml',
      root.replace('values: { office: 10.1.0.0/16 }', 'values: { office: 10.1.0.0/16, lab_name: Lab }'),
    );
    expect((await objects('staging'))['ip_policies/lab']!.description).toBe('Lab');
    const [d] = await problems('production');
    expect(d).toMatchObject({
      file: 'base/more.yaml',
      line: 4,
      message: 'no value named lab_name in environment production',
    });
  });

  it('a bad value from an environment is reported where that value is defined', async () => {
    write('acctsync.yaml', root.replace('office: 10.0.0.0/8', 'office: 10.0.0.0/80'));
    const [d] = await problems('production');
    expect(d).toMatchObject({
      file: 'acctsync.yaml',
      line: 12,
      path: 'environments.production.values.office',
    });
  });

  it('a diagnostic about a patched value points at the overlay', async () => {
    write(
      'production/network.yaml',
      `version: 1\npatch:\n  ip_policies:\n    guest:\n      description: ${'é'.repeat(200)}\n`,
    );
    const [d] = await problems('production');
    expect(d).toMatchObject({
      file: 'production/network.yaml',
      line: 5,
      path: 'patch.ip_policies.guest.description',
    });
    expect(d!.message).toContain('255');
  });

  it('an overlay file not given that does not parse is reported at its line, once', async () => {
    write('staging/broken.yaml', 'version: 1\npatch:\n  ip_policies:\n\tguest: { description: x }\n');
    // The overlay is read because the environment names it, not because it was given.
    const result = await loadDesiredState(['acctsync.yaml', 'base'], {
      cwd: dir,
      env: {},
      environment: 'staging',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.diagnostics).toEqual([
      {
        severity: 'error',
        file: 'staging/broken.yaml',
        line: 4,
        column: 1,
        path: '',
        message: 'a tab is used for indentation; YAML allows only spaces',
        hint: 'indent with spaces',
      },
    ]);
  });

  it('names the environments when none is chosen, and refuses an unknown one', async () => {
    const result = await load();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.needsEnvironment).toBe(true);
    expect(result.diagnostics[0]!.message).toBe(
      'this config declares environments (staging, production): name one',
    );
    const [d] = await problems('prod');
    expect(d!.message).toBe('no environment named prod');
    expect(d!.hint).toBe('the environments are staging, production');
  });

  it('patch: and drop: in a base file are errors', async () => {
    write('base/extra.yaml', 'version: 1\ndrop:\n  ip_policies: [guest]\n');
    const [d] = await problems('staging');
    expect(d).toMatchObject({ file: 'base/extra.yaml', line: 2 });
    expect(d!.message).toContain("drop: belongs in an environment's overlay file");
  });

  it('environments extend each other: the parent overlays apply first', async () => {
    write(
      'acctsync.yaml',
      root.replace('    paths: [production]\n', '    paths: [production]\n    extends: staging\n'),
    );
    write('staging/network.yaml', 'version: 1\nip_policies:\n  staging-only: { description: S }\n');
    write(
      'production/network.yaml',
      'version: 1\npatch:\n  ip_policies:\n    staging-only: { description: P }\n',
    );
    expect((await objects('production'))['ip_policies/staging-only']!.description).toBe('P');
    expect((await objects('staging'))['ip_policies/staging-only']!.description).toBe('S');
  });
});

describe('a config without environments', () => {
  it('loads as before; --env is refused; values: still serve {var}', async () => {
    write(
      'account.yaml',
      'version: 1\nvalues: { name: Office }\nip_policies:\n  office: { description: { var: name } }\n',
    );
    const result = await load();
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.environments).toEqual([]);
    expect(result.state.objects[0]!.fields.description).toBe('Office');
    const [d] = await problems('staging');
    expect(d!.message).toBe('no environment named staging: this config declares no environments');
  });
});
