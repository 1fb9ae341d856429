/**
 * Fields owned elsewhere (docs/config.md "Fields owned elsewhere"): `ignore:` paths are sent on
 * create and never compared or written afterwards; `validate` refuses a path the kind does not
 * have. Met as a user meets it: the built CLI against the emulator over HTTP.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startCliAccount, type CliAccount } from '../safety/support.js';

const config = (description: string, acl: string, ignore = '[acl]') => `version: 1
scope: ignore
credentials:
  agent:
    description: ${description}
    acl: [${acl}]
    ignore: ${ignore}
`;

let account: CliAccount;
beforeEach(async () => {
  account = await startCliAccount();
});
afterEach(async () => {
  await account.close();
});

interface Credential {
  readonly id: string;
  readonly acl: string[];
  readonly description: string;
}
const credential = async (): Promise<Credential> => {
  const [only] = await account.client.listAll<Credential>('/credentials', 'credentials');
  return only ?? ({} as Credential);
};

it('sends an ignored field on create, then neither reverts a change made elsewhere nor writes its own', async () => {
  await account.write('account/main.yaml', config('agent', 'bind:app=web'));
  const created = await account.acctsync(['sync', '--yes']);
  expect(created.code, created.stderr).toBe(0);
  const { id, acl } = await credential();
  expect(acl).toEqual(['bind:app=web']);

  // The security team edits the ACL in the dashboard.
  await account.client.patch(`/credentials/${id}`, { acl: ['bind:app=db'] });
  const plan = await account.acctsync(['plan', '--detailed-exitcode']);
  expect(plan.code, plan.stdout).toBe(0);
  expect(plan.stdout).toContain('No changes. 1 object up to date.');

  // Another field changes: only it is written; a different ACL in the config changes nothing either.
  await account.write('account/main.yaml', config('agent v2', 'bind:app=api'));
  const synced = await account.acctsync(['sync', '--yes', '--output', 'json']);
  expect(synced.code, synced.stderr).toBe(0);
  expect(await credential()).toMatchObject({ id, acl: ['bind:app=db'], description: 'agent v2' });
  const after = await account.acctsync(['plan', '--detailed-exitcode']);
  expect(after.code, after.stdout).toBe(0);

  // Without `ignore`, the config owns the field again.
  await account.write('account/main.yaml', config('agent v2', 'bind:app=api', '[]'));
  const owned = await account.acctsync(['plan']);
  expect(owned.stdout).toContain('~ acl [');
});

it('refuses a path the kind does not have, at its line, with the field it probably meant', async () => {
  await account.write('account/main.yaml', config('agent', 'bind:app=web', '[acls]'));
  const run = await account.acctsync(['validate']);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(
    'account/main.yaml:7:14: error: tunnel credential has no field acls (at credentials.agent.ignore[0])',
  );
  expect(run.stderr).toContain('hint: did you mean acl?');
  await account.write(
    'account/main.yaml',
    `version: 1
scope: ignore
https_edges:
  web:
    hostports: [web.example.com:443]
    routes:
      - { match_type: path_prefix, match: /, ignore: [oidc.client_secrt] }
`,
  );
  const nested = await account.acctsync(['validate']);
  expect(nested.code).toBe(1);
  expect(nested.stderr).toContain(
    'account/main.yaml:7:55: error: HTTPS edge route has no field oidc.client_secrt (at https_edges.web.routes[0].ignore[0])',
  );
  expect(nested.stderr).toContain('hint: did you mean client_secret?');
});
