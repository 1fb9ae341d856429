/**
 * A key revoked under a running client (a Secret rotated, the old key deleted before the file was
 * read again): after the 401 the client reads `--api-key-file` once more and, finding a new key,
 * sends the request again with it. Against the emulator over real HTTP.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/index.js';
import { ApiKeyFile, type KeyRotationCause } from '../../src/cli/api-key-file.js';
import { startAccount } from '../support/account.js';
import { testClient } from '../support/client.js';

describe('a client whose key comes from a file', () => {
  it('after a 401 reads the file again and retries with the new key, once', async () => {
    await using account = await startAccount();
    const dir = await mkdtemp(join(tmpdir(), 'acctsync-key-'));
    try {
      const file = join(dir, 'api-key');
      await writeFile(file, `${account.token}\n`);
      const rotations: KeyRotationCause[] = [];
      const source = await ApiKeyFile.open(file, (cause) => rotations.push(cause));
      const client = testClient(account, { keySource: source });
      try {
        expect((await client.get('/ip_policies')).status).toBe(200);

        const created = await account.client.post<{ id: string; token: string }>('/api_keys', {
          description: 'next',
        });
        const keys = await account.client.listAll<{ id: string; description: string }>('/api_keys', 'keys');
        const old = keys.find((k) => k.description === 'bootstrap key')!;
        await writeFile(file, `${created.body.token}\n`);
        await account.client.delete(`/api_keys/${old.id}`);

        expect((await client.get('/ip_policies')).status).toBe(200);
        expect(rotations).toEqual(['unauthorized']);

        // The new key revoked too, and the file holding one never issued: the 401 stands after one more read.
        await client.delete(`/api_keys/${created.body.id}`);
        await writeFile(file, 'a-key-the-service-never-issued\n');
        const refused = await client.get('/ip_policies').catch((err: unknown) => err);
        expect(refused).toBeInstanceOf(ApiError);
        expect((refused as ApiError).status).toBe(401);
        expect(String((refused as ApiError).message)).not.toContain('a-key-the-service-never-issued');
        expect(rotations).toEqual(['unauthorized', 'unauthorized']);
      } finally {
        await client.close();
        source.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
