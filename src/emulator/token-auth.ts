/** API key tokens: stored only as their SHA-256, looked up from a bearer token. */
import { createHash } from 'node:crypto';
import type { KindDescriptor } from '../resources/index.js';
import type { StoredRecord } from './collection.js';

/** Token hashes memoized, at most (API keys only: a wrong token is hashed every time). */
const MAX_MEMOIZED_TOKENS = 1024;

/** SHA-256 of a token: tokens are stored only as this. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The index from token hash to API key id, kept by the account as keys come and go. */
export class ApiKeyTokens {
  /** token hash → API key id. */
  readonly #keyIds = new Map<string, string>();
  /** Bearer token → its hash, for tokens that named an API key (memory only, never saved). */
  readonly #hashes = new Map<string, string>();

  /**
   * Adds (`delta` 1) or drops (-1) the token of a stored API key: of the kinds whose create hands
   * out a token, the one clients authenticate with (tunnel credentials' tokens are for agents).
   */
  index(d: KindDescriptor, record: StoredRecord, delta: 1 | -1): void {
    const tokenHash = record.hidden.token_hash;
    if (d.authenticatesClient !== true || typeof tokenHash !== 'string') return;
    if (delta > 0) this.#keyIds.set(tokenHash, record.id);
    else this.#keyIds.delete(tokenHash);
  }

  /** The id of the API key a bearer token belongs to. */
  keyIdOf(token: string): string | undefined {
    const memoized = this.#hashes.get(token);
    const hash = memoized ?? hashToken(token);
    const id = this.#keyIds.get(hash);
    if (id === undefined) return undefined;
    if (memoized === undefined) {
      if (this.#hashes.size >= MAX_MEMOIZED_TOKENS) this.#hashes.clear();
      this.#hashes.set(token, hash);
    }
    return id;
  }
}
