/**
 * Clients generated from the service's API description send their whole argument as the body, the
 * path's ids included (its own, its parent's: `edge_id` in a route's create, `id` in a module's
 * PUT, `subscription_id` and `type` in an event source's writes). The service accepts them when
 * they equal the path's and drops them before validation; a different value is an unknown field
 * like any other.
 */
import { isPlainObject, setOwn } from '../plain-object.js';

export function withoutPathEcho(body: unknown, params: Readonly<Record<string, string>>): unknown {
  if (!isPlainObject(body)) return body;
  if (!Object.keys(body).some((key) => Object.hasOwn(params, key) && body[key] === params[key])) return body;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (Object.hasOwn(params, key) && value === params[key]) continue;
    setOwn(out, key, value);
  }
  return out;
}
