/**
 * A request as it goes on the wire: its method, and the path and query sent for it. Errors name a
 * request by these two ({@link RequestIdentity}); nothing else of it (headers, body) is ever shown.
 */
import { UserError } from '../errors.js';

/** The HTTP methods the account API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** True for methods that change server state, where a lost response leaves the outcome unknown. */
export function isWriteMethod(method: HttpMethod): boolean {
  return method !== 'GET';
}

/** What every client error says about the request that failed; never headers or body. */
export interface RequestIdentity {
  readonly method: HttpMethod;
  /** Path and query as sent on the wire. */
  readonly path: string;
}

/** Query parameters; `undefined` values are left out. */
export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * A relative path the URL parser leaves as it is: unreserved characters and sub-delimiters only (no
 * `%`, `?`, `#`, `\\`, spaces or non-ASCII, which it would encode or interpret), and no scheme.
 */
const plainPath = /^\/?(?![a-z][a-z0-9+.-]*:)[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/i;
/** A `.` or `..` segment, which the URL parser resolves. */
const dotSegment = /(?:^|\/)\.\.?(?:\/|$)/;
const scheme = /^[a-z][a-z0-9+.-]*:/i;

function hasQueryValue(query: Query | undefined): boolean {
  if (query === undefined) return false;
  for (const name in query) if (query[name] !== undefined) return true;
  return false;
}

/**
 * Path and query to send for `path` (relative to the base URL, or an absolute URL such as a
 * `next_page_uri`); refuses URLs on another origin so the key is never sent elsewhere.
 */
export function wirePath(origin: string, pathPrefix: string, path: string, query: Query | undefined): string {
  // The common case, a plain relative path without query: what the URL parser would give, without it.
  if (plainPath.test(path) && !dotSegment.test(path) && !hasQueryValue(query)) {
    return `${pathPrefix}/${path.replace(/^\/+/, '')}`;
  }
  const url = scheme.test(path)
    ? new URL(path)
    : new URL(`${pathPrefix}/${path.replace(/^\/+/, '')}`, origin);
  if (url.origin !== origin) {
    throw new UserError(
      `refusing to send a request to ${url.origin}: the API is at ${origin} (it sent a link to another origin)`,
    );
  }
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url.pathname + url.search;
}
