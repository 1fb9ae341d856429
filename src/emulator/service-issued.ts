import type { Account } from './account.js';

/** Whether `id` names a TLS certificate the service issued (the hidden mark, not `issued_at`, decides). */
export function isServiceIssued(account: Account, id: unknown): boolean {
  if (typeof id !== 'string') return false;
  return account.collection('tls_certificates').get(id)?.hidden.issued_for !== undefined;
}
