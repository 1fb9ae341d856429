import { NetworkError, type RequestIdentity } from './errors.js';
import { sanitizeError, type Redactor } from './redact.js';

/**
 * Codes raised while connecting, before any byte of the request is written. Everything else (resets,
 * "other side closed", parser errors) may come after the server read the request.
 */
const BEFORE_SEND_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const SYSTEM_CODE = /^E[A-Z]+$/;
const MAX_DEPTH = 5;

function codesInCauseChain(err: unknown): string[] {
  const codes: string[] = [];
  let current = err;
  for (let depth = 0; depth < MAX_DEPTH && current instanceof Error; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = current.cause;
  }
  return codes;
}

/**
 * Wraps a connection-level failure from undici or node:net. The most telling code wins: a system
 * code (`ECONNRESET`) found anywhere in the cause chain beats undici's generic `UND_ERR_SOCKET`.
 */
export function networkErrorFrom(err: unknown, request: RequestIdentity, redact: Redactor): NetworkError {
  const codes = codesInCauseChain(err);
  const code = codes.find((c) => SYSTEM_CODE.test(c)) ?? codes[0] ?? 'UNKNOWN';
  return new NetworkError(
    { ...request, code, requestMayHaveBeenProcessed: !BEFORE_SEND_CODES.has(code) },
    { cause: sanitizeError(err, redact) },
  );
}
