/**
 * Tunnel sessions: list, inspect, and command their agents. The API refuses some commands by the
 * rules of the spec's state table; `commandSession` turns each refusal into a message that says why
 * and what to do, keyed on the service's message since the failure code is not specific.
 */
import { compare } from '../compare.js';
import { ApiError, isNotFound, type ApiClient } from '../api/index.js';
import { UserError } from '../errors.js';
import { descriptors, type TunnelSessionCommand } from '../resources/index.js';
import { restartAfterUpdateSeconds, type TunnelSession } from './session.js';

const sessionKind = descriptors.tunnel_sessions;

export { restartAfterUpdateSeconds } from './session.js';

/** Online sessions (the API lists no others), oldest first. */
export async function listSessions(client: ApiClient): Promise<TunnelSession[]> {
  const sessions = await client.listAll<TunnelSession>(sessionKind.path, sessionKind.listMember ?? '');
  return sessions.sort((a, b) => compare(a.started_at, b.started_at));
}

export async function getSession(client: ApiClient, id: string): Promise<TunnelSession> {
  try {
    return (await client.get<TunnelSession>(`${sessionKind.path}/${encodeURIComponent(id)}`)).body;
  } catch (err) {
    throw explain(err, id, 'show');
  }
}

/**
 * Sends `command` to the agent of session `id`. Resolves once the API accepted it (204); throws a
 * `UserError` explaining a refusal.
 */
export async function commandSession(
  client: ApiClient,
  id: string,
  command: TunnelSessionCommand,
): Promise<void> {
  try {
    await client.post(`${sessionKind.path}/${encodeURIComponent(id)}/${command}`, {});
  } catch (err) {
    throw explain(err, id, command);
  }
}

/**
 * The spec's refusals, matched on the service's message, each with what to do about it. Order
 * matters: "already updating" must win over the broader "updated" pattern.
 */
const refusals: ReadonlyArray<{ readonly pattern: RegExp; readonly message: string; readonly hint: string }> =
  [
    {
      pattern: /windows/i,
      message: 'restart is not supported on Windows agents: the platform cannot re-execute the agent there',
      hint: 'Restart the agent on its host (or its service manager), or stop it with acctsync sessions stop.',
    },
    {
      pattern: /disabled/i,
      message: 'update refused: update checks are disabled in the agent configuration',
      hint: 'Enable update checks in the agent configuration and restart the agent, then try again.',
    },
    {
      pattern: /already updating/i,
      message: 'update refused: the agent is already updating',
      hint: `Wait for the update to finish, then restart the session (at least ${restartAfterUpdateSeconds} seconds after the update).`,
    },
    {
      pattern: /updated|not (yet )?restarted/i,
      message: 'update refused: the agent already updated and has not been restarted yet',
      hint: 'Restart the session to run the new version: acctsync sessions restart <id>.',
    },
    {
      pattern: /no update|not available|major version/i,
      message: 'update refused: no update is available for this agent',
      hint: 'The agent already runs the newest version of its major version; updates never move to a new major version.',
    },
  ];

function explain(err: unknown, id: string, command: string): unknown {
  if (isNotFound(err)) {
    return new UserError(`no online tunnel session ${id}`, {
      details: [
        'The API lists online sessions only: a stopped or restarted agent has a new session id, or none.',
      ],
      cause: err,
    });
  }
  if (!(err instanceof ApiError) || (err.status !== 400 && err.status !== 409)) return err;
  const reason = typeof err.details.reason === 'string' ? err.details.reason : err.msg;
  const known = refusals.find((r) => r.pattern.test(reason));
  if (known === undefined) {
    return new UserError(`${command} of session ${id} refused: ${reason}`, { cause: err });
  }
  return new UserError(`${known.message} (session ${id})`, { details: [known.hint], cause: err });
}
export { sessionDetails, sessionsTable } from './render.js';
