/** Edge and route modules: singleton objects replaced with PUT and removed with DELETE under their owner. */
import { ErrorCode } from './error-codes.js';
import { backendKinds, enabled, field, readOnly, ref, refs, refTo, t } from './fields.js';
import {
  oauthClientCredentials,
  oauthExactlyOneProvider,
  oauthProviderMembers,
  upstreamTerminationHasNoMinVersion,
} from './rules.js';
import { policyRuleCompiles } from './policy-rules.js';
import type { Fields, ModuleDescriptor } from './types.js';

const tlsVersions = ['1.0', '1.1', '1.2', '1.3'] as const;

export const backendModule: ModuleDescriptor = {
  name: 'backend',
  title: 'backend module',
  fields: {
    enabled,
    backend: ref(refTo(...backendKinds), 'backend_id', 'The backend that serves the traffic.', 'mutable', {
      required: true,
      nullable: false,
    }),
  },
  rules: [],
};

export const ipRestrictionModule: ModuleDescriptor = {
  name: 'ip_restriction',
  title: 'IP restriction module',
  fields: {
    enabled,
    ip_policies: refs(refTo('ip_policies'), 'ip_policy_ids', 'IP policies enforced on the traffic.'),
  },
  rules: [],
};

export const mutualTlsModule: ModuleDescriptor = {
  name: 'mutual_tls',
  title: 'mutual TLS module',
  fields: {
    enabled,
    certificate_authorities: refs(
      refTo('certificate_authorities'),
      'certificate_authority_ids',
      'Certificate authorities validating client certificates.',
    ),
  },
  rules: [],
};

const minVersion = field(
  t.enumOf(tlsVersions),
  'Minimum TLS version advertised; a safe default when unset.',
  {
    nullable: true,
    default: null,
  },
);

export const tlsEdgeTlsTerminationModule: ModuleDescriptor = {
  name: 'tls_termination',
  title: 'TLS termination module',
  fields: {
    enabled,
    terminate_at: field(t.enumOf(['edge', 'upstream']), 'Where TLS is terminated.', { default: 'edge' }),
    min_version: minVersion,
  },
  rules: [upstreamTerminationHasNoMinVersion],
};

export const httpsEdgeTlsTerminationModule: ModuleDescriptor = {
  name: 'tls_termination',
  title: 'TLS termination module',
  fields: {
    enabled,
    min_version: minVersion,
    terminate_at: readOnly(t.enumOf(['edge']), 'Where TLS is terminated: always the edge here.', {
      default: 'edge',
    }),
  },
  rules: [],
};

const endpointRule = t.object(
  {
    name: field(t.string(), 'Name of the rule.', { default: '' }),
    expressions: field(
      t.list(t.string(), true),
      'CEL expressions selecting the traffic the rule applies to.',
      {
        default: [],
      },
    ),
    actions: field(
      t.list(
        t.object({
          type: field(t.string({ minLength: 1 }), 'Action type (`log`, `deny`, ...).', { required: true }),
          config: field(t.json(), 'Action configuration.', { nullable: true, default: null }),
        }),
        true,
      ),
      'Actions applied to matching traffic, in order.',
      { default: [] },
    ),
  },
  [policyRuleCompiles],
);

export const policyModule: ModuleDescriptor = {
  name: 'policy',
  title: 'traffic policy module',
  fields: {
    enabled,
    inbound: field(t.list(endpointRule, true), 'Rules applied to inbound traffic, in order.', {
      default: [],
    }),
    outbound: field(t.list(endpointRule, true), 'Rules applied to outbound traffic, in order.', {
      nullable: true,
      default: null,
    }),
  },
  rules: [],
};

export const circuitBreakerModule: ModuleDescriptor = {
  name: 'circuit_breaker',
  title: 'circuit breaker module',
  fields: {
    enabled,
    tripped_duration: field(
      t.uint32(),
      'Seconds to wait after tripping before re-evaluating upstream health.',
      {
        default: 0,
      },
    ),
    rolling_window: field(t.uint32(), 'Seconds of the statistical window.', { default: 0 }),
    num_buckets: field(t.uint32(128), 'Buckets of the rolling window (at most 128).', { default: 0 }),
    volume_threshold: field(t.uint32(), 'Requests in a window needed to trip.', { default: 0 }),
    error_threshold_percentage: field(
      { type: 'number', min: 0, max: 1, errorCode: ErrorCode.errorThresholdRange },
      'Error ratio that trips the breaker, between 0 and 1.0 (not 0-100).',
      { default: 0 },
    ),
  },
  rules: [],
};

const sessionFields: Fields = {
  enabled,
  options_passthrough: field(t.boolean(), 'Do not enforce authentication on HTTP OPTIONS requests (CORS).', {
    default: false,
  }),
  cookie_prefix: field(t.string(), 'Prefix of the session cookie.', { default: 'svc.' }),
  inactivity_timeout: field(t.uint32(), 'Seconds of inactivity before re-authentication.', { default: 0 }),
  maximum_duration: field(t.uint32(), 'Maximum seconds of an authenticated session.', { default: 0 }),
};

const clientSecret = field(t.string(), 'OAuth client secret.', {
  secret: true,
  writeOnly: true,
  default: '',
});

export const oidcModule: ModuleDescriptor = {
  name: 'oidc',
  title: 'OIDC module',
  fields: {
    ...sessionFields,
    issuer: field(t.string({ format: 'url' }), 'Base URL of the OpenID provider, used for discovery.', {
      required: true,
    }),
    client_id: field(t.string(), 'Client ID and audience.', { required: true }),
    client_secret: { ...clientSecret, required: true },
    scopes: field(t.list(t.string()), 'Scopes requested.', { default: [] }),
  },
  rules: [],
};

const samlNameIdFormats = [
  'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
] as const;

export const samlModule: ModuleDescriptor = {
  name: 'saml',
  title: 'SAML module',
  fields: {
    ...sessionFields,
    idp_metadata: field(t.string(), 'Full XML IdP EntityDescriptor.', { default: '' }),
    force_authn: field(t.boolean(), 'The IdP must prompt for credentials even with a valid IdP session.', {
      default: false,
    }),
    // The service turns it on when a write leaves it out (the vendor's examples); acctsync sends its
    // own default, so the reviewer's plan decides.
    allow_idp_initiated: field(t.boolean(), 'The IdP may start a login.', {
      default: false,
      serviceDefault: true,
    }),
    authorized_groups: field(t.list(t.string()), 'Only members of these groups may access, when set.', {
      default: [],
    }),
    nameid_format: field(t.enumOf(samlNameIdFormats), 'NameID format requested.', {
      default: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    }),
    entity_id: readOnly(t.string(), 'Entity ID (the metadata URL).'),
    assertion_consumer_service_url: readOnly(t.string(), 'Assertion consumer service URL.'),
    single_logout_url: readOnly(t.string(), 'Single logout URL.'),
    request_signing_certificate_pem: readOnly(
      t.string(),
      'Certificate of the key signing requests to the IdP.',
    ),
    metadata_url: readOnly(t.string(), 'Service provider metadata URL.'),
    idp_metadata_url: readOnly(t.string(), 'Empty in responses.'),
  },
  rules: [],
};

const providerFields: Fields = {
  client_id: field(t.string(), 'OAuth client ID; unset uses the managed application.', {
    nullable: true,
    default: null,
  }),
  client_secret: { ...clientSecret, nullable: true },
  scopes: field(t.list(t.string()), 'Scopes; only with client_id and client_secret.', { default: [] }),
  email_addresses: field(t.list(t.string()), 'Allowed email addresses.', { default: [] }),
  email_domains: field(t.list(t.string()), 'Allowed email domains.', { default: [] }),
};

function provider(name: string, extra: Fields = {}) {
  return field(
    t.object({ ...providerFields, ...extra }, [oauthClientCredentials]),
    `Identity provider ${name}.`,
    {
      nullable: true,
      default: null,
    },
  );
}

export const oauthModule: ModuleDescriptor = {
  name: 'oauth',
  title: 'OAuth module',
  fields: {
    ...sessionFields,
    provider: field(
      t.object(
        Object.fromEntries(
          oauthProviderMembers.map((m) => [
            m,
            m === 'provider_a'
              ? provider(m, {
                  teams: field(t.list(t.string()), 'Allowed teams, as org/team.', { default: [] }),
                  organizations: field(t.list(t.string()), 'Allowed organization slugs.', { default: [] }),
                })
              : provider(m),
          ]),
        ),
        [oauthExactlyOneProvider],
      ),
      'The identity provider; exactly one member is set.',
      { required: true },
    ),
    auth_check_interval: field(t.uint32(), 'Seconds after which authorization is rechecked.', { default: 0 }),
  },
  rules: [],
};
