/**
 * A saved plan stays good while the service issues a managed domain's certificate: the issued
 * certificate fills in a writable member of the domain (its `certificate`), which the config leaves
 * to the service, so `apply plan.json` after it is not a stale plan. Another change of the account
 * still is (test/apply/cli.test.ts).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAccount } from '../support/use-account.js';

// Certificates are issued only when the test says so.
const h = useAccount({ certDelayMs: 3_600_000 });

interface Domain {
  readonly id: string;
  readonly certificate: { readonly id: string } | null;
  readonly certificate_management_policy: unknown;
}

function cli(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['dist/cli/main.js', ...args],
      { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...h.env }, maxBuffer: 1 << 26 },
      (err, stdout, stderr) =>
        resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

async function managedDomains(): Promise<Domain[]> {
  const listed = await h.client.get<{ reserved_domains: Domain[] }>('/reserved_domains');
  return listed.body.reserved_domains.filter((d) => d.certificate_management_policy !== null);
}

describe('apply plan.json while the service issues certificates', () => {
  it('applies the saved plan after a managed domain got its certificate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acctsync-saved-certs-'));
    for (const part of ['account', 'pki', 'saml', 'secrets'])
      cpSync(join('examples', part), join(dir, part), { recursive: true });
    const config = join(dir, 'account');
    const root = ['--files-root', dir];
    const synced = await cli(['sync', config, ...root]);
    expect(synced.status, synced.stderr).toBe(0);

    const edges = join(config, 'edges.yaml');
    writeFileSync(edges, readFileSync(edges, 'utf8').replace('The public web site', 'The web site'));
    const saved = join(dir, 'plan.json');
    const planned = await cli(['plan', config, ...root, '--out', saved]);
    expect(planned.status, planned.stderr).toBe(0);

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
