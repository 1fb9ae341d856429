/**
 * How a write-only secret is compared: the marker stores a salted scrypt hash that only the
 * documented cost reproduces, and markers written before (one salted SHA-256) keep matching, so an
 * account synced by an earlier acctsync sees no secret as changed; the next write upgrades them.
 */
import { createHash, scryptSync } from 'node:crypto';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import { formatMetadata } from '../../src/plan/index.js';
import { planFor } from '../../src/pipeline/index.js';
import { type LiveObject } from '../../src/live/index.js';
import type { DesiredState } from '../../src/resources/index.js';
import { useAccount } from '../support/use-account.js';
import { applyPlan, loadExamples, planAccount } from './helpers.js';

let examples: DesiredState;
const h = useAccount(planAccount);
beforeAll(async () => {
  examples = await loadExamples();
});
beforeEach(async () => {
  await applyPlan(h.client, (await planFor(examples, h.client)).plan, examples);
});

const routeKey = 'https_edges/web/routes/path_prefix:/admin';
const secretPath = 'oidc.client_secret';

function clientSecret(state: DesiredState): string {
  const route = state.objects.find((o) => o.key === routeKey);
  return (route?.fields.oidc as { client_secret: string }).client_secret;
}

async function liveRoute(): Promise<LiveObject> {
  const { live } = await planFor(examples, h.client);
  const route = live.objects.find((l) => l.marker?.key === routeKey);
  if (route === undefined) throw new Error('the route is not live');
  return route;
}

const scrypt = (value: string, salt: string, N: number): string =>
  `s1.${scryptSync(value, salt, 21, { N, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }).toString('base64url')}`;

it('stores a salted scrypt hash that only the documented cost (N=2^14, r=8, p=1) reproduces', async () => {
  const { marker } = await liveRoute();
  const salt = marker?.salt ?? '';
  const stored = marker?.hashes?.[secretPath];
  expect(stored).toBe(scrypt(clientSecret(examples), salt, 2 ** 14));
  expect(stored).not.toBe(scrypt(clientSecret(examples), salt, 2 ** 13));
  expect(stored).not.toContain(clientSecret(examples));
});

it('an earlier single-SHA-256 marker still matches: no change planned; the next write upgrades it', async () => {
  const route = await liveRoute();
  const salt = route.marker?.salt ?? '';
  const legacy = createHash('sha256')
    .update(salt)
    .update('\0')
    .update(clientSecret(examples))
    .digest('base64url')
    .slice(0, 32);
  const oldMarker = { scope: examples.scope, key: routeKey, salt, hashes: { [secretPath]: legacy } };
  const oldMetadata = formatMetadata(route.userMetadata, oldMarker);
  await h.client.patch(`/edges/https/${route.parentId}/routes/${route.id}`, { metadata: oldMetadata });

  expect((await planFor(examples, h.client)).plan.operations).toEqual([]);

  const renamed: DesiredState = {
    ...examples,
    objects: examples.objects.map((o) =>
      o.key === routeKey ? { ...o, fields: { ...o.fields, description: 'admin area, renamed' } } : o,
    ),
  };
  const { plan } = await planFor(renamed, h.client);
  expect(plan.operations.map((op) => op.id)).toEqual([`update ${routeKey}`]);
  expect(plan.operations[0]?.changes.map((c) => c.path.join('.'))).toEqual(['description']);
  const written = plan.operations[0]?.requests.at(-1)?.body?.metadata;
  expect(typeof written).toBe('string');
  expect(written).toContain(scrypt(clientSecret(examples), salt, 2 ** 14));
  expect(written).not.toContain(legacy);
  // The upgrade never makes the hashes longer, so it cannot push metadata over the size limit (the
  // fingerprint of what was written, which the write adds, is counted by validate beforehand).
  const withoutFingerprint = String(written).replace(/,"written":"[^"]*"/, '');
  expect(withoutFingerprint.length).toBeLessThanOrEqual(oldMetadata.length);
});
