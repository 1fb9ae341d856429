import { describable, field, ref, refs, refTo, t } from '../fields.js';
import { ErrorCode } from '../error-codes.js';
import type { KindDescriptor } from '../types.js';
import { crud } from './common.js';

export const ipPolicies: KindDescriptor = {
  kind: 'ip_policies',
  title: 'IP policy',
  titlePlural: 'IP policies',
  article: 'an',
  path: '/ip_policies',
  listMember: 'ip_policies',
  idPrefix: 'ipp_',
  fields: describable(),
  rules: [],
  operations: crud,
  eventStem: 'ip_policy',
  config: { key: 'ip_policies' },
  hasCreatedAt: true,
};

export const ipPolicyRules: KindDescriptor = {
  kind: 'ip_policy_rules',
  title: 'IP policy rule',
  titlePlural: 'IP policy rules',
  article: 'an',
  path: '/ip_policy_rules',
  listMember: 'ip_policy_rules',
  idPrefix: 'ipr_',
  fields: {
    ...describable(),
    cidr: field(t.string({ format: 'cidr' }), 'IP or IP range in CIDR notation, IPv4 or IPv6.', {
      required: true,
    }),
    ip_policy: ref(refTo('ip_policies'), 'ip_policy_id', 'The policy the rule belongs to.', 'immutable', {
      required: true,
      nullable: false,
    }),
    action: field(t.enumOf(['allow', 'deny']), 'Allow or deny traffic from the CIDR.', {
      write: 'immutable',
      required: true,
    }),
  },
  rules: [],
  operations: crud,
  parent: { kind: 'ip_policies', via: 'field', field: 'ip_policy' },
  naturalKey: {
    fields: ['cidr'],
    perParent: true,
    claim: { space: 'ip_rule_cidr', code: ErrorCode.ruleCidrExists },
  },
  eventStem: 'ip_policy_rule',
  config: { key: 'ip_policies', nestedIn: { parentKind: 'ip_policies', member: 'rules' } },
  hasCreatedAt: true,
};

export const ipRestrictions: KindDescriptor = {
  kind: 'ip_restrictions',
  title: 'IP restriction',
  titlePlural: 'IP restrictions',
  article: 'an',
  path: '/ip_restrictions',
  listMember: 'ip_restrictions',
  idPrefix: 'ipx_',
  fields: {
    ...describable(),
    enforced: field(t.boolean(), 'true: enforced; false: only warnings are issued.', { default: false }),
    type: field(t.enumOf(['dashboard', 'api', 'agent', 'endpoints']), 'Which traffic is restricted.', {
      write: 'immutable',
      required: true,
    }),
    ip_policies: refs(refTo('ip_policies'), 'ip_policy_ids', 'IP policies used to enforce the restriction.'),
  },
  rules: [],
  operations: crud,
  eventStem: 'ip_restriction',
  config: { key: 'ip_restrictions' },
  hasCreatedAt: true,
};
