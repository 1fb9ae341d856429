/**
 * A saved plan stays good while the service issues a managed domain's certificate: the issued
 * certificate fills in a writable member of the domain (its `certificate`), which the config leaves
 * to the service, so `apply plan.json` after it is not a stale plan. Another change of the account
 * still is (test/apply/cli.test.ts).
 */
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
});
