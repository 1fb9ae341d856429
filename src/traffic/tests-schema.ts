/**
 * The JSON Schema of a traffic tests file (`acctsync test-traffic`, `validate --traffic-tests`):
 * the one source of `schemas/traffic-tests.schema.json` (`npm run gen:schema`) and of the
 * structural check of every file read.
 */

const test = {
  type: 'object',
  description: 'One sample connection to one TLS edge of the config, and the outcome expected.',
  required: ['name', 'edge', 'connection', 'expect'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, description: 'Unique in the file; shown in every report.' },
    edge: {
      type: 'string',
      pattern: '^tls_edges/[^/]+$',
      description: 'The TLS edge of the config the connection reaches: `tls_edges/<name>`.',
    },
    connection: {
      type: 'object',
      description:
        'The `conn.*` variables the connection sets, without `conn.`: nested maps or dotted names (`client_ip: 203.0.113.7`, `geo: { country_code: DE }`, `client_ip.is_on_blocklist: true`). Timestamps are RFC 3339 strings.',
    },
    variables: {
      type: 'object',
      description:
        'Other variables by their full name (`endpoint.port`, `time.now`, `conn.client_ip.geo.location.country_code`).',
    },
    expect: { enum: ['allow', 'deny'], description: 'Whether the connection is let in.' },
    by: {
      type: 'string',
      minLength: 1,
      description:
        "What must decide it: a rule of the edge's traffic policy by name, `ip_restriction` (or the IP policy whose rule decided), or `default` (nothing refused it).",
    },
  },
} as const;

export const trafficTestsSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://acctsync.dev/schemas/traffic-tests.schema.json',
  title: 'acctsync traffic tests',
  description:
    'Sample connections to the TLS edges of the desired state and the outcome each must get; run by `acctsync test-traffic CONFIG TESTS...` (docs/traffic-policy.md).',
  type: 'object',
  required: ['version', 'tests'],
  additionalProperties: false,
  properties: {
    version: { const: 1, description: 'Format version of this file; always 1.' },
    tests: { type: 'array', items: test },
  },
} as const;

/** The schema as the committed file holds it. */
export function trafficTestsSchemaText(): string {
  return `${JSON.stringify(trafficTestsSchema, null, 2)}\n`;
}
