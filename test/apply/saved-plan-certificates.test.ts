/**
 * A saved plan stays good while the service issues a managed domain's certificate: the issued
 * certificate fills in a writable member of the domain (its `certificate`), which the config leaves
 * to the service, so `apply plan.json` after it is not a stale plan, whether the plan leaves the
 * domain alone, gives it an uploaded certificate or stops managing its certificate: a plan made
 * before the service issues and one made after are the same plan. Another change of the account
 * still is (test/apply/cli.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAccount } from '../support/use-account.js';
import { cliWith, saveUpdatePlan } from './saved-update.js';

// Certificates are issued only when the test says so.
const h = useAccount({ certDelayMs: 3_600_000 });

interface Domain {
  readonly id: string;
  readonly certificate: { readonly id: string } | null;
  readonly certificate_management_policy: unknown;
}

async function managedDomains(): Promise<Domain[]> {
  const listed = await h.client.get<{ reserved_domains: Domain[] }>('/reserved_domains');
  return listed.body.reserved_domains.filter((d) => d.certificate_management_policy !== null);
}

describe('apply plan.json while the service issues certificates', () => {
  it('applies the saved plan after a managed domain got its certificate', async () => {
    const cli = cliWith(h.env);
    const { config, root, saved } = await saveUpdatePlan(cli);

    const domains = await managedDomains();
    expect(domains.length).toBeGreaterThan(0);
    for (const d of domains) {
      expect(d.certificate).toBeNull();
      const issued = await h.client.post(`/_emulator/certificate_jobs/${d.id}`, { outcome: 'issued' });
      expect(issued.status).toBe(200);
    }
    expect((await managedDomains()).every((d) => d.certificate !== null)).toBe(true);

    const applied = await cli(['apply', saved, ...root]);
    expect(applied.stderr).not.toContain('stale');
    expect(applied.status, applied.stderr).toBe(0);
    expect(applied.stderr).toContain('update https_edges/web: done');
    expect((await cli(['plan', config, ...root, '--detailed-exitcode'])).status).toBe(0);
  });

  // The reviewed plan is made while the service has not issued the domain's certificate yet; a plan
  // made once it has is the same plan (removing the policy removes what the service issued, so its
  // certificate counts as none either way), and the config's change alone is the cause: the
  // service not having issued yet is no drift.
  it.each([
    ['gives the managed domain an uploaded certificate', 'certificate: api-cert'],
    ["stops managing the domain's certificate", ''],
  ])('applies a saved plan that %s after the service issued one', async (_what, replacement) => {
    const cli = cliWith(h.env);
    const { config, root, saved } = await saveUpdatePlan(cli);
    const domainsFile = join(config, 'domains.yaml');
    const policy = 'certificate_management_policy: { authority: public_acme_ca, private_key_type: ecdsa }';
    writeFileSync(domainsFile, readFileSync(domainsFile, 'utf8').replace(policy, replacement));
    const planned = await cli(['plan', config, ...root, '--out', saved]);
    expect(planned.status, planned.stderr).toBe(0);
    const operations = (file: string) =>
      (JSON.parse(readFileSync(file, 'utf8')) as { operations: { id: string; cause?: string }[] }).operations;
    const update = operations(saved).find((op) => op.id === 'update reserved_domains/www');
    expect(update?.cause).toBe('config');

    const www = (await managedDomains()).find((d) => d.certificate === null);
    expect(www).toBeDefined();
    const issued = await h.client.post(`/_emulator/certificate_jobs/${www?.id}`, { outcome: 'issued' });
    expect(issued.status).toBe(200);
    const fresh = await cli(['plan', config, ...root, '--out', `${saved}.fresh`]);
    expect(fresh.status, fresh.stderr).toBe(0);
    expect(operations(`${saved}.fresh`)).toEqual(operations(saved));

    const applied = await cli(['apply', saved, ...root]);
    expect(applied.stderr).not.toContain('stale');
    expect(applied.status, applied.stderr).toBe(0);
    expect((await cli(['plan', config, ...root, '--detailed-exitcode'])).status).toBe(0);
  });
});
