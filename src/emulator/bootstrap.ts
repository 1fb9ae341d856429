/** The admin user and the API key every emulator starts with. */
import { descriptors, withDefaults } from '../resources/index.js';
import type { Account } from './account.js';
import { hashToken } from './token-auth.js';

/**
 * Makes sure an admin user exists and that `token` is an API key of it. The account keeps one
 * bootstrap key: a loaded account whose bootstrap key has another token gets that key re-keyed to
 * `token`, so that restarts of `serve --data` do not pile up keys. Returns the admin's id.
 */
export function bootstrap(account: Account, token: string): string {
  let admin = [...account.principals.values()].find((p) => p.kind === 'user' && p.admin);
  if (admin === undefined) {
    admin = { id: account.ids.next('usr_'), kind: 'user', admin: true };
    account.principals.set(admin.id, admin);
  }
  if (account.apiKeyOfToken(token) !== undefined) return admin.id;
  const d = descriptors.api_keys;
  const hidden = { token_hash: hashToken(token), bootstrap: true };
  const existing = account
    .collection('api_keys')
    .all()
    .find((r) => r.hidden.bootstrap === true);
  if (existing !== undefined) {
    account.remove(d, existing);
    account.insert(d, { ...existing, hidden });
    return admin.id;
  }
  account.insert(d, {
    id: account.ids.next(d.idPrefix ?? 'ak_'),
    created_at: account.timestamp(),
    values: withDefaults(d.fields, { description: 'bootstrap key', owner_id: admin.id }),
    hidden,
  });
  return admin.id;
}
