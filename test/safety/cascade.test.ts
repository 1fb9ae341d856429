/**
 * Deleting a parent deletes its children (an edge's routes, a policy's rules): the mass-delete guard
 * and the plan's summary count them, so one edge with 8 routes is 9 objects, not 1.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startCliAccount, type CliAccount } from './support.js';

const routes = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `      - { match_type: path_prefix, match: /r${i}, backend: { backend: web } }\n`,
  ).join('');

/** A backend and two edges, one with 8 routes: 11 managed objects. */
const config = (withShop: boolean) => `version: 1
scope: cascade
backends:
  web:
    tunnel_group: { labels: { app: web } }
https_edges:
  www:
    hostports: ['www.example.com:443']
${withShop ? `  shop:\n    hostports: ['shop.example.com:443']\n    routes:\n${routes(8)}` : ''}`;

let account: CliAccount;
beforeEach(async () => {
  account = await startCliAccount();
  await account.write('account/edges.yaml', config(true));
  const synced = await account.acctsync(['sync']);
  expect(synced.code, synced.stderr).toBe(0);
});
afterEach(async () => {
  await account.close();
});

it('refuses to delete one edge with 8 routes: 9 of 11 managed objects, routes counted', async () => {
  await account.write('account/edges.yaml', config(false));
  const writes = account.writes();
  const run = await account.acctsync(['sync']);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(
    'error: refusing to sync: the plan deletes or replaces 9 of 11 managed objects (82%, the limit is 30%)',
  );
  expect(run.stderr).toMatch(/- https_edges\/shop \(edghts_\w+\), with 8 HTTPS edge routes/);
  expect(account.writes()).toBe(writes);
  const edges = await account.client.listAll<{ routes: unknown[] }>('/edges/https', 'https_edges');
  expect(edges.map((e) => e.routes.length).sort()).toEqual([0, 8]);
});

it('shows the cascade in the JSON plan and counts it in the summary', async () => {
  await account.write('account/edges.yaml', config(false));
  const run = await account.acctsync(['plan', '--output', 'json']);
  expect(run.code, run.stderr).toBe(0);
  const plan = JSON.parse(run.stdout) as {
    summary: { delete: number; removed: number; managed: number };
    operations: { action: string; key: string; cascade?: { objects: { kind: string; key?: string }[] } }[];
  };
  expect(plan.summary).toMatchObject({ delete: 1, removed: 9, managed: 11 });
  const edge = plan.operations.find((op) => op.key === 'https_edges/shop');
  expect(edge?.cascade?.objects).toHaveLength(8);
  expect(edge?.cascade?.objects[0]).toMatchObject({
    kind: 'https_edge_routes',
    key: expect.stringMatching(/^https_edges\/shop\/routes\/path_prefix:\/r\d$/) as unknown,
  });
});

it('passes with --force and deletes the edge and its routes', async () => {
  await account.write('account/edges.yaml', config(false));
  const run = await account.acctsync(['sync', '--force']);
  expect(run.code, run.stderr).toBe(0);
  const edges = await account.client.listAll<{ routes: unknown[] }>('/edges/https', 'https_edges');
  expect(edges).toHaveLength(1);
});
