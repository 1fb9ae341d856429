import {
  certPolicy,
  certStatus,
  describable,
  description,
  field,
  metadata,
  readOnly,
  ref,
  refTo,
  regions,
  t,
} from '../fields.js';
import { reservedDomainCertificateExclusive } from '../rules.js';
import { ErrorCode } from '../error-codes.js';
import type { KindDescriptor } from '../types.js';
import { crud } from './common.js';

export const endpointConfigurations: KindDescriptor = {
  kind: 'endpoint_configurations',
  title: 'endpoint configuration',
  titlePlural: 'endpoint configurations',
  article: 'an',
  path: '/endpoint_configurations',
  listMember: 'endpoint_configurations',
  idPrefix: 'ec_',
  fields: {
    ...describable(),
    type: field(t.enumOf(['http', 'https', 'tcp']), 'Legacy endpoint configuration type.', {
      write: 'immutable',
      required: true,
    }),
  },
  rules: [],
  operations: crud,
  hasCreatedAt: true,
};

export const reservedAddrs: KindDescriptor = {
  kind: 'reserved_addrs',
  title: 'reserved address',
  titlePlural: 'reserved addresses',
  article: 'a',
  path: '/reserved_addrs',
  listMember: 'reserved_addrs',
  idPrefix: 'ra_',
  fields: {
    description: description('none'),
    metadata: metadata(),
    addr: readOnly(t.string(), '`hostname:port` assigned at creation.'),
    region: field(t.enumOf(regions), 'Region of the address.', { write: 'immutable', default: 'us' }),
    endpoint_configuration: ref(
      refTo('endpoint_configurations'),
      'endpoint_configuration_id',
      'Attached endpoint configuration.',
      'update-only',
      { default: null },
    ),
  },
  rules: [],
  operations: crud,
  eventStem: 'tcp_address',
  config: { key: 'reserved_addrs' },
  hasCreatedAt: true,
};

export const reservedDomains: KindDescriptor = {
  kind: 'reserved_domains',
  title: 'reserved domain',
  titlePlural: 'reserved domains',
  article: 'a',
  path: '/reserved_domains',
  listMember: 'reserved_domains',
  idPrefix: 'rd_',
  fields: {
    description: description('none'),
    metadata: metadata(),
    domain: field(t.string({ format: 'domain' }), 'The hostname reserved.', {
      write: 'immutable',
      required: true,
    }),
    region: field(t.enumOf(regions), 'Deprecated and ignored: traffic is handled globally.', {
      write: 'immutable',
      default: '',
      blankIsUnset: true,
      serviceIgnores: true,
    }),
    cname_target: readOnly(
      t.string(),
      'DNS CNAME target for a custom hostname; null under the platform domain.',
      {
        nullable: true,
      },
    ),
    certificate: ref(
      refTo('tls_certificates'),
      'certificate_id',
      'Uploaded TLS certificate; when automatic management is on, the service fills in the issued one.',
      'mutable',
      { default: null, serverFilled: { whileSet: 'certificate_management_policy' } },
    ),
    certificate_management_policy: certPolicy,
    certificate_management_status: certStatus,
    acme_challenge_cname_target: readOnly(t.string(), 'CNAME target for `_acme-challenge.<domain>`.', {
      nullable: true,
    }),
    http_endpoint_configuration: ref(
      refTo('endpoint_configurations'),
      'http_endpoint_configuration_id',
      'Legacy HTTP endpoint configuration.',
      'update-only',
      { default: null },
    ),
    https_endpoint_configuration: ref(
      refTo('endpoint_configurations'),
      'https_endpoint_configuration_id',
      'Legacy HTTPS endpoint configuration.',
      'update-only',
      { default: null },
    ),
  },
  rules: [reservedDomainCertificateExclusive],
  operations: crud,
  naturalKey: { fields: ['domain'], claim: { space: 'domain', code: ErrorCode.domainReserved } },
  eventStem: 'domain',
  config: { key: 'reserved_domains' },
  hasCreatedAt: true,
};
