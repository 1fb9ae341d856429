import { aclField, describable, field, ownerId, t, tokenField } from '../fields.js';
import { ErrorCode } from '../error-codes.js';
import type { KindDescriptor } from '../types.js';
import { crud } from './common.js';

export const apiKeys: KindDescriptor = {
  kind: 'api_keys',
  title: 'API key',
  titlePlural: 'API keys',
  article: 'an',
  path: '/api_keys',
  listMember: 'keys',
  idPrefix: 'ak_',
  fields: { ...describable(), owner_id: ownerId, token: tokenField },
  rules: [],
  operations: crud,
  eventStem: 'api_key',
  tokenField: 'token',
  authenticatesClient: true,
  config: { key: 'api_keys' },
  hasCreatedAt: true,
};

export const credentials: KindDescriptor = {
  kind: 'credentials',
  title: 'tunnel credential',
  titlePlural: 'tunnel credentials',
  article: 'a',
  path: '/credentials',
  listMember: 'credentials',
  idPrefix: 'cr_',
  fields: { ...describable(), acl: aclField, owner_id: ownerId, token: tokenField },
  rules: [],
  operations: crud,
  eventStem: 'tunnel_credential',
  tokenField: 'token',
  config: { key: 'credentials' },
  hasCreatedAt: true,
};

export const sshCredentials: KindDescriptor = {
  kind: 'ssh_credentials',
  title: 'SSH credential',
  titlePlural: 'SSH credentials',
  article: 'an',
  path: '/ssh_credentials',
  listMember: 'ssh_credentials',
  idPrefix: 'sshcr_',
  fields: {
    ...describable(),
    acl: aclField,
    public_key: field(
      t.string({ format: 'ssh-public-key' }),
      'Public key of the SSH keypair (OpenSSH format).',
      {
        write: 'immutable',
        required: true,
      },
    ),
    owner_id: ownerId,
  },
  rules: [],
  operations: crud,
  naturalKey: { fields: ['public_key'], claim: { space: 'ssh_public_key', code: ErrorCode.sshKeyExists } },
  eventStem: 'ssh_public_key',
  config: { key: 'ssh_credentials' },
  hasCreatedAt: true,
};
