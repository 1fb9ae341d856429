/** A plan that deletes an API key warns that it may be the key acctsync runs with and runs it last. */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startCliAccount, type CliAccount } from './support.js';

const config = (withKey: boolean) => `version: 1
scope: keys
${withKey ? 'api_keys:\n  deploy:\n    description: deploy key\n' : ''}ip_policies:
${withKey ? '  old:\n    description: old\n' : ''}  new:
    description: new
`;

let account: CliAccount;
beforeEach(async () => {
  account = await startCliAccount();
  await account.write('account/a.yaml', config(true));
  const synced = await account.acctsync(['sync']);
  expect(synced.code, synced.stderr).toBe(0);
});
afterEach(async () => {
  await account.close();
});

it('warns about deleting an API key and orders that delete after everything else', async () => {
  await account.write('account/a.yaml', config(false));
  const run = await account.acctsync(['plan', '--output', 'json']);
  expect(run.code, run.stderr).toBe(0);
  const plan = JSON.parse(run.stdout) as {
    notes: string[];
    operations: { id: string; dependsOn: string[] }[];
  };
  expect(plan.notes).toContain(
    'deletes or replaces API key api_keys/deploy: if acctsync runs with it, every request after the delete fails with 401; it is deleted last',
  );
  const last = plan.operations.at(-1);
  expect(last?.id).toMatch(/^delete api_keys\/deploy#ak_\w+$/);
  expect(last?.dependsOn).toContainEqual(expect.stringMatching(/^delete ip_policies\/old#/));
});
