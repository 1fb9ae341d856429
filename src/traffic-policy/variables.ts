/**
 * The platform's traffic-policy variables a TLS edge's expressions can read, as documented in its
 * public traffic-policy reference. One row per variable; the checker declares exactly these, so a
 * name that is not here is refused. Types are CEL's: the reference's `int32`/`int64` are `int`,
 * `[]string` is `list<string>`, `timestamp` is `google.protobuf.Timestamp`.
 */

/** Where a row was taken from (the reference page). */
const docs = 'https://ngrok.com/docs/traffic-policy';
const connection = `${docs}/variables/connection`;
const ipIntel = `${docs}/variables/ip-intel`;
const endpoint = `${docs}/variables/endpoint`;
const time = `${docs}/variables/time`;
const actionResults = `${docs}/variables/action`;
const terminateTls = `${docs}/actions/terminate-tls`;
const setVars = `${docs}/actions/set-vars`;

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
const distinguishedName = (prefix: string, source: string): PolicyVariable[] => [
  row(prefix, 'string', source),
  row(`${prefix}.common_name`, 'string', source),
  ...[
    'country',
    'locality',
    'organization',
    'organizational_unit',
    'postal_code',
    'province',
    'street_address',
  ].map((m) => row(`${prefix}.${m}`, 'list<string>', source)),
];

/** A certificate of the handshake: the client's (mutual TLS, with its PEM) or the server's. */
const certificate = (prefix: string, pem: boolean, source = connection): PolicyVariable[] => [
  row(`${prefix}.extensions`, 'list<Extension>', source),
  ...(pem ? [row(`${prefix}.pem`, 'string', source)] : []),
  ...distinguishedName(`${prefix}.issuer`, source),
  ...distinguishedName(`${prefix}.subject`, source),
  row(`${prefix}.san`, 'string', source),
  ...['dns_names', 'email_addresses', 'ip_addresses', 'uris'].map((m) =>
    row(`${prefix}.san.${m}`, 'list<string>', source),
  ),
  row(`${prefix}.serial_number`, 'string', source),
  row(`${prefix}.signature_algorithm`, 'string', source),
  row(`${prefix}.validity.not_after`, 'google.protobuf.Timestamp', source),
  row(`${prefix}.validity.not_before`, 'google.protobuf.Timestamp', source),
];

const geoLocation = (prefix: string, members: readonly string[]): PolicyVariable[] =>
  members.map((m) => row(`${prefix}.${m}`, m === 'is_eu' ? 'bool' : 'string', ipIntel));

/** What the IP intelligence reference gives for `conn.client_ip` and `conn.server_ip` alike. */
const ipIntelligence = (ip: string): PolicyVariable[] => [
  row(`${ip}.categories`, 'list<string>', ipIntel),
  row(`${ip}.is_on_blocklist`, 'bool', ipIntel),
  row(`${ip}.is_tor_node`, 'bool', ipIntel),
  row(`${ip}.as.number`, 'int', ipIntel),
  row(`${ip}.as.organization`, 'string', ipIntel),
  ...geoLocation(`${ip}.geo.location`, [
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
  ...geoLocation(`${ip}.geo.registered_location`, [
    'city',
    'continent',
    'country',
    'country_code',
    'is_eu',
    'metro_code',
    'subdivision',
    'timezone',
  ]),
];

export const policyVariables: readonly PolicyVariable[] = [
  row('conn.bytes_in', 'int'),
  row('conn.bytes_out', 'int'),
  row('conn.client_ip', 'string'),
  row('conn.client_port', 'int'),
  row('conn.server_ip', 'string'),
  row('conn.server_port', 'int'),
  row('conn.server_region', 'string'),
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
  row('conn.k8s.pod.id', 'string'),
  row('conn.k8s.pod.metadata.name', 'string'),
  row('conn.k8s.pod.metadata.namespace', 'string'),
  row('conn.k8s.pod.metadata.annotations', 'map<string, string>'),
  row('conn.k8s.pod.metadata.error_code', 'string'),
  row('conn.k8s.pod.metadata.error_message', 'string'),
  ...ipIntelligence('conn.client_ip'),
  ...ipIntelligence('conn.server_ip'),
  ...['addr', 'host', 'id', 'protocol', 'url'].map((m) => row(`endpoint.${m}`, 'string', endpoint)),
  row('endpoint.port', 'int', endpoint),
  // The reference types it a string (RFC 3339), not a timestamp.
  row('time.now', 'string', time),
  row('actions.ngrok.log.metadata', 'map<string, dyn>', actionResults),
  ...['action', 'matched_cidr', 'error.code', 'error.message'].map((m) =>
    row(`actions.ngrok.restrict_ips.${m}`, 'string', actionResults),
  ),
  ...['cipher_suite', 'error_code', 'error_message', 'sni', 'version'].map((m) =>
    row(`actions.ngrok.terminate_tls.${m}`, 'string', terminateTls),
  ),
  row('actions.ngrok.terminate_tls.warnings', 'list<string>', terminateTls),
  ...certificate('actions.ngrok.terminate_tls.client', false, terminateTls),
  ...certificate('actions.ngrok.terminate_tls.server', false, terminateTls),
  // Each `set-vars` action names its own variables: any member, of any CEL type.
  row('vars', 'map<string, dyn>', setVars),
];

/** The element type of `conn.tls.{client,server}.extensions`, with its documented members. */
export const policyTypes: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Extension: { id: 'string', critical: 'bool', value: 'bytes' },
};
