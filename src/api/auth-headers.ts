/**
 * The headers a client sends, following its key source: when a rotated key file holds a new key,
 * every later attempt carries it.
 */
import { requestHeaders, type ApiClientOptions } from './client-options.js';
import type { ApiKeySource } from './key-source.js';

type Headers = Readonly<Record<string, string>>;

export class AuthHeaders {
  #plain: Headers;
  /** {@link #plain} plus the JSON content type, for requests with a body. */
  #json: Headers;
  readonly #source: ApiKeySource | undefined;
  /** Told of each new key before it is sent, so errors scrub it like the first. */
  readonly #onNewKey: (key: string) => void;

  constructor(options: ApiClientOptions, onNewKey: (key: string) => void) {
    this.#plain = requestHeaders(options);
    this.#json = { ...this.#plain, 'content-type': 'application/json' };
    this.#source = options.keySource;
    this.#onNewKey = onNewKey;
  }

  /** The headers of a request with or without a body, with the key source's current key. */
  for(body: string | undefined): Headers {
    const key = this.#source?.current();
    if (key !== undefined && this.#plain.authorization !== `Bearer ${key}`) {
      this.#onNewKey(key);
      this.#plain = { ...this.#plain, authorization: `Bearer ${key}` };
      this.#json = { ...this.#json, authorization: `Bearer ${key}` };
    }
    return body === undefined ? this.#plain : this.#json;
  }

  /** Whether the key can change, so that a 401 is worth one more try after reading it again. */
  get renewable(): boolean {
    return this.#source !== undefined;
  }

  /** Reads the key again; true when a different key is now current. */
  renew(): Promise<boolean> {
    return this.#source?.renew() ?? Promise.resolve(false);
  }
}
