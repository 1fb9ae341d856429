/**
 * A sample connection: the traffic-policy variables it sets, by qualified name
 * (`conn.client_ip`, `conn.geo.country_code`, `endpoint.port`), as JSON-like values (timestamps as
 * RFC 3339 strings). What it does not set takes the documented default where one is certain
 * (docs/traffic-policy.md "Evaluating an edge offline"); everything else stays unset, and an outcome
 * that depends on it is unknown.
 */
import { flatAlias, policyVariables } from '../traffic-policy/index.js';
import type { TrafficEdge } from './model.js';

export type Connection = Readonly<Record<string, unknown>>;

const typeOf: ReadonlyMap<string, string> = new Map(policyVariables.map((v) => [v.name, v.type]));

/** The hostport the connection reaches: the one whose host is its SNI, else the edge's only one. */
function hostportReached(
  edge: TrafficEdge,
  connection: Connection,
): { host: string; port: number } | undefined {
  const parsed = edge.hostports.flatMap((hp) => {
    const at = hp.lastIndexOf(':');
    const port = Number(hp.slice(at + 1));
    return at > 0 && Number.isInteger(port) ? [{ host: hp.slice(0, at), port }] : [];
  });
  const sni = connection['conn.tls.sni'];
  if (typeof sni === 'string') return parsed.find((p) => p.host === sni);
  return parsed.length === 1 ? parsed[0] : undefined;
}

/** The defaults a connection to `edge` takes for what it does not set. */
export function connectionDefaults(edge: TrafficEdge, connection: Connection): Record<string, unknown> {
  const out: Record<string, unknown> = {
    // Nothing is proxied yet when a TLS edge's rules run (on_tcp_connect).
    'conn.bytes_in': 0,
    'conn.bytes_out': 0,
    'conn.tls.session_resumed': false,
    'endpoint.protocol': 'tls',
    vars: {},
  };
  const reached = hostportReached(edge, connection);
  if (reached !== undefined) {
    Object.assign(out, {
      'conn.server_port': reached.port,
      'conn.tls.sni': reached.host,
      'endpoint.host': reached.host,
      'endpoint.port': reached.port,
      'endpoint.addr': `${reached.host}:${reached.port}`,
      'endpoint.url': `tls://${reached.host}:${reached.port}`,
    });
  }
  return out;
}

/** A JSON-like value as CEL sees it under `type`: ints as bigint, timestamps as Date. */
function celValue(type: string, value: unknown): unknown {
  if (type === 'google.protobuf.Timestamp' && typeof value === 'string') return new Date(value);
  if (typeof value === 'number') return Number.isInteger(value) && type !== 'double' ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map((v) => celValue('dyn', v));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, celValue('dyn', v)]));
  return value;
}

/** The variables under their flat aliases, as the evaluation worker reads them. */
export function celVariables(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const type = typeOf.get(name);
    if (type !== undefined && value !== undefined) out[flatAlias(name)] = celValue(type, value);
  }
  return out;
}

/** The declared CEL type of a variable. */
export function variableType(name: string): string | undefined {
  return typeOf.get(name);
}
