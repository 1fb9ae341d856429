/**
 * Simulated agents, driven by the control surface: connecting one starts its tunnel session with
 * its credential; patching one changes where it stands on updates.
 */
import { descriptors, ErrorCode } from '../resources/index.js';
import type { Handler } from './call.js';
import { badRequest, notFound } from './failure.js';
import { kindBehaviour } from './kind-behaviour.js';
import { updateStates, type Agent, type UpdateState } from './model.js';
import { isPlainObject } from '../plain-object.js';
import { startSession } from './sessions.js';

/** The next minor version of the same major: what an available update installs. */
function nextMinor(version: string): string {
  const [maj = '3', min = '0'] = version.split('.');
  return `${maj}.${Number(min) + 1}.0`;
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
  const transport = credential === undefined ? undefined : kindBehaviour[credential.d.kind]?.agentTransport;
  if (transport === undefined) {
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
  const session = startSession(account, agent, transport);
  return { status: 201, body: { agent, session: account.render(descriptors.tunnel_sessions, session) } };
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
