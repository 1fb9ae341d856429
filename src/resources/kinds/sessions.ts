import { readOnly, refTo, t } from '../fields.js';
import type { KindDescriptor } from '../types.js';

export const tunnelSessions: KindDescriptor = {
  kind: 'tunnel_sessions',
  title: 'tunnel session',
  titlePlural: 'tunnel sessions',
  article: 'a',
  path: '/tunnel_sessions',
  listMember: 'tunnel_sessions',
  idPrefix: 'ts_',
  fields: {
    agent_version: readOnly(t.string(), 'Version of the agent that started the session.'),
    credential: readOnly(
      { type: 'ref', target: refTo('credentials', 'ssh_credentials'), many: false },
      'Tunnel or SSH credential used.',
    ),
    ip: readOnly(t.string(), 'Source IP of the session.'),
    metadata: readOnly(t.string(), 'User data from the agent configuration.'),
    os: readOnly(t.string(), 'Operating system of the agent host.'),
    region: readOnly(t.string(), 'Region in which the session started.'),
    started_at: readOnly(t.string(), 'When the session first connected.'),
    transport: readOnly(t.enumOf(['svc/v2', 'ssh']), 'Transport of the session.'),
  },
  rules: [],
  operations: { create: false, list: true, get: true, update: false, delete: false },
  hasCreatedAt: false,
};

/** Agent commands: `POST /tunnel_sessions/{id}/<command>` with `{}`, answered 204. */
export const tunnelSessionCommands = ['restart', 'stop', 'update'] as const;
export type TunnelSessionCommand = (typeof tunnelSessionCommands)[number];
