/** What `acctsync sessions --help` prints, and the flags it parses: loaded without the command. */
import { defineHelp } from '../command.js';
import { restartAfterUpdateSeconds } from '../../sessions/session.js';
import { environmentOptions } from '../environment.js';
import { accountConnectionOptions, deadlineOptions } from '../shared-flags.js';

export const synopsis =
  'acctsync sessions <list | show ID | restart ID | stop ID | update ID> [PATH...] [--env NAME] [--output table|json]';

export const help = defineHelp({
  name: 'sessions',
  synopsis: [synopsis],
  description: `  list          online tunnel sessions
  show ID       one session
  restart ID    restart the agent (not on Windows); it reconnects with a new session id
  stop ID       stop the agent
  update ID     update the agent within its major version; restart it at least
                ${restartAfterUpdateSeconds} seconds later to run the new version

PATH is the config (default account/ or acctsync.yaml) whose environment --env names the account.`,
  flags: {
    output: { type: 'string', default: 'table', value: 'F', help: 'table (default) or json' },
    ...environmentOptions,
    ...accountConnectionOptions,
    ...deadlineOptions,
  },
});
