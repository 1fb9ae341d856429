/**
 * The origin a request reached the emulator at, which the addresses in its answer (`uri`,
 * `next_page_uri`) are built from: a client behind `kubectl port-forward`, `docker run -p` or a
 * proxy follows them to where it sent the request, not to the address the emulator listens on.
 */
import type { IncomingMessage } from 'node:http';

/** A host and optional port as a Host header carries it: a name, an IPv4 or a bracketed IPv6. */
const hostPattern =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The first value of a header a chain of proxies may have appended to. */
function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(',')[0]?.trim();
}

function validHost(host: string | undefined): string | undefined {
  return host !== undefined && hostPattern.test(host) ? host.toLowerCase() : undefined;
}

/**
 * `http://` and the request's Host; with `trustProxy`, the scheme and host a proxy in front says
 * the client used (`X-Forwarded-Proto`, `X-Forwarded-Host`). A missing or malformed Host falls
 * back to `fallback`, the listen address.
 */
export function originOfRequest(req: IncomingMessage, fallback: string, trustProxy: boolean): string {
  let scheme = 'http';
  let host = validHost(req.headers.host);
  if (trustProxy) {
    const proto = firstValue(req.headers['x-forwarded-proto'])?.toLowerCase();
    if (proto === 'http' || proto === 'https') scheme = proto;
    host = validHost(firstValue(req.headers['x-forwarded-host'])) ?? host;
  }
  return host === undefined ? fallback : `${scheme}://${host}`;
}

/**
 * The origin of the request being answered, for the synchronous run of its handler. Not an
 * AsyncLocalStorage: on Node 20 one turns on async hooks for every promise and socket of the
 * process, 10-35% of the emulator's CPU per request. A handler that awaits renders what it answers
 * inside its own `servingAt`; what it sets off in the background (a certificate issued after a key
 * is generated) shows the listen address, as the service's own timers do.
 */
let current: string | undefined;

/** Runs `handle` with `origin` as the origin of the addresses it builds until it returns. */
export function servingAt<T>(origin: string, handle: () => T): T {
  const outer = current;
  current = origin;
  try {
    return handle();
  } finally {
    current = outer;
  }
}

/** The origin of the request being answered; undefined outside one (the service's own timers). */
export function currentOrigin(): string | undefined {
  return current;
}
