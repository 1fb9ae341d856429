/**
 * The emulator's CA issues certificates every TLS stack reads: the serial number is a positive,
 * minimally encoded DER INTEGER whatever the random bytes were (Node 26 refuses one that is not,
 * and a managed domain's provisioning job then died with "certificate_pem: no certificate").
 */
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parsePemCertificates } from '../../src/resources/formats/index.js';
import { EmulatorCa, serialNumber } from '../../src/emulator/x509.js';

describe('emulator CA', () => {
  it.each([
    ['a zero first byte', 0x00, 0x00],
    ['a zero first byte before a high bit', 0x00, 0xff],
    ['a high first byte', 0x80, 0x00],
    ['all bits set', 0xff, 0xff],
  ])('a serial number from random bytes with %s is positive and needs all its bytes', (_, first, second) => {
    const serial = serialNumber(Buffer.from([first, second, ...Array<number>(14).fill(0x11)]));
    expect(serial).toHaveLength(16);
    expect(serial[0]).toBeGreaterThan(0);
    expect(serial[0]).toBeLessThan(0x80);
  });

  it('issues leaves our parser and X509Certificate read, naming the domain and the CA', async () => {
    const now = new Date();
    const ca = await EmulatorCa.create(now);
    for (let i = 0; i < 8; i++) {
      const issued = await ca.issue(`host${i}.managed.example.org`, 'ecdsa', now);
      const parsed = parsePemCertificates(issued.certificatePem);
      expect(parsed.ok).toBe(true);
      const leaf = new X509Certificate(issued.certificatePem);
      expect(leaf.serialNumber).toMatch(/^[4-7][0-9A-F]{31}$/);
      expect(leaf.subject).toBe(`CN=host${i}.managed.example.org`);
      expect(leaf.checkIssued(new X509Certificate(ca.certificatePem))).toBe(true);
    }
  });
});
