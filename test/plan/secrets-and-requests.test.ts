import { beforeAll, describe, expect, it } from 'vitest';
import { renderJson, renderMarkdown, renderText, sensitiveMask } from '../../src/plan-format/index.js';
import { planFor } from '../../src/pipeline/index.js';
import { isPublicMaterial } from '../../src/plan/secrets.js';
import { descriptorOf, type DesiredState } from '../../src/resources/index.js';
import { UserError } from '../../src/errors.js';
import { startAccount } from '../support/account.js';
import { useAccount } from '../support/use-account.js';
import { applyPlan, loadExamples, planAccount } from './helpers.js';

let examples: DesiredState;
const h = useAccount(planAccount);
beforeAll(async () => {
  examples = await loadExamples();
});

const routeKey = 'https_edges/web/routes/path_prefix:/admin';

function withSecret(state: DesiredState, secret: string): DesiredState {
  return {
    ...state,
    objects: state.objects.map((o) =>
      o.key === routeKey
        ? { ...o, fields: { ...o.fields, oidc: { ...(o.fields.oidc as object), client_secret: secret } } }
        : o,
    ),
  };
}

describe('write-only values and request counts', () => {
  it('plans an update for a changed secret, nothing for an unchanged one, and never prints it', async () => {
    await applyPlan(h.client, (await planFor(examples, h.client)).plan, examples);
    expect((await planFor(examples, h.client)).plan.operations).toEqual([]);

    const secret = 'a-brand-new-client-secret';
    const { plan } = await planFor(withSecret(examples, secret), h.client);
    expect(plan.operations.map((op) => op.id)).toEqual([`update ${routeKey}`]);
    const [op] = plan.operations;
    expect(op?.changes).toEqual([
      { path: ['oidc', 'client_secret'], before: sensitiveMask, after: sensitiveMask, sensitive: true },
    ]);
    // The module is put again with the secret as a reference to the config, then the marker with
    // the secret's new hash is written: the plan holds where the secret is, never the secret.
    expect(op?.requests.map((r) => r.method)).toEqual(['PUT', 'PATCH']);
    expect(op?.requests[0]?.path).toMatch(/^\/edges\/https\/edghts_\w+\/routes\/edghtsrt_\w+\/oidc$/);
    expect(op?.requests[0]?.body?.client_secret).toEqual({
      secret: { key: routeKey, path: ['oidc', 'client_secret'] },
    });
    expect(Object.keys(op?.requests[1]?.body ?? {})).toEqual(['metadata']);
    for (const out of [renderJson(plan), renderMarkdown(plan), renderText(plan, { color: false })]) {
      expect(out).not.toContain(secret);
    }
    // Every secret of the examples stays masked in a from-scratch plan too.
    await using fresh = await startAccount(planAccount);
    const { plan: all } = await planFor(examples, fresh.client);
    // Certificates and public keys read from files are public: shown summarised, not masked.
    const secrets = examples.objects.flatMap((o) =>
      o.sensitive
        .filter((p) => !isPublicMaterial(descriptorOf(o.kind).fields, p))
        .map((p) => p.reduce<unknown>((v, k) => (v as Record<string, unknown>)[String(k)], o.fields)),
    );
    expect(secrets.length).toBeGreaterThan(0);
    for (const out of [renderJson(all), renderMarkdown(all), renderText(all, { color: false })]) {
      for (const s of secrets) if (typeof s === 'string' && s.length > 8) expect(out).not.toContain(s.trim());
    }
    const text = renderText(all, { color: false });
    expect(text).toMatch(/\+ public_key: \(ssh-ed25519 SHA256:[A-Za-z0-9+/]{43} test@acctsync\)/);
    expect(text).toMatch(/\+ ca_pem: \(certificate CN=Acme Test Root CA issued by CN=Acme Test Root CA, /);
  });

  it('checks the metadata limit on the value it will write, marker included', async () => {
    const withMetadata = (bytes: number): DesiredState => ({
      ...examples,
      objects: examples.objects.map((o) =>
        o.key === 'ip_policies/office' ? { ...o, fields: { ...o.fields, metadata: 'x'.repeat(bytes) } } : o,
      ),
    });
    // Under the limit as written, over it once the ownership marker is added: refused, naming the excess.
    const err = await planFor(withMetadata(4090), h.client).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect(String((err as UserError).details)).toMatch(
      /ip_policies\/office: metadata is \d+ bytes with the ownership marker .* shorten it by \d+/,
    );
    expect(h.requests.every((r) => r.method === 'GET')).toBe(true);
    // With room for the marker it plans.
    const fits = await planFor(withMetadata(3900), h.client);
    expect(fits.plan.operations.some((op) => op.key === 'ip_policies/office')).toBe(true);
  });

  it('lists each collection once and never fetches an object twice', async () => {
    await applyPlan(h.client, (await planFor(examples, h.client)).plan, examples);
    h.requests.length = 0;
    await planFor(examples, h.client);
    const paths = h.requests.map((r) => `${r.method} ${r.path.split('?')[0]}`);
    expect(h.requests.every((r) => r.method === 'GET')).toBe(true);
    expect(new Set(paths).size).toBe(paths.length);
    // Lists only: no GET of a single object.
    expect(
      paths.filter((p) =>
        /\/(ak|cr|sshcr|ipp|ipr|ipx|ra|rd|bkd[a-z]+|edg[a-z]+|agin|ca|cert|ed|esb)_/.test(p),
      ),
    ).toEqual([]);
  });
});
