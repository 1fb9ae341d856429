/**
 * A reviewed plan is applied as it was reviewed, whatever it does: `plan --out plan.json` then
 * `apply plan.json`, the built CLI spawned as a user runs it, for each kind of operation (create,
 * update, replace, rename, delete, adopt) and for secrets (an OIDC client secret from `{env:}`,
 * a private key from `{file:}`, set, changed, adopted). Each step's next plan is empty. And the
 * planner is a function of its inputs: two plans of the same states are the same bytes.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { renderJson, type Plan } from '../../src/plan-format/index.js';
import { planFor } from '../../src/pipeline/index.js';
import { cliWith, type CliRun } from './saved-update.js';
import { examplesState, startHarness, syncState, withFields, type Harness } from './harness.js';

let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), 'acctsync-saved-ops-'));
  mkdirSync(join(dir, '.git'));
  mkdirSync(join(dir, 'account'));
  cpSync(new URL('../fixtures/pki/', import.meta.url), join(dir, 'pki'), { recursive: true });
});
afterAll(async () => {
  await h.close();
});

/** The CLI against the test's emulator, with `OIDC_SECRET` set to `secret`. */
function cli(secret: string): (args: string[]) => Promise<CliRun> {
  return cliWith({
    SVC_API_URL: h.emulator.url,
    SVC_API_KEY: h.emulator.token,
    NO_COLOR: '1',
    OIDC_SECRET: secret,
  });
}

interface Step {
  readonly restriction: string;
  readonly policy: string;
  readonly description: string;
  readonly moved?: boolean;
  /** The route's OIDC module, its client secret from `{env: OIDC_SECRET}`. */
  readonly oidc?: boolean;
  readonly certificate?: boolean;
}

function configYaml(step: Step): string {
  return [
    'version: 1',
    'scope: saved',
    ...(step.moved ? ['moved:', '  - { from: ip_policies/office, to: ip_policies/hq }'] : []),
    'ip_policies:',
    `  ${step.policy}: { description: ${step.description} }`,
    ...(step.restriction === ''
      ? []
      : ['ip_restrictions:', `  door: { type: ${step.restriction}, ip_policies: [${step.policy}] }`]),
    'backends:',
    '  web: { tunnel_group: { labels: { app: web } } }',
    'https_edges:',
    '  site:',
    "    hostports: ['site.example.com:443']",
    '    routes:',
    '      - match_type: path_prefix',
    '        match: /',
    '        backend: { backend: web }',
    ...(step.oidc
      ? [
          '        oidc:',
          '          issuer: https://accounts.example.com',
          '          client_id: app',
          '          client_secret: { env: OIDC_SECRET }',
        ]
      : []),
    ...(step.certificate
      ? [
          'tls_certificates:',
          '  leaf:',
          '    certificate_pem: { file: ../pki/leaf-ecdsa.crt }',
          '    private_key_pem: { file: ../pki/leaf-ecdsa.key }',
        ]
      : []),
    '',
  ].join('\n');
}

/**
 * Writes the step's config, saves its plan, applies the file and plans again: the saved plan holds
 * `action` and its apply converges.
 */
async function planThenApply(
  step: Step,
  secret: string,
  action: string,
  flags: string[] = [],
): Promise<Plan> {
  const run = cli(secret);
  const config = join(dir, 'account');
  writeFileSync(join(config, 'main.yaml'), configYaml(step));
  const file = join(dir, 'plan.json');
  const planned = await run(['plan', config, '--out', file, ...flags]);
  expect(planned.status, planned.stderr).toBe(0);
  const saved = JSON.parse(readFileSync(file, 'utf8')) as Plan;
  // A replace is its two halves (create the new object, delete the old), sharing `replaces`.
  expect(saved.operations.map((op) => (op.replaces === undefined ? op.action : 'replace'))).toContain(action);
  expect(readFileSync(file, 'utf8')).not.toContain(secret);
  const applied = await run(['apply', file]);
  expect(applied.status, `${applied.stdout}\n${applied.stderr}`).toBe(0);
  expect(applied.stderr).not.toContain('stale');
  const after = await run(['plan', config, '--detailed-exitcode']);
  expect(after.status, after.stdout).toBe(0);
  return saved;
}

const base: Step = { restriction: 'dashboard', policy: 'office', description: 'Office' };
const withOidc: Step = { ...base, oidc: true };

it('plan --out then apply PLANFILE: creates', async () => {
  const saved = await planThenApply(base, 'first-secret', 'create');
  expect(saved.summary.create).toBe(5);
});

it('plan --out then apply PLANFILE: a client secret from {env:} added to a route, then changed', async () => {
  for (const secret of ['first-secret', 'second-secret']) {
    const saved = await planThenApply(withOidc, secret, 'update');
    expect(saved.operations.map((op) => op.key)).toEqual([
      expect.stringMatching(/^https_edges\/site\/routes\//),
    ]);
  }
});

it('plan --out then apply PLANFILE: an update, a replace, a rename and a delete', async () => {
  const described = { ...withOidc, description: 'Head office' };
  await planThenApply(described, 'second-secret', 'update');
  await planThenApply({ ...described, restriction: 'api' }, 'second-secret', 'replace');
  const renamed = { ...described, restriction: 'api', policy: 'hq', moved: true };
  await planThenApply(renamed, 'second-secret', 'rename');
  await planThenApply({ ...renamed, restriction: '' }, 'second-secret', 'delete');
});

it('plan --out then apply PLANFILE: adopting objects that hold secrets (a client secret, a private key)', async () => {
  const step = { ...withOidc, restriction: '', policy: 'hq', description: 'Head office', moved: true };
  await planThenApply({ ...step, certificate: true }, 'second-secret', 'create');
  // The edge, its route and the certificate lose their markers (someone edited them by hand):
  // --adopt takes them back, writing the secrets' hashes into new markers.
  const unmark = (path: string) => h.client.patch(path, { metadata: '' });
  type Listed = { id: string; routes?: { id: string }[] };
  for (const edge of await h.client.listAll<Listed>('/edges/https', 'https_edges')) {
    await unmark(`/edges/https/${edge.id}`);
    for (const route of edge.routes ?? []) await unmark(`/edges/https/${edge.id}/routes/${route.id}`);
  }
  for (const certificate of await h.client.listAll<Listed>('/tls_certificates', 'tls_certificates'))
    await unmark(`/tls_certificates/${certificate.id}`);
  const saved = await planThenApply({ ...step, certificate: true }, 'second-secret', 'adopt', ['--adopt']);
  expect(saved.operations.filter((op) => op.action === 'adopt').map((op) => op.key)).toEqual(
    expect.arrayContaining([
      'https_edges/site',
      expect.stringMatching(/^https_edges\/site\/routes\//),
      'tls_certificates/leaf',
    ]),
  );
});

it('two plans of the same inputs are the same bytes, secrets and new markers included', async () => {
  const examples = await examplesState();
  // Some objects live (to update and delete), others new: every marker path of the planner runs.
  await syncState(h, {
    ...examples,
    objects: examples.objects.filter((o) => !o.key.startsWith('backends/')),
  });
  const desired = withFields(examples, 'ip_policies/office', (f) => ({ ...f, description: 'changed' }));
  const now = new Date('2026-01-01T00:00:00Z');
  const [a, b] = [await planFor(desired, h.client, { now }), await planFor(desired, h.client, { now })];
  expect(a.plan.operations.map((op) => op.action)).toEqual(expect.arrayContaining(['create', 'update']));
  expect(renderJson(b.plan)).toBe(renderJson(a.plan));
});
