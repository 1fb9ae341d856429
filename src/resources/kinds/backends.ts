import { backendKinds, describable, field, idOf, readOnly, refTo, t } from '../fields.js';
import type { KindDescriptor } from '../types.js';
import { crud } from './common.js';

const backendBase = {
  rules: [],
  operations: crud,
  hasCreatedAt: true,
} as const;

export const httpResponseBackends: KindDescriptor = {
  ...backendBase,
  kind: 'http_response_backends',
  title: 'HTTP response backend',
  titlePlural: 'HTTP response backends',
  article: 'an',
  path: '/backends/http_response',
  listMember: 'backends',
  idPrefix: 'bkdhr_',
  fields: {
    ...describable('none'),
    body: field(t.string(), 'Fixed content returned.', { default: '' }),
    headers: field(
      { type: 'map', values: t.string(), lowerCaseKeys: true },
      'Headers returned; names come back lower-case.',
      {
        nullable: true,
        default: null,
      },
    ),
    status_code: field(t.int32(), 'Status code returned.', { required: true }),
  },
  config: { key: 'backends', variant: 'http_response' },
};

export const failoverBackends: KindDescriptor = {
  ...backendBase,
  kind: 'failover_backends',
  title: 'failover backend',
  titlePlural: 'failover backends',
  article: 'a',
  path: '/backends/failover',
  listMember: 'backends',
  idPrefix: 'bkdfo_',
  fields: {
    ...describable('none'),
    backends: field(
      { type: 'ref', target: idOf(...backendKinds), many: true },
      'Child backends, tried in order.',
      {
        default: [],
      },
    ),
  },
  config: { key: 'backends', variant: 'failover' },
};

export const tunnelGroupBackends: KindDescriptor = {
  ...backendBase,
  kind: 'tunnel_group_backends',
  title: 'tunnel group backend',
  titlePlural: 'tunnel group backends',
  article: 'a',
  path: '/backends/tunnel_group',
  listMember: 'backends',
  idPrefix: 'bkdtg_',
  fields: {
    ...describable('none'),
    labels: field(t.map(t.string()), 'Labels to watch for tunnels on.', { default: {} }),
    tunnels: readOnly(
      t.list({ type: 'ref', target: refTo('tunnel_sessions'), many: false }),
      'Tunnels currently matching.',
      {
        default: [],
      },
    ),
  },
  config: { key: 'backends', variant: 'tunnel_group' },
};

export const weightedBackends: KindDescriptor = {
  ...backendBase,
  kind: 'weighted_backends',
  title: 'weighted backend',
  titlePlural: 'weighted backends',
  article: 'a',
  path: '/backends/weighted',
  listMember: 'backends',
  idPrefix: 'bkdwd_',
  fields: {
    ...describable('none'),
    backends: field(
      t.map(t.int64(0, 10_000), idOf(...backendKinds)),
      'Child backend to weight (0 to 10000).',
      {
        default: {},
      },
    ),
  },
  config: { key: 'backends', variant: 'weighted' },
};
