/**
 * Observed entries (docs/config.md "Observed objects"): paired by `id:` or natural key whoever
 * manages the object, referenced by name, their drift reported field by field in a section of its
 * own, never written. Met as a user meets it: the built CLI against the emulator over HTTP.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Plan } from '../../src/plan-format/index.js';
import { startCliAccount, type CliAccount } from '../safety/support.js';

const network = `version: 1
scope: network
ip_policies:
  corp:
    description: Corporate networks
    rules:
      - { cidr: 192.0.2.0/24, action: allow }
`;

const web = (pin: string, description = 'Corporate network') => `version: 1
scope: web
ip_policies:
  corp:
${pin}    observe: true
    description: ${description}
    rules:
      - { cidr: 192.0.2.0/24, action: allow }
ip_restrictions:
  dash:
    type: dashboard
    ip_policies: [corp]
`;

let account: CliAccount;
beforeEach(async () => {
  account = await startCliAccount();
  await account.write('network/main.yaml', network);
  const synced = await account.acctsync(['sync', 'network/', '--yes']);
  expect(synced.code, synced.stderr).toBe(0);
});
afterEach(async () => {
  await account.close();
});

const policies = () =>
  account.client.listAll<{ id: string; metadata: string; description: string }>(
    '/ip_policies',
    'ip_policies',
  );

it('references an object another scope manages by name, reports its drift, and never writes it', async () => {
  const [corp] = await policies();
  await account.write('web/main.yaml', web(`    id: ${corp?.id}\n`));
  const text = await account.acctsync(['plan', 'web/']);
  expect(text.code, text.stderr).toBe(0);
  expect(text.stdout).toContain(
    [
      'Observed objects (read only, never written):',
      `  ! ip_policies/corp  IP policy ${corp?.id}  (drifted: live -> config)`,
      '      ~ description: "Corporate networks" -> "Corporate network"',
    ].join('\n'),
  );
  expect(text.stdout).toMatch(
    /^ {2}= ip_policies\/corp\/rules\/192\.0\.2\.0\/24 {2}IP policy rule ipr_\w+ {2}\(as configured\)$/m,
  );
  const json = await account.acctsync(['plan', 'web/', '--output', 'json']);
  const plan = JSON.parse(json.stdout) as Plan;
  expect(plan.operations.map((op) => op.id)).toEqual(['create ip_restrictions/dash']);
  expect(plan.observed?.[0]).toEqual({
    kind: 'ip_policies',
    key: 'ip_policies/corp',
    liveId: corp?.id,
    changes: [{ path: ['description'], before: 'Corporate networks', after: 'Corporate network' }],
  });

  const writes = account.writes();
  const synced = await account.acctsync(['sync', 'web/', '--yes']);
  expect(synced.code, synced.stderr).toBe(0);
  expect(account.writes() - writes).toBe(1);
  const [restriction] = await account.client.listAll<{ ip_policies: Array<{ id: string }> }>(
    '/ip_restrictions',
    'ip_restrictions',
  );
  expect(restriction?.ip_policies.map((p) => p.id)).toEqual([corp?.id]);
  // Neither its values nor its marker changed: it is still the network scope's.
  expect(await policies()).toEqual([corp]);

  // Removing the entry forgets it: nothing to delete.
  await account.write('web/main.yaml', 'version: 1\nscope: web\n');
  const forgotten = await account.acctsync(['plan', 'web/', '--output', 'json']);
  expect((JSON.parse(forgotten.stdout) as Plan).operations.map((op) => op.id)).toEqual([
    expect.stringMatching(/^delete ip_restrictions\/dash#/),
  ]);
});

it('pairs by natural key without an id:, and names an observed entry the account lacks', async () => {
  await account.write('web/main.yaml', web('', 'Corporate networks'));
  const found = await account.acctsync(['plan', 'web/', '--output', 'json']);
  expect(found.code, found.stderr).toBe(0);
  expect((JSON.parse(found.stdout) as Plan).observed?.map((o) => [o.key, o.changes])).toEqual([
    ['ip_policies/corp', []],
    ['ip_policies/corp/rules/192.0.2.0/24', []],
  ]);
  await account.write('web/main.yaml', web(''));
  const run = await account.acctsync(['plan', 'web/']);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('error: observed objects not found in the account');
  expect(run.stderr).toContain(
    'ip_policies/corp (web/main.yaml:4): no IP policy with the same description exists',
  );
  expect(account.writes()).toBe(2);
});

it('names every object an observed entry could be when several match, in the plural of the kind', async () => {
  const { body: made } = await account.client.post<{ id: string }>('/ip_policies', {
    description: 'Corporate networks',
  });
  await account.write('web/main.yaml', web('', 'Corporate networks'));
  const run = await account.acctsync(['plan', 'web/']);
  expect(run.code).toBe(1);
  const [synced] = (await policies()).filter((p) => p.id !== made.id);
  const ids = [synced?.id, made.id].sort();
  expect(run.stderr).toContain(
    `ip_policies/corp (web/main.yaml:4): 2 IP policies match (${ids.join(', ')}): pin one with id:`,
  );
});
