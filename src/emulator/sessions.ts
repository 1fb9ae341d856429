/**
 * Simulated agents and their tunnel sessions. The control surface connects agents; the API lists
 * online sessions and commands them, following the spec's state table for `update`.
 */
import { descriptors, ErrorCode, tunnelSessionCommands, type KindDescriptor } from '../resources/index.js';
import type { Account } from './account.js';
import type { Handler } from './call.js';
import type { StoredRecord } from './collection.js';
import { locate } from './crud.js';
import { publish } from './events.js';
import { ApiFailure, badRequest, notFound } from './failure.js';
import { updateStates, type Agent, type UpdateState } from './model.js';
import { isPlainObject } from '../plain-object.js';

const sessionKind: KindDescriptor = descriptors.tunnel_sessions;

function major(version: string): string {
  return version.split('.')[0] ?? '';
}

/** The next minor version of the same major: what an available update installs. */
function nextMinor(version: string): string {
  const [maj = '3', min = '0'] = version.split('.');
  return `${maj}.${Number(min) + 1}.0`;
}

function startSession(account: Account, agent: Agent): StoredRecord {
  const id = account.ids.next(sessionKind.idPrefix ?? 'ts_');
  const credentialKind = account.find(agent.credential_id)?.d.kind;
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
      transport: credentialKind === 'ssh_credentials' ? 'ssh' : 'svc/v2',
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

function stringMember(body: Record<string, unknown>, name: string, fallback: string): string {
  const value = body[name] ?? fallback;
  if (typeof value !== 'string')
    throw badRequest(ErrorCode.invalidValue, `${name} must be a string`, { field: name });
  return value;
}

/** Connects a simulated agent: `POST /_emulator/agents`. */
export const connectAgent: Handler = ({ account, body }) => {
  if (!isPlainObject(body)) throw badRequest(ErrorCode.invalidValue, 'the body must be a JSON object');
  const allowed = [
    'credential_id',
    'os',
    'agent_version',
    'update_version',
    'region',
    'labels',
    'ip',
    'metadata',
    'update',
  ];
  const unknown = Object.keys(body).find((k) => !allowed.includes(k));
  if (unknown !== undefined)
    throw badRequest(ErrorCode.unknownField, `unknown field ${unknown}`, { field: unknown });
  const credentialId = stringMember(body, 'credential_id', '');
  const credential = account.find(credentialId);
  if (credential === undefined || !['credentials', 'ssh_credentials'].includes(credential.d.kind)) {
    throw badRequest(ErrorCode.badReference, `credential_id: no tunnel or SSH credential ${credentialId}`, {
      field: 'credential_id',
    });
  }
  const labels = body.labels ?? {};
  if (!isPlainObject(labels) || Object.values(labels).some((v) => typeof v !== 'string')) {
    throw badRequest(ErrorCode.invalidValue, 'labels must be a map of strings', { field: 'labels' });
  }
  const update = stringMember(body, 'update', 'none');
  if (!(updateStates as readonly string[]).includes(update)) {
    throw badRequest(ErrorCode.invalidValue, `update must be one of ${updateStates.join(', ')}`, {
      field: 'update',
    });
  }
  const agentVersion = stringMember(body, 'agent_version', '3.18.0');
  const agent: Agent = {
    id: account.ids.next('agt_'),
    credential_id: credentialId,
    os: stringMember(body, 'os', 'linux'),
    agent_version: agentVersion,
    update_version: stringMember(body, 'update_version', nextMinor(agentVersion)),
    region: stringMember(body, 'region', 'us'),
    labels: labels as Record<string, string>,
    ip: stringMember(body, 'ip', '203.0.113.10'),
    metadata: stringMember(body, 'metadata', ''),
    update: update as UpdateState,
    status: 'online',
    session_id: null,
    sessions: [],
    commands: [],
  };
  account.agents.set(agent.id, agent);
  const session = startSession(account, agent);
  return { status: 201, body: { agent, session: account.render(sessionKind, session) } };
};

/** Changes a simulated agent's update state (an update finishing): `PATCH /_emulator/agents/{id}`. */
export const patchAgent: Handler = ({ account, params, body }) => {
  const agent = account.agents.get(params.id ?? '');
  if (agent === undefined) throw notFound();
  if (!isPlainObject(body)) throw badRequest(ErrorCode.invalidValue, 'the body must be a JSON object');
  const unknown = Object.keys(body).find((k) => k !== 'update');
  if (unknown !== undefined)
    throw badRequest(ErrorCode.unknownField, `unknown field ${unknown}`, { field: unknown });
  const update = body.update;
  if (typeof update !== 'string' || !(updateStates as readonly string[]).includes(update)) {
    throw badRequest(ErrorCode.invalidValue, `update must be one of ${updateStates.join(', ')}`, {
      field: 'update',
    });
  }
  agent.update = update as UpdateState;
  account.onChange();
  return { status: 200, body: agent };
};

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
export function commandHandler(command: (typeof tunnelSessionCommands)[number]): Handler {
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
      startSession(account, agent);
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

export { tunnelSessionCommands };
