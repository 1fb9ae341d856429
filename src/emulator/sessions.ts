/**
 * Tunnel sessions of simulated agents (`agents.ts` connects them): the API lists online sessions
 * and commands them, following the spec's state table for `update`.
 */
import {
  descriptors,
  ErrorCode,
  tunnelSessionCommands,
  type KindDescriptor,
  type TunnelSessionCommand,
} from '../resources/index.js';
import type { Account } from './account.js';
import type { Handler } from './call.js';
import type { StoredRecord } from './collection.js';
import { locate } from './locate.js';
import { publish } from './events.js';
import { ApiFailure, badRequest, notFound } from './failure.js';
import type { Agent, SessionTransport } from './model.js';
import { apiRoute, type Route } from './router.js';
import { isPlainObject } from '../plain-object.js';

const sessionKind: KindDescriptor = descriptors.tunnel_sessions;

function major(version: string): string {
  return version.split('.')[0] ?? '';
}

/** Starts the agent's session over `transport` (the agent's credential decides which). */
export function startSession(account: Account, agent: Agent, transport: SessionTransport): StoredRecord {
  const id = account.ids.next(sessionKind.idPrefix ?? 'ts_');
  const record: StoredRecord = {
    id,
    values: {
      agent_version: agent.agent_version,
      credential: agent.credential_id,
      ip: agent.ip,
      metadata: agent.metadata,
      os: agent.os,
      region: agent.region,
      started_at: account.timestamp(),
      transport,
    },
    hidden: { agent_id: agent.id, labels: agent.labels },
  };
  account.insert(sessionKind, record);
  agent.session_id = id;
  agent.sessions.push(id);
  agent.status = 'online';
  publish(account, 'agent_session_start.v0', account.render(sessionKind, record));
  return record;
}

function endSession(account: Account, agent: Agent): void {
  const record =
    agent.session_id === null ? undefined : account.collection('tunnel_sessions').get(agent.session_id);
  if (record === undefined) return;
  const out = account.render(sessionKind, record);
  account.remove(sessionKind, record);
  agent.session_id = null;
  publish(account, 'agent_session_stop.v0', out);
}

/** Why an update command is refused, per the spec's state table; undefined when it proceeds. */
function updateRefusal(agent: Agent): string | undefined {
  switch (agent.update) {
    case 'none':
      return 'no update is available';
    case 'disabled':
      return 'update checks are disabled in the agent configuration';
    case 'updating':
      return 'the agent is already updating';
    case 'updated':
      return 'the agent already updated and was not restarted yet';
    case 'available':
      return major(agent.update_version) === major(agent.agent_version)
        ? undefined
        : 'no update is available within the agent major version';
  }
}

function refuse(agent: Agent, command: string, sessionId: string, at: string, reason: string): never {
  agent.commands.push({ command, session_id: sessionId, at, outcome: 'refused', reason });
  throw new ApiFailure(400, ErrorCode.agentCommandRefused, `${command} refused: ${reason}`, { reason });
}

/** `POST /tunnel_sessions/{id}/<command>` with `{}`. */
function commandHandler(command: TunnelSessionCommand): Handler {
  return (call) => {
    const { account } = call;
    const { record } = locate(call, sessionKind);
    if (isPlainObject(call.body)) {
      const unknown = Object.keys(call.body)[0];
      if (unknown !== undefined)
        throw badRequest(ErrorCode.unknownField, `unknown field ${unknown}`, { field: unknown });
    }
    const agent = account.agents.get(String(record.hidden.agent_id));
    if (agent === undefined) throw notFound();
    const at = account.timestamp();
    if (command === 'restart') {
      // Restart re-executes the agent binary, which the platform cannot do on Windows.
      if (agent.os.toLowerCase().startsWith('windows'))
        refuse(agent, command, record.id, at, 'restart is not supported on Windows');
      endSession(account, agent);
      if (agent.update === 'updated') {
        agent.agent_version = agent.update_version;
        agent.update = 'none';
      }
      // The agent reconnects with the same credential, so over the same transport.
      startSession(account, agent, record.values.transport as SessionTransport);
    } else if (command === 'stop') {
      endSession(account, agent);
      agent.status = 'stopped';
    } else {
      const reason = updateRefusal(agent);
      if (reason !== undefined) refuse(agent, command, record.id, at, reason);
      agent.update = 'updating';
    }
    agent.commands.push({ command, session_id: record.id, at, outcome: 'done' });
    account.onChange();
    return { status: 204 };
  };
}

/** Online sessions whose labels include every label of a tunnel group backend. */
export function matchingSessions(account: Account, labels: unknown): string[] {
  if (!isPlainObject(labels) || Object.keys(labels).length === 0) return [];
  return account
    .collection('tunnel_sessions')
    .all()
    .filter((s) => {
      const own = s.hidden.labels;
      return isPlainObject(own) && Object.entries(labels).every(([k, v]) => own[k] === v);
    })
    .map((s) => s.id);
}

/** The commands of a tunnel session, each its own endpoint. */
export function sessionCommandRoutes(d: KindDescriptor): Route[] {
  return tunnelSessionCommands.map((command) =>
    apiRoute('POST', `${d.path}/{id}/${command}`, commandHandler(command)),
  );
}
