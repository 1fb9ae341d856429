/**
 * The secrets a client holds and how they are kept out of sight: the key it sends (the headers
 * that carry it, following a rotated key file) and the redaction that scrubs every key it sent and
 * the desired state's secrets from the errors it raises (messages, the service's text, causes).
 */
import { requestHeaders, type ApiClientOptions, type ApiKeySource } from './options.js';

/** Replaces every occurrence of the given secrets in a string; the one place secrets are scrubbed. */
export type Redactor = (text: string) => string;

const REDACTED = '[REDACTED]';

/**
 * Builds a redactor for the given secrets; empty strings are ignored (they would match everywhere).
 * Longest first: a secret containing another one is scrubbed whole, not around the shorter one.
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  const needles = secrets.filter((secret) => secret.length > 0).sort((a, b) => b.length - a.length);
  return (text) => needles.reduce((acc, needle) => acc.split(needle).join(REDACTED), text);
}

/** Deep-copies a JSON value, redacting every string in it (keys included). */
export function redactJson(value: unknown, redact: Redactor): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redact));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [redact(key), redactJson(item, redact)]),
    );
  }
  return value;
}

const SAFE_ERROR_FIELDS = ['code', 'errno', 'syscall', 'address', 'port'] as const;
const MAX_CAUSE_DEPTH = 5;

/**
 * Rebuilds a low-level error (undici, node:net) from an allow-list of fields, with secrets scrubbed.
 * undici errors may hold request options or sockets; copying only known-safe fields keeps headers and
 * bodies out of anything that ends up in logs.
 */
export function sanitizeError(err: unknown, redact: Redactor, depth = 0): Error {
  if (!(err instanceof Error)) return new Error(redact(String(err)));
  const cause =
    err.cause !== undefined && depth < MAX_CAUSE_DEPTH
      ? { cause: sanitizeError(err.cause, redact, depth + 1) }
      : {};
  const copy = new Error(redact(err.message), cause);
  copy.name = err.name;
  if (err.stack !== undefined) copy.stack = redact(err.stack);
  const fields = copy as unknown as Record<string, unknown>;
  const source = err as unknown as Record<string, unknown>;
  for (const field of SAFE_ERROR_FIELDS) {
    const value = source[field];
    if (typeof value === 'string') fields[field] = redact(value);
    else if (typeof value === 'number') fields[field] = value;
  }
  return copy;
}

type Headers = Readonly<Record<string, string>>;

/**
 * The headers a client sends, following its key source: when a rotated key file holds a new key,
 * every later attempt carries it.
 */
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
