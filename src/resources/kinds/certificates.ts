import { certPolicy, certStatus, describable, field, pemDerivedFields, readOnly, t } from '../fields.js';
import { ErrorCode } from '../error-codes.js';
import { privateKeyBelongsToCertificate } from '../rules.js';
import type { KindDescriptor } from '../types.js';
import { crud } from './common.js';

export const certificateAuthorities: KindDescriptor = {
  kind: 'certificate_authorities',
  title: 'certificate authority',
  titlePlural: 'certificate authorities',
  article: 'a',
  path: '/certificate_authorities',
  listMember: 'certificate_authorities',
  idPrefix: 'ca_',
  fields: {
    ...describable(),
    ca_pem: field(t.string({ format: 'pem-certificate' }), 'Raw PEM of the CA certificate.', {
      write: 'immutable',
      required: true,
    }),
    ...pemDerivedFields,
  },
  rules: [],
  operations: crud,
  naturalKey: { fields: ['ca_pem'] },
  eventStem: 'certificate_authority',
  config: { key: 'certificate_authorities' },
  hasCreatedAt: true,
};

export const tlsCertificates: KindDescriptor = {
  kind: 'tls_certificates',
  title: 'TLS certificate',
  titlePlural: 'TLS certificates',
  article: 'a',
  path: '/tls_certificates',
  listMember: 'tls_certificates',
  idPrefix: 'cert_',
  fields: {
    ...describable(),
    certificate_pem: field(
      t.string({ format: 'pem-certificate-chain' }),
      'Chain of PEM certificates, leaf first.',
      { write: 'immutable', required: true },
    ),
    private_key_pem: field(
      t.string({ format: 'pem-private-key' }),
      'PEM private key of the leaf; never returned.',
      {
        write: 'immutable',
        required: true,
        writeOnly: true,
        secret: true,
      },
    ),
    ...pemDerivedFields,
    subject_alternative_names: readOnly(
      t.object({
        dns_names: readOnly(t.list(t.string()), 'DNS names, wildcards included.'),
        ips: readOnly(t.list(t.string()), 'IP addresses.'),
      }),
      'Subject alternative names of the leaf.',
    ),
    issued_at: readOnly(t.string(), 'Set when issued automatically; null when uploaded.', { nullable: true }),
    private_key_type: readOnly(t.enumOf(['rsa', 'ecdsa', 'ed25519']), 'Type of the private key.'),
    issuer_common_name: readOnly(t.string(), 'Issuer common name of the leaf.'),
    serial_number: readOnly(t.string({ format: 'serial-number' }), 'Serial number of the leaf, in hex.'),
    subject_organization: readOnly(t.string(), 'Subject O of the leaf.'),
    subject_organizational_unit: readOnly(t.string(), 'Subject OU of the leaf.'),
    subject_locality: readOnly(t.string(), 'Subject L of the leaf.'),
    subject_province: readOnly(t.string(), 'Subject ST of the leaf.'),
    subject_country: readOnly(t.string(), 'Subject C of the leaf.'),
  },
  rules: [privateKeyBelongsToCertificate('certificate_pem', 'private_key_pem')],
  operations: crud,
  naturalKey: { fields: ['certificate_pem'] },
  serviceOwnedWhenSet: 'issued_at',
  eventStem: 'tls_certificate',
  config: { key: 'tls_certificates' },
  hasCreatedAt: true,
};

export const agentIngresses: KindDescriptor = {
  kind: 'agent_ingresses',
  title: 'agent ingress',
  titlePlural: 'agent ingresses',
  article: 'an',
  path: '/agent_ingresses',
  listMember: 'ingresses',
  idPrefix: 'agin_',
  fields: {
    ...describable(),
    domain: field(
      t.string({ format: 'hostname' }),
      'Domain you own, base for the regional ingress domains.',
      {
        write: 'immutable',
        required: true,
      },
    ),
    ns_targets: readOnly(t.list(t.string()), 'NS record values that delegate the domain.'),
    region_domains: readOnly(t.list(t.string()), 'Regional agent ingress subdomains of the domain.'),
    certificate_management_policy: certPolicy,
    certificate_management_status: certStatus,
  },
  rules: [],
  operations: crud,
  naturalKey: { fields: ['domain'], claim: { space: 'domain', code: ErrorCode.domainReserved } },
  config: { key: 'agent_ingresses' },
  hasCreatedAt: true,
  uriIsPath: true,
};
