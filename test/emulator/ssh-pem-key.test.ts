/**
 * An SSH key in PEM and the same key as an OpenSSH line are one object: the emulator refuses the
 * second form as a duplicate, and acctsync plans no change when the config switches forms.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliAgainst } from '../support/cli.js';
import { pki } from '../resources/formats/pki-fixtures.js';
import { rsaPkcs1, rsaSpki } from '../resources/formats/ssh-pem-fixtures.js';
import { useEmulator } from './harness.js';

const h = useEmulator();

const opensshLine = pki('ssh-rsa.pub');

function writeConfig(dir: string, keyFile: string): void {
  writeFileSync(
    join(dir, 'ssh.yaml'),
    [
      'version: 1',
      'scope: ssh',
      'ssh_credentials:',
      '  laptop:',
      `    public_key: { file: ${keyFile} }`,
      '',
    ].join('\n'),
  );
}

describe('SSH public keys in PEM', () => {
  it('are the same object as their OpenSSH line, to the emulator and to the planner', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acctsync-ssh-'));
    writeFileSync(join(dir, 'key.pub'), opensshLine);
    writeFileSync(join(dir, 'key-pkcs8.pem'), rsaSpki);
    writeFileSync(join(dir, 'key-pkcs1.pem'), rsaPkcs1);

    writeConfig(dir, 'key-pkcs8.pem');
    const synced = await runCliAgainst(['sync', dir], h.emulator);
    expect(synced.code).toBe(0);
    const duplicate = await h.call('POST', '/ssh_credentials', { public_key: opensshLine });
    expect(duplicate.status).toBe(409);

    for (const file of ['key.pub', 'key-pkcs1.pem', 'key-pkcs8.pem']) {
      writeConfig(dir, file);
      const planned = await runCliAgainst(['plan', dir, '--output', 'json'], h.emulator);
      expect(planned.stderr).toBe('');
      expect((JSON.parse(planned.stdout) as { operations: unknown[] }).operations).toEqual([]);
    }
  });
});
