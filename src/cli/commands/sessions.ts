/** `acctsync sessions`: list, inspect and command the account's tunnel sessions. */
import { UsageError } from '../../errors.js';
import { inert, inertQuoted } from '../../inert.js';
import { tunnelSessionCommands, type TunnelSessionCommand } from '../../resources/index.js';
import {
  commandSession,
  getSession,
  listSessions,
  restartAfterUpdateSeconds,
  sessionDetails,
  sessionsTable,
} from '../../sessions/index.js';
import { defineCommand } from '../command.js';
import { help, synopsis } from '../help/sessions.js';
import { openAccount, targetArguments, type AccountTarget } from '../account.js';
import type { Connection } from '../connection.js';

/** What each command's success means for the operator. */
const done: Record<TunnelSessionCommand, (id: string, target: AccountTarget) => string> = {
  restart: (id) => `restart sent to session ${id}: the agent reconnects with a new session id`,
  stop: (id) => `stop sent to session ${id}: the agent exits`,
  update: (id, target) =>
    `update started on session ${id}. Wait at least ${restartAfterUpdateSeconds} seconds, then run: acctsync sessions restart ${id}${targetArguments(target)}`,
};

function isCommand(value: string): value is TunnelSessionCommand {
  return (tunnelSessionCommands as readonly string[]).includes(value);
}

async function run(
  connection: Connection,
  target: AccountTarget,
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
    const message = done[action](sessionId, target);
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
    const [action = 'list', ...operands] = positionals;
    // Only `list` takes no session id: what follows the id (or `list`) is the config path.
    const id = action === 'list' ? undefined : operands[0];
    const paths = action === 'list' ? operands : operands.slice(1);
    if (values.output !== 'table' && values.output !== 'json') {
      throw new UsageError(`sessions: --output must be table or json, not ${values.output}`);
    }
    const { connection, target } = await openAccount('sessions', values, paths);
    try {
      await run(connection, target, action, id, values.output === 'json');
    } finally {
      await connection.close();
    }
    return 0;
  },
});
