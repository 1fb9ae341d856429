/**
 * The platform's traffic-policy variables a TLS edge's expressions can read, as documented in its
 * public traffic-policy reference. One row per variable; the checker declares exactly these, so a
 * name that is not here is refused. Types are CEL's: the reference's `int32`/`int64` are `int`,
 * `[]string` is `list<string>`, `timestamp` is `google.protobuf.Timestamp`.
 */

/** Where a row was taken from (the reference page). */
const connection = 'https://ngrok.com/docs/traffic-policy/variables/connection';
const ipIntel = 'https://ngrok.com/docs/traffic-policy/variables/ip-intel';

/** The phase in which a TLS edge evaluates its rules: the connection, before any byte is proxied. */
const tcpConnect = 'on_tcp_connect';

interface PolicyVariable {
  readonly name: string;
  /** The CEL type the checker declares it with. */
  readonly type: string;
  readonly phase: typeof tcpConnect;
  readonly source: string;
}

const row = (name: string, type: string, source = connection): PolicyVariable => ({
  name,
  type,
  phase: tcpConnect,
  source,
});

/** Members of a certificate's issuer and subject (`conn.tls.client.issuer.common_name`, ...). */
const distinguishedName = (prefix: string): PolicyVariable[] => [
  row(prefix, 'string'),
  row(`${prefix}.common_name`, 'string'),
  ...[
    'country',
    'locality',
    'organization',
    'organizational_unit',
    'postal_code',
    'province',
    'street_address',
  ].map((m) => row(`${prefix}.${m}`, 'list<string>')),
];

/** A certificate of the handshake: the client's (mutual TLS, with its PEM) or the server's. */
const certificate = (prefix: string, pem: boolean): PolicyVariable[] => [
  row(`${prefix}.extensions`, 'list<Extension>'),
  ...(pem ? [row(`${prefix}.pem`, 'string')] : []),
  ...distinguishedName(`${prefix}.issuer`),
  ...distinguishedName(`${prefix}.subject`),
  row(`${prefix}.san`, 'string'),
  ...['dns_names', 'email_addresses', 'ip_addresses', 'uris'].map((m) =>
    row(`${prefix}.san.${m}`, 'list<string>'),
  ),
  row(`${prefix}.serial_number`, 'string'),
  row(`${prefix}.signature_algorithm`, 'string'),
  row(`${prefix}.validity.not_after`, 'google.protobuf.Timestamp'),
  row(`${prefix}.validity.not_before`, 'google.protobuf.Timestamp'),
];

const geoLocation = (prefix: string, members: readonly string[]): PolicyVariable[] =>
  members.map((m) => row(`${prefix}.${m}`, m === 'is_eu' ? 'bool' : 'string', ipIntel));

export const policyVariables: readonly PolicyVariable[] = [
  row('conn.bytes_in', 'int'),
  row('conn.bytes_out', 'int'),
  row('conn.client_ip', 'string'),
  row('conn.client_port', 'int'),
  row('conn.server_ip', 'string'),
  row('conn.server_port', 'int'),
  row('conn.ts.start', 'google.protobuf.Timestamp'),
  ...['city', 'country', 'country_code', 'latitude', 'longitude', 'radius', 'subdivision'].map((m) =>
    row(`conn.geo.${m}`, 'string'),
  ),
  row('conn.tls.cipher_suite', 'string'),
  row('conn.tls.ja4_fingerprint', 'string'),
  row('conn.tls.negotiated_alpn', 'string'),
  row('conn.tls.session_resumed', 'bool'),
  row('conn.tls.sni', 'string'),
  row('conn.tls.version', 'string'),
  ...certificate('conn.tls.client', true),
  ...certificate('conn.tls.server', false),
  row('conn.client_ip.categories', 'list<string>', ipIntel),
  row('conn.client_ip.is_on_blocklist', 'bool', ipIntel),
  row('conn.client_ip.is_tor_node', 'bool', ipIntel),
  row('conn.client_ip.as.number', 'int', ipIntel),
  row('conn.client_ip.as.organization', 'string', ipIntel),
  ...geoLocation('conn.client_ip.geo.location', [
    'city',
    'continent',
    'country',
    'country_code',
    'is_eu',
    'latitude',
    'longitude',
    'metro_code',
    'postal_code',
    'radius',
    'subdivision',
    'timezone',
  ]),
  ...geoLocation('conn.client_ip.geo.registered_location', [
    'city',
    'continent',
    'country',
    'country_code',
    'is_eu',
    'metro_code',
    'subdivision',
    'timezone',
  ]),
  row('conn.server_ip.categories', 'list<string>', ipIntel),
  row('conn.server_ip.is_on_blocklist', 'bool', ipIntel),
  row('conn.server_ip.is_tor_node', 'bool', ipIntel),
];

/** The element type of `conn.tls.{client,server}.extensions`, with its documented members. */
export const policyTypes: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Extension: { id: 'string', critical: 'bool', value: 'bytes' },
};
