import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';

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

export async function callEmulator(
  emulator: RunningEmulator,
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

/** Starts one emulator for the file's tests and stops it afterwards. */
export function useEmulator(options: EmulatorOptions = {}): Harness {
  let emulator: RunningEmulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator(options);
  });
  afterAll(async () => {
    await emulator?.close();
  });
  return {
    get emulator() {
      if (emulator === undefined) throw new Error('emulator not started');
      return emulator;
    },
    call(method, path, body, callOptions) {
      return callEmulator(this.emulator, method, path, body, callOptions);
    },
  };
}
