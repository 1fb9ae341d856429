/**
 * The smaller things a team met in its first weeks (issue 47), each through the spawned CLI:
 * `validate .` at a repository root, an editor schema line that a move broke, an `ignore:` path
 * below a plain field, an adoption by description, and an export beside hand-written files.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startCliAccount } from '../safety/support.js';

it('validate . at the repository root leaves policies/ out of the config', async () => {
  await using account = await startCliAccount();
  await account.write(
    'account/network.yaml',
    'version: 1\nscope: team\nip_policies:\n  office: { description: Office }\n',
  );
  await account.write(
    'policies/rules.yaml',
    'version: 1\nrules:\n  - name: described\n    on: object\n    expression: has(object.description)\n    message: describe it\n',
  );
  const run = await account.acctsync(['validate', '.', '--policy', 'policies']);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toBe('valid: 1 object in 1 file\n');
});

it('a $schema line a move broke is named, with the path that works from the file', async () => {
  await using account = await startCliAccount();
  await mkdir(join(account.dir, 'node_modules/acctsync/schemas'), { recursive: true });
  await writeFile(join(account.dir, 'node_modules/acctsync/schemas/acctsync.schema.json'), '{}');
  await account.write(
    'config/base/network.yaml',
    '# yaml-language-server: $schema=../node_modules/acctsync/schemas/acctsync.schema.json\nversion: 1\nscope: team\n',
  );
  const run = await account.acctsync(['validate', 'config']);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toContain(
    'config/base/network.yaml:1:1: warning: the $schema path ../node_modules/acctsync/schemas/acctsync.schema.json leads to no file from here',
  );
  expect(run.stderr).toContain(
    'hint: write $schema=../../node_modules/acctsync/schemas/acctsync.schema.json',
  );
});

it('ignore: below a field that holds no fields says to ignore the field whole', async () => {
  await using account = await startCliAccount();
  await account.write(
    'account/a.yaml',
    'version: 1\nscope: team\nip_policies:\n  office:\n    description: Office\n    ignore: [description.foo]\n',
  );
  const run = await account.acctsync(['validate', 'account']);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('error: IP policy has no field description.foo');
  expect(run.stderr).toContain(
    'hint: description holds no fields of its own: write ignore: [description] to leave it whole to others',
  );
});

it('an adoption by description says so, in text and JSON', async () => {
  await using account = await startCliAccount();
  await account.client.post('/ip_policies', { description: 'Office networks' });
  await account.write(
    'account/a.yaml',
    'version: 1\nscope: team\nip_policies:\n  office: { description: Office networks }\n',
  );
  const text = await account.acctsync(['plan', 'account', '--adopt']);
  expect(text.code, text.stderr).toBe(0);
  expect(text.stdout).toContain('(unmanaged object with the same description)');
  expect(text.stdout).not.toContain('natural key');
  const json = await account.acctsync(['plan', 'account', '--adopt', '--output', 'json']);
  const plan = JSON.parse(json.stdout) as { operations: Array<{ reason_code: string }> };
  expect(plan.operations.map((o) => o.reason_code)).toEqual(['adopt_by_description']);
});

it('export beside a hand-written config refuses, naming the file; --force replaces it; the config scope is kept', async () => {
  await using account = await startCliAccount();
  await account.client.post('/ip_policies', { description: 'Office networks' });
  const handWritten = 'version: 1\nscope: acme\nmoved:\n  - { from: ip_policies/a, to: ip_policies/b }\n';
  await account.write('account/acctsync.yaml', handWritten);
  const writes = account.writes();

  const refused = await account.acctsync(['export', '--out', 'account/']);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(
    `error: export: refusing to overwrite ${join('account', 'acctsync.yaml')}: not written by acctsync export`,
  );
  expect(await readFile(join(account.dir, 'account/acctsync.yaml'), 'utf8')).toBe(handWritten);
  expect(account.writes()).toBe(writes);

  const elsewhere = await account.acctsync(['export', 'account', '--out', 'exported/']);
  expect(elsewhere.code, elsewhere.stderr).toBe(0);
  expect(elsewhere.stderr).toMatch(/^acctsync: exported 2 objects to exported\/$/m);
  expect(await readFile(join(account.dir, 'exported/acctsync.yaml'), 'utf8')).toContain('scope: acme');
  // A second export into its own files replaces them without --force.
  const again = await account.acctsync(['export', 'account', '--out', 'exported']);
  expect(again.code, again.stderr).toBe(0);

  const forced = await account.acctsync(['export', '--out', 'account/', '--force']);
  expect(forced.code, forced.stderr).toBe(0);
  const replaced = await readFile(join(account.dir, 'account/acctsync.yaml'), 'utf8');
  expect(replaced).toContain('Exported by acctsync export');
  expect(replaced).toContain('scope: acme');
});
