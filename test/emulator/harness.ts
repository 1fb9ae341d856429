import type { RunningEmulator } from '../../src/emulator/index.js';
import type { AccountOptions } from '../support/account.js';
import { useAccount } from '../support/use-account.js';

/** A response as the tests look at it. */
export interface Answer {
  readonly status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON members
  readonly body: any;
  readonly headers: Headers;
}

export interface CallOptions {
  readonly token?: string | null;
  readonly headers?: Record<string, string>;
  /** Sent as is instead of JSON-encoding `body`. */
  readonly raw?: string;
}

/** A client of one emulator over real HTTP. */
export interface Harness {
  readonly emulator: RunningEmulator;
  call(method: string, path: string, body?: unknown, options?: CallOptions): Promise<Answer>;
}

/** A request as the tests send it: raw HTTP, the bootstrap key unless `options.token` says otherwise. */
export async function callEmulator(
  emulator: { readonly url: string; readonly token: string },
  method: string,
  path: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<Answer> {
  const token = options.token === undefined ? emulator.token : options.token;
  const headers: Record<string, string> = { 'Svc-Version': '2', ...options.headers };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  const payload = options.raw ?? (body === undefined ? undefined : JSON.stringify(body));
  if (payload !== undefined && !('Content-Type' in headers)) headers['Content-Type'] = 'application/json';
  const res = await fetch(path.startsWith('http') ? path : emulator.url + path, {
    method,
    headers,
    ...(payload === undefined ? {} : { body: payload }),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
    headers: res.headers,
  };
}

/** One account for the file's tests, and raw requests to its emulator. */
export function useEmulator(options: AccountOptions = {}): Harness {
  const account = useAccount(options, 'file');
  return {
    get emulator() {
      return account.emulator;
    },
    call: (method, path, body, callOptions) => callEmulator(account, method, path, body, callOptions),
  };
}
