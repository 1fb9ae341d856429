/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument -- responses are arbitrary JSON read member by member */
import { X509Certificate } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { pki } from '../resources/formats/pki-fixtures.js';
import { useEmulator, type Answer, type Harness } from './harness.js';

/** The emulator of this file issues certificates 300 ms after a job starts. */
const h = useEmulator({ certDelayMs: 300 });

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await read();
    if (done(value)) return value;
    await delay(50);
  }
  throw new Error('timed out waiting for the emulator');
}

const domainOf = async (harness: Harness, id: string): Promise<Answer['body']> =>
  (await harness.call('GET', `/reserved_domains/${id}`)).body;

async function issuedDomain(domain: string, keyType: 'rsa' | 'ecdsa'): Promise<Answer['body']> {
  const created = await h.call('POST', '/reserved_domains', {
    domain,
    certificate_management_policy: { private_key_type: keyType },
  });
  expect(created.status).toBe(201);
  expect(created.body.certificate).toBeNull();
  return until(
    () => domainOf(h, created.body.id),
    (d) => d.certificate !== null,
  );
}

describe('managed certificates', () => {
  it.each(['rsa', 'ecdsa'] as const)(
    'are issued after the delay: a %s certificate for the domain, owned by the service',
    async (keyType) => {
      const domain = await issuedDomain(`${keyType}.managed.example.org`, keyType);
      expect(domain.certificate_management_status.provisioning_job).toBeNull();
      expect(Date.parse(domain.certificate_management_status.renews_at)).toBeGreaterThan(Date.now());
      const cert = (await h.call('GET', `/tls_certificates/${domain.certificate.id}`)).body;
      expect(cert).toMatchObject({
        subject_common_name: `${keyType}.managed.example.org`,
        subject_alternative_names: { dns_names: [`${keyType}.managed.example.org`], ips: [] },
        private_key_type: keyType,
        issuer_common_name: 'acctsync emulator CA',
      });
      expect(cert.issued_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(cert.private_key_pem).toBeUndefined();
      const [leaf, ca] = (cert.certificate_pem as string).split(/(?<=-----END CERTIFICATE-----\n)/);
      expect(new X509Certificate(leaf ?? '').verify(new X509Certificate(ca ?? '').publicKey)).toBe(true);
      const listed = (await h.call('GET', '/tls_certificates')).body.tls_certificates;
      expect(listed.map((c: { id: string }) => c.id)).toContain(cert.id);
    },
  );

  it('go with the domain, and when the domain switches to an uploaded certificate or drops the policy', async () => {
    const gone = async (id: string): Promise<boolean> =>
      (await h.call('GET', `/tls_certificates/${id}`)).status === 404;

    const deleted = await issuedDomain('deleted.managed.example.org', 'ecdsa');
    expect((await h.call('DELETE', `/reserved_domains/${deleted.id}`)).status).toBe(204);
    expect(await gone(deleted.certificate.id)).toBe(true);

    const switched = await issuedDomain('switched.managed.example.org', 'ecdsa');
    // In use by the domain, the issued certificate cannot be deleted by a client.
    expect((await h.call('DELETE', `/tls_certificates/${switched.certificate.id}`)).status).toBe(409);
    const uploaded = await h.call('POST', '/tls_certificates', {
      certificate_pem: pki('leaf-ecdsa.crt'),
      private_key_pem: pki('leaf-ecdsa.key'),
    });
    expect(uploaded.body.issued_at).toBeNull();
    const toUploaded = await h.call('PATCH', `/reserved_domains/${switched.id}`, {
      certificate_id: uploaded.body.id,
    });
    expect(toUploaded.body).toMatchObject({
      certificate: { id: uploaded.body.id },
      certificate_management_policy: null,
      certificate_management_status: null,
    });
    expect(await gone(switched.certificate.id)).toBe(true);

    const dropped = await issuedDomain('dropped.managed.example.org', 'ecdsa');
    const patched = await h.call('PATCH', `/reserved_domains/${dropped.id}`, {
      certificate_management_policy: null,
    });
    expect(patched.body).toMatchObject({ certificate: null, certificate_management_status: null });
    expect(await gone(dropped.certificate.id)).toBe(true);
  });

  it('writing the policy the domain already has keeps its certificate', async () => {
    const domain = await issuedDomain('same.managed.example.org', 'rsa');
    const patched = await h.call('PATCH', `/reserved_domains/${domain.id}`, {
      certificate_management_policy: { authority: 'public_acme_ca', private_key_type: 'rsa' },
    });
    expect(patched.body).toMatchObject({ certificate: { id: domain.certificate.id } });
    expect(patched.body.certificate_management_status).toEqual(domain.certificate_management_status);
  });

  it('the control surface fails a job with a DNS error, or completes it at once', async () => {
    const created = (
      await h.call('POST', '/reserved_domains', {
        domain: 'failing.managed.example.org',
        certificate_management_policy: {},
      })
    ).body;
    const failed = await h.call('POST', `/_emulator/certificate_jobs/${created.id}`, {
      outcome: 'failed',
      error_code: 'DNS_ERROR',
    });
    expect(failed.status).toBe(200);
    const job = failed.body.certificate_management_status.provisioning_job;
    expect(job).toMatchObject({ error_code: 'DNS_ERROR', started_at: expect.any(String) });
    expect(job.msg).toMatch(/DNS/);
    expect(Date.parse(job.retries_at)).toBeGreaterThan(Date.now());
    // A failed job is not completed by the delay.
    await delay(600);
    expect((await domainOf(h, created.id)).certificate).toBeNull();
    // Writing the policy again starts a new job, which the control surface completes at once.
    await h.call('PATCH', `/reserved_domains/${created.id}`, { certificate_management_policy: {} });
    const issued = await h.call('POST', `/_emulator/certificate_jobs/${created.id}`, { outcome: 'issued' });
    expect(issued.body.certificate.id).toMatch(/^cert_/);
    expect(issued.body.certificate_management_status.provisioning_job).toBeNull();
    const again = await h.call('POST', `/_emulator/certificate_jobs/${created.id}`, { outcome: 'issued' });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe(`${created.id} has no certificate provisioning job in progress`);
    const bad = await h.call('POST', `/_emulator/certificate_jobs/${created.id}`, { outcome: 'maybe' });
    expect(bad.body.msg).toBe('outcome must be "issued" or "failed"');
  });
});
