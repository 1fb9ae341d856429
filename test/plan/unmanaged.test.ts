/**
 * Objects nobody manages are reported: the JSON plan lists them (kind, id, natural name), text and
 * markdown count them and say how to adopt them; objects of other scopes are not listed. The built
 * CLI against the emulator over HTTP.
 */
import { expect, it } from 'vitest';
import type { Plan } from '../../src/plan-format/index.js';
import { startCliAccount } from '../safety/support.js';

const team = `version: 1
scope: team
ip_policies:
  office: { description: Office }
`;
const other = `version: 1
scope: other
ip_policies:
  theirs: { description: Theirs }
`;

it('lists a domain reserved by hand, counts it in text and markdown, and not the objects of any scope', async () => {
  await using account = await startCliAccount();
  await account.write('team/main.yaml', team);
  await account.write('other/main.yaml', other);
  for (const dir of ['team/', 'other/']) expect((await account.acctsync(['sync', dir])).code).toBe(0);
  const domain = await account.client.post<{ id: string }>('/reserved_domains', {
    domain: 'shop.example.com',
  });
  const keys = await account.client.listAll<{ id: string; description: string }>('/api_keys', 'keys');

  const json = await account.acctsync(['plan', 'team/', '--output', 'json']);
  expect(json.code, json.stderr).toBe(0);
  const plan = JSON.parse(json.stdout) as Plan;
  expect(plan.unmanaged).toEqual([
    ...keys.map((k) => ({ kind: 'api_keys', id: k.id, name: k.description })),
    { kind: 'reserved_domains', id: domain.body.id, name: 'shop.example.com' },
  ]);

  const text = await account.acctsync(['plan', 'team/']);
  expect(text.stdout).toContain(
    'Unmanaged: 1 API key, 1 reserved domain (no scope manages them; the JSON plan lists them). To manage one, add its entry with its `id:` (`acctsync export` writes it) and sync with `--adopt`.',
  );
  expect(text.stdout).toContain('No changes.');
  const markdown = await account.acctsync(['plan', 'team/', '--output', 'markdown']);
  expect(markdown.stdout).toContain('Unmanaged: 1 API key, 1 reserved domain (no scope manages them');

  await account.write(
    'team/main.yaml',
    `${team}reserved_domains:\n  shop: { id: ${domain.body.id}, domain: shop.example.com }\n`,
  );
  expect((await account.acctsync(['sync', 'team/', '--adopt'])).code).toBe(0);
  const adopted = JSON.parse((await account.acctsync(['plan', 'team/', '--output', 'json'])).stdout) as Plan;
  expect(adopted.unmanaged.map((u) => u.kind)).toEqual(['api_keys']);
});
