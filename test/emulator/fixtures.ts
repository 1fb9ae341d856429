import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pki = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`../fixtures/pki/${name}`, import.meta.url)), 'utf8');

export const caPem = pki('ca.crt');
export const leafRsaPem = pki('leaf-rsa.crt');
export const leafRsaKey = pki('leaf-rsa.key');
export const chainRsaPem = pki('chain-rsa.pem');
export const leafEcdsaPem = pki('leaf-ecdsa.crt');
export const leafEcdsaKey = pki('leaf-ecdsa.key');
export const unrelatedKey = pki('unrelated.key');
export const sshEd25519 = pki('ssh-ed25519.pub').trim();
export const sshRsa = pki('ssh-rsa.pub').trim();

export const monitoringTarget = { monitoring: { api_key: 'secret-key', tags: '', service: 's', site: 'x' } };
