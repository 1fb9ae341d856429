/** The one way a test makes an API client of an emulator (or of a proxy or `serve` in front of one). */
import { ApiClient, type ApiClientOptions } from '../../src/api/index.js';

/** Retry waits capped at 20 ms: the emulator's Retry-After of 1 s would make fault tests slow. */
export const quickRetries = { baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 20 } as const;

/** What a test may set on a client; `baseUrl` reaches the account through a proxy. */
export type TestClientOptions = Partial<Omit<ApiClientOptions, 'apiKey'>>;

/** A client of the API at `api.url` with the key `api.token`; retries wait milliseconds, not seconds. */
export function testClient(
  api: { readonly url: string; readonly token: string },
  options: TestClientOptions = {},
): ApiClient {
  return new ApiClient({
    baseUrl: api.url,
    apiKey: api.token,
    retry: quickRetries,
    timeoutMs: 5_000,
    ...options,
  });
}
