/**
 * `id:` pins and the look-alike refusal, as a user meets them: `acctsync plan` and `sync` on a YAML
 * file against an account holding unmanaged objects.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliAgainst } from '../support/cli.js';
import { useAccount } from '../support/use-account.js';
import { planAccount } from './helpers.js';

const h = useAccount(planAccount);
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'acctsync-pins-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function config(body: string): Promise<string> {
  const path = join(dir, 'acctsync.yaml');
  await writeFile(path, `version: 1\n${body}`);
  return path;
}

async function post(path: string, body: unknown): Promise<string> {
  return (await h.client.post<{ id: string }>(path, body)).body.id;
}

async function count(path: string, member: string): Promise<number> {
  return (await h.client.listAll(path, member)).length;
}

describe('id: pins', () => {
  it('adopts exactly the pinned object among objects with the same description', async () => {
    await post('/reserved_addrs', { description: 'bastion', region: 'eu' });
    const pinned = await post('/reserved_addrs', { description: 'bastion', region: 'eu' });
    const path = await config(
      `reserved_addrs:\n  bastion:\n    id: ${pinned}\n    description: bastion\n    region: eu\n`,
    );
    const synced = await runCliAgainst(['sync', path, '--adopt'], h.emulator);
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stdout).toContain('adopt');
    const record = (await h.client.get<{ metadata: string }>(`/reserved_addrs/${pinned}`)).body;
    expect(record.metadata).toContain('reserved_addrs/bastion');
    expect(await count('/reserved_addrs', 'reserved_addrs')).toBe(2);
    const next = await runCliAgainst(['plan', path, '--detailed-exitcode'], h.emulator);
    expect(next.code, next.stdout).toBe(0);
  });

  it('refuses a pinned id that does not exist, naming it, and changes nothing', async () => {
    const path = await config('ip_policies:\n  office:\n    id: ipp_doesnotexist\n    description: Office\n');
    const synced = await runCliAgainst(['sync', path, '--adopt'], h.emulator);
    expect(synced.code).toBe(1);
    expect(synced.stderr).toContain('ip_policies/office: no IP policy with id ipp_doesnotexist exists');
    expect(synced.stderr).not.toMatch(/\n\s+at /);
    expect(await count('/ip_policies', 'ip_policies')).toBe(0);
  });

  it('refuses to take over a pinned unmanaged object without --adopt', async () => {
    const id = await post('/ip_policies', { description: 'Office' });
    const path = await config(`ip_policies:\n  office:\n    id: ${id}\n    description: Office\n`);
    const planned = await runCliAgainst(['plan', path], h.emulator);
    expect(planned.code).toBe(1);
    expect(planned.stderr).toContain(`${id} is not managed yet: run with --adopt`);
  });
});

describe('--adopt and look-alikes', () => {
  it('refuses a create beside an unmanaged look-alike, listing it, until pinned or id: new', async () => {
    const a = await post('/backends/http_response', { body: 'down', status_code: 503 });
    const b = await post('/backends/http_response', { body: 'down', status_code: 503 });
    const body = (pin: string) =>
      `backends:\n  maintenance:\n${pin}    http_response:\n      body: down\n      status_code: 503\n`;

    const refused = await runCliAgainst(['sync', await config(body('')), '--adopt'], h.emulator);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('backends/maintenance: unmanaged HTTP response backends look like it');
    expect(refused.stderr).toContain(`${a} (same content)`);
    expect(refused.stderr).toContain(`${b} (same content)`);
    expect(await count('/backends/http_response', 'backends')).toBe(2);

    const created = await runCliAgainst(['sync', await config(body('    id: new\n')), '--adopt'], h.emulator);
    expect(created.code, created.stderr).toBe(0);
    expect(await count('/backends/http_response', 'backends')).toBe(3);
  });

  it('never creates an API key in an adoption run unless asked for with id: new', async () => {
    const path = await config('api_keys:\n  deploy:\n    description: deploy\n');
    const keys = await count('/api_keys', 'keys'); // the emulator's own key
    const refused = await runCliAgainst(['sync', path, '--adopt'], h.emulator);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('api_keys/deploy: a new API key would be created');
    expect(await count('/api_keys', 'keys')).toBe(keys);

    const plain = await runCliAgainst(['sync', path], h.emulator);
    expect(plain.code, plain.stderr).toBe(0);
    expect(await count('/api_keys', 'keys')).toBe(keys + 1);
  });
});
