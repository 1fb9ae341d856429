/** `acctsync sessions`: list, inspect and command the account's tunnel sessions. */
import { UsageError } from '../../errors.js';
import { inert, inertQuoted } from '../../inert.js';
import { tunnelSessionCommands, type TunnelSessionCommand } from '../../resources/index.js';
import { commandSession, getSession, listSessions, restartAfterUpdateSeconds } from '../../sessions/index.js';
import { sessionDetails, sessionsTable } from '../../sessions/render.js';
import { defineCommand } from '../command.js';
import { help, synopsis } from '../help/sessions.js';
import { openConnection, type Connection } from '../connection.js';

/** What each command's success means for the operator. */
const done: Record<TunnelSessionCommand, (id: string) => string> = {
  restart: (id) => `restart sent to session ${id}: the agent reconnects with a new session id`,
  stop: (id) => `stop sent to session ${id}: the agent exits`,
  update: (id) =>
    `update started on session ${id}. Wait at least ${restartAfterUpdateSeconds} seconds, then run: acctsync sessions restart ${id}`,
};

function isCommand(value: string): value is TunnelSessionCommand {
  return (tunnelSessionCommands as readonly string[]).includes(value);
}

async function run(
  connection: Connection,
  action: string,
  id: string | undefined,
  json: boolean,
): Promise<void> {
  const needId = (): string => {
    if (id === undefined)
      throw new UsageError(`sessions ${action}: missing the session id`, { details: [`Usage: ${synopsis}`] });
    return id;
  };
  if (action === 'list') {
    const sessions = await listSessions(connection.client);
    process.stdout.write(
      json
        ? `${inertQuoted(JSON.stringify({ tunnel_sessions: sessions }, null, 2))}\n`
        : sessionsTable(sessions),
    );
  } else if (action === 'show') {
    const session = await getSession(connection.client, needId());
    process.stdout.write(
      json ? `${inertQuoted(JSON.stringify(session, null, 2))}\n` : sessionDetails(session),
    );
  } else if (isCommand(action)) {
    const sessionId = needId();
    await commandSession(connection.client, sessionId, action);
    const message = done[action](sessionId);
    process.stdout.write(
      json
        ? `${inertQuoted(JSON.stringify({ session: sessionId, command: action, message }))}\n`
        : `${inert(message)}\n`,
    );
  } else {
    throw new UsageError(`sessions: unknown action ${action}`, { details: [`Usage: ${synopsis}`] });
  }
}

export const command = defineCommand({
  ...help,

  async run(values, positionals) {
    const [action = 'list', id, extra] = positionals;
    if (extra !== undefined)
      throw new UsageError(`sessions: unexpected argument ${extra}`, { details: [`Usage: ${synopsis}`] });
    if (values.output !== 'table' && values.output !== 'json') {
      throw new UsageError(`sessions: --output must be table or json, not ${values.output}`);
    }
    const connection = await openConnection({ flags: values, env: process.env, deadline: true });
    try {
      await run(connection, action, id, values.output === 'json');
    } finally {
      await connection.close();
    }
    return 0;
  },
});
