/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call -- responses are arbitrary JSON read member by member */
/**
 * acctsync against managed certificates that complete: the CLI as a user runs it, the emulator
 * issuing certificates (completed through its control surface, so the test does not wait on time).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliAgainst } from '../support/cli.js';
import { pki } from '../resources/formats/pki-fixtures.js';
import { useEmulator, type Answer } from './harness.js';

/** Jobs never finish on their own here: each test completes or fails them when it means to. */
const h = useEmulator({ certDelayMs: 3_600_000 });

function configDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'acctsync-certs-'));
  writeFileSync(join(dir, 'leaf.crt'), pki('leaf-ecdsa.crt'));
  writeFileSync(join(dir, 'leaf.key'), pki('leaf-ecdsa.key'));
  return dir;
}

/** The config of one domain, managed (a policy) or with the uploaded certificate. */
function writeConfig(dir: string, mode: 'policy' | 'uploaded'): void {
  const domain =
    mode === 'policy'
      ? '    certificate_management_policy: { private_key_type: ecdsa }'
      : '    certificate: site-cert';
  writeFileSync(
    join(dir, 'domains.yaml'),
    [
      'version: 1',
      'scope: certs',
      'reserved_domains:',
      '  site:',
      '    domain: site.example.org',
      domain,
      'tls_certificates:',
      '  site-cert:',
      '    certificate_pem: { file: leaf.crt }',
      '    private_key_pem: { file: leaf.key }',
      '',
    ].join('\n'),
  );
}

async function siteDomain(): Promise<Answer['body']> {
  const list = (await h.call('GET', '/reserved_domains')).body.reserved_domains;
  return list.find((d: { domain: string }) => d.domain === 'site.example.org');
}

async function plan(dir: string): Promise<Answer['body']> {
  const r = await runCliAgainst(['plan', dir, '--output', 'json'], h.emulator);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

describe('managed certificates, end to end', () => {
  it('policy -> uploaded -> policy converges each way; the issued certificate is never planned or exported', async () => {
    const dir = configDir();
    writeConfig(dir, 'policy');
    expect((await runCliAgainst(['sync', dir], h.emulator)).code).toBe(0);
    const created = await siteDomain();
    const done = await h.call('POST', `/_emulator/certificate_jobs/${created.id}`, { outcome: 'issued' });
    const issuedId: string = done.body.certificate.id;

    // The issued certificate is the service's: no diff on the domain, no delete of the certificate.
    const settled = await plan(dir);
    expect(settled.operations).toEqual([]);
    // The export holds the domain and the uploaded certificate, not the issued one.
    const exported = await runCliAgainst(['export', '--scope', 'certs'], h.emulator);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain('site.example.org');
    expect(exported.stdout.match(/certificate_pem:/g)).toHaveLength(1);
    expect(exported.stdout).not.toContain(issuedId);

    // To the uploaded certificate: no 409, the issued one goes, then nothing left to do.
    writeConfig(dir, 'uploaded');
    const toUploaded = await runCliAgainst(['sync', dir], h.emulator);
    expect(toUploaded.stderr).not.toMatch(/409|error/i);
    expect(toUploaded.code).toBe(0);
    const uploaded = await siteDomain();
    expect(uploaded.certificate_management_policy).toBeNull();
    expect(uploaded.certificate.id).not.toBe(issuedId);
    expect((await h.call('GET', `/tls_certificates/${issuedId}`)).status).toBe(404);
    expect((await plan(dir)).operations).toEqual([]);

    // Back to the policy: the uploaded certificate stays (it is configured), the domain is managed.
    writeConfig(dir, 'policy');
    const toPolicy = await runCliAgainst(['sync', dir], h.emulator);
    expect(toPolicy.stderr).not.toMatch(/409|error/i);
    expect(toPolicy.code).toBe(0);
    const managed = await siteDomain();
    expect(managed.certificate).toBeNull();
    expect(managed.certificate_management_policy).toEqual({
      authority: 'public_acme_ca',
      private_key_type: 'ecdsa',
    });
    expect((await plan(dir)).operations).toEqual([]);
    await h.call('POST', `/_emulator/certificate_jobs/${managed.id}`, { outcome: 'issued' });
    expect((await plan(dir)).operations).toEqual([]);
  }, 60_000);

  it('a managed domain holding its issued certificate takes a PATCH of another field', async () => {
    const dir = configDir();
    writeConfig(dir, 'policy');
    expect((await runCliAgainst(['sync', dir], h.emulator)).code).toBe(0);
    const domain = await siteDomain();
    await h.call('POST', `/_emulator/certificate_jobs/${domain.id}`, { outcome: 'issued' });
    // The certificate the service filled in is not the caller's choice: the exclusivity rule ignores it.
    const patched = await h.call('PATCH', `/reserved_domains/${domain.id}`, { description: 'main site' });
    expect(patched.status).toBe(200);
    expect(patched.body.description).toBe('main site');
  }, 60_000);

  it('a failed provisioning job shows in the notes of the plan', async () => {
    const dir = configDir();
    writeConfig(dir, 'policy');
    const domain = await siteDomain();
    await h.call('PATCH', `/reserved_domains/${domain.id}`, {
      certificate_management_policy: { private_key_type: 'rsa' },
    });
    expect((await runCliAgainst(['sync', dir], h.emulator)).code).toBe(0);
    await h.call('POST', `/_emulator/certificate_jobs/${domain.id}`, {
      outcome: 'failed',
      error_code: 'DNS_ERROR',
    });
    const failed = await plan(dir);
    expect(failed.operations).toEqual([]);
    const job = (await siteDomain()).certificate_management_status.provisioning_job;
    expect(failed.notes).toContain(
      `reserved_domains/site: certificate provisioning failed (DNS_ERROR: ${job.msg}); the service retries at ${job.retries_at}`,
    );
    const text = await runCliAgainst(['plan', dir], h.emulator);
    expect(text.stdout).toContain('reserved_domains/site: certificate provisioning failed (DNS_ERROR');
  }, 60_000);
});
