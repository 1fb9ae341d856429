/**
 * acctsync against a service that answers as the vendor's published examples do, not as an echo
 * (docs/emulator.md, "How it answers"), through the spawned CLI: the shipped example account plus
 * a legacy-region domain, an inline PEM without its trailing newline and an undescribed policy
 * converge in one sync and stay converged; a SAML module's default is sent and shown; a member the
 * service does not keep fails the sync that wrote it.
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { examplesDir, runCli, startServe } from '../support/cli.js';
import { startAccount, type TestAccount } from '../support/account.js';

const pki = new URL('../fixtures/pki/', import.meta.url).pathname;

let account: TestAccount | undefined;
afterEach(async () => {
  await account?.close();
  account = undefined;
});

/** The shipped examples in a directory of their own, plus `extra` as one more file of the account. */
async function exampleAccount(extra: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-vendor-'));
  await cp(examplesDir, dir, { recursive: true });
  await writeFile(join(dir, 'account', 'legacy.yaml'), extra);
  return join(dir, 'account');
}

/** The CLI on `dir`'s account, which reads files from the copy's root (`../pki`, `../secrets`). */
const cli = (args: readonly string[], dir: string) =>
  runCli(args, {
    cwd: dir,
    env: { ...account!.env, ACCTSYNC_FILES_ROOT: join(dir, '..') },
    timeoutMs: 120_000,
  });

/** Writes the emulator answered, by method and route pattern. */
function writes(a: TestAccount, match: (method: string, route: string) => boolean = () => true): number {
  return a.answered(
    (r) => r.method !== 'GET' && !r.route.startsWith('/_emulator') && match(r.method, r.route),
  );
}

describe('against the service as the vendor examples answer', () => {
  it('the example account with a legacy region, an inline PEM and an undescribed policy converges in one sync', async () => {
    account = await startAccount();
    const leaf = (await readFile(join(pki, 'leaf-ecdsa.crt'), 'utf8')).trimEnd();
    const key = await readFile(join(pki, 'leaf-ecdsa.key'), 'utf8');
    const dir = await exampleAccount(
      [
        'version: 1',
        'scope: example',
        'reserved_domains:',
        '  legacy:',
        '    domain: legacy.example.com',
        '    region: us',
        'tls_certificates:',
        '  inline-cert:',
        `    certificate_pem: ${JSON.stringify(leaf)}`,
        '    private_key_pem: { file: inline.key }',
        'ip_policies:',
        '  undescribed: {}',
        '',
      ].join('\n'),
    );
    await writeFile(join(dir, 'inline.key'), key);
    expect(leaf.endsWith('\n')).toBe(false);

    // validate says the region is ignored, and still accepts the config.
    const validated = await cli(['validate', dir], dir);
    expect(validated.code, validated.stderr).toBe(0);
    expect(validated.stderr + validated.stdout).toMatch(/region.*ignored/);

    const first = await cli(['sync', dir, '--output', 'json'], dir);
    expect(first.code, first.stderr).toBe(0);
    const reservedBefore = writes(account, (m, r) => m === 'POST' && r === '/reserved_domains');

    const plan = await cli(['plan', dir, '--detailed-exitcode'], dir);
    expect(plan.stdout).toMatch(/No changes/);
    expect(plan.code, plan.stdout).toBe(0);

    const before = writes(account, (_, r) => !r.startsWith('/ssh_credentials'));
    const second = await cli(['sync', dir, '--output', 'json'], dir);
    expect(second.code, second.stderr).toBe(0);
    const result = JSON.parse(second.stdout) as { operations: unknown[]; counts: { done: number } };
    expect(result.operations).toEqual([]);
    expect(result.counts.done).toBe(0);
    // Only the scope's lease (an SSH credential: docs/lease.md) is written, taken and handed back.
    expect(writes(account, (_, r) => !r.startsWith('/ssh_credentials'))).toBe(before);
    // No domain was ever released: no DELETE of a reserved domain, no second reservation.
    expect(writes(account, (m, r) => m === 'DELETE' && r.startsWith('/reserved_domains'))).toBe(0);
    expect(writes(account, (m, r) => m === 'POST' && r === '/reserved_domains')).toBe(reservedBefore);
  }, 240_000);
});

/** A directory holding one config file. */
async function configDir(yaml: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-vendor-'));
  await writeFile(join(dir, 'account.yaml'), yaml);
  return dir;
}

async function get(a: TestAccount, path: string): Promise<Record<string, unknown>> {
  return (await a.client.get<Record<string, unknown>>(path)).body;
}

describe('send what the reviewer saw', () => {
  it('a SAML module left without allow_idp_initiated is planned, sent and kept with false', async () => {
    account = await startAccount();
    const dir = await configDir(
      [
        'version: 1',
        'scope: saml',
        'https_edges:',
        '  web:',
        "    hostports: ['saml.example.com:443']",
        '    routes:',
        '      - match_type: path_prefix',
        '        match: /',
        '        saml: { authorized_groups: [staff] }',
        '',
      ].join('\n'),
    );
    const dry = await cli(['sync', dir, '--dry-run'], dir);
    expect(dry.code, dry.stderr).toBe(0);
    // The reviewer sees the value the service will hold, though the config leaves it out.
    expect(dry.stdout).toMatch(/allow_idp_initiated: false/);
    const synced = await cli(['sync', dir], dir);
    expect(synced.code, synced.stderr).toBe(0);
    const edges = (await get(account, '/edges/https')).https_edges as { routes: { saml: unknown }[] }[];
    expect(edges[0]?.routes[0]?.saml).toMatchObject({ allow_idp_initiated: false });
    const plan = await cli(['plan', dir, '--detailed-exitcode'], dir);
    expect(plan.code, plan.stdout).toBe(0);
  }, 120_000);
});

describe('verify every write', () => {
  it('a member the service does not keep fails the sync that wrote it, naming object, field and values', async () => {
    account = await startAccount();
    account.emulator.setFaults({ notKept: 'description' });
    const dir = await configDir(
      ['version: 1', 'scope: kept', 'ip_policies:', '  office:', '    description: Office networks', ''].join(
        '\n',
      ),
    );
    const text = await cli(['sync', dir], dir);
    expect(text.code).toBe(1);
    expect(text.stdout + text.stderr).toContain(
      'the service did not keep ip_policies/office description: sent "Office networks", kept ""',
    );
    // The object exists; the next sync plans the change again, writes it, and is told again.
    const json = await cli(['sync', dir, '--output', 'json'], dir);
    expect(json.code).toBe(1);
    const result = JSON.parse(json.stdout) as {
      status: string;
      operations: { action: string; key: string; status: string; failure?: Record<string, unknown> }[];
    };
    expect(result.status).toBe('failed');
    expect(result.operations).toMatchObject([
      {
        action: 'update',
        key: 'ip_policies/office',
        status: 'failed',
        failure: {
          errorCode: 'ERR_ACCTSYNC_NOT_KEPT',
          request: expect.stringMatching(/^PATCH \/ip_policies\/ipp_/) as unknown,
          notKept: { field: 'description', sent: '"Office networks"', kept: '""' },
        },
      },
    ]);
    // With the service keeping it again, one sync converges.
    account.emulator.setFaults({});
    expect((await cli(['sync', dir], dir)).code).toBe(0);
    expect((await cli(['plan', dir, '--detailed-exitcode'], dir)).code).toBe(0);
  }, 120_000);

  it('a value read from the environment is masked in the report', async () => {
    account = await startAccount();
    account.emulator.setFaults({ notKept: 'description' });
    const dir = await configDir(
      [
        'version: 1',
        'scope: kept',
        'ip_policies:',
        '  office:',
        '    description: { env: OFFICE_TEXT }',
        '',
      ].join('\n'),
    );
    const run = await runCli(['sync', dir, '--output', 'json'], {
      cwd: dir,
      env: { ...account.env, OFFICE_TEXT: 'do-not-print-me' },
      timeoutMs: 120_000,
    });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).not.toContain('do-not-print-me');
    expect(run.stdout).toContain('"sent": "(sensitive)"');
  }, 120_000);
});

describe('acctsync serve --echo', () => {
  it('answers what was written, as written; without it, as the vendor examples show', async () => {
    const caPem = (await readFile(join(pki, 'ca.crt'), 'utf8')).trimEnd();
    // Serial 0x0f: the vendor's examples keep the leading zero of its byte.
    const leafPem = await readFile(join(pki, 'leaf-ecdsa.crt'), 'utf8');
    const leafKey = await readFile(join(pki, 'leaf-ecdsa.key'), 'utf8');
    const answers = async (args: readonly string[]) => {
      const serve = await startServe(['--token', 'echo-token', ...args], tmpdir());
      const post = async (path: string, body: unknown) => {
        const response = await fetch(`${serve.url}${path}`, {
          method: 'POST',
          headers: {
            authorization: 'Bearer echo-token',
            'content-type': 'application/json',
            'svc-version': '2',
          },
          body: JSON.stringify(body),
        });
        expect(response.status, path).toBe(201);
        return (await response.json()) as Record<string, unknown>;
      };
      try {
        return {
          ca: await post('/certificate_authorities', { ca_pem: caPem, description: '' }),
          cert: await post('/tls_certificates', { certificate_pem: leafPem, private_key_pem: leafKey }),
          domain: await post('/reserved_domains', { domain: 'legacy.example.com', region: 'us' }),
          edge: await post('/edges/https', {
            hostports: ['echo.example.com:443'],
            tls_termination: { min_version: '1.2' },
          }),
        };
      } finally {
        await serve.stop('SIGTERM');
      }
    };
    const echoed = await answers(['--echo']);
    expect(echoed.ca.ca_pem).toBe(caPem);
    expect(echoed.ca.description).toBe('');
    expect(echoed.cert.serial_number).toBe('f');
    expect(echoed.domain.region).toBe('us');
    const vendor = await answers([]);
    expect(vendor.ca.ca_pem).toBe(`${caPem}\n`);
    expect(vendor.ca).not.toHaveProperty('description');
    expect(vendor.cert.serial_number).toBe('0f');
    expect(vendor.domain.region).toBe('');
    expect(vendor.edge.tls_termination).toMatchObject({ terminate_at: 'edge', min_version: '1.2' });
  }, 120_000);
});
