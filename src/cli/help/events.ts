/** What `acctsync events --help` prints, and the flags it parses: loaded without the command. */
import { defineHelp } from '../command.js';
import { environmentOptions } from '../environment.js';
import { accountConnectionOptions } from '../shared-flags.js';

export const help = defineHelp({
  name: 'events',
  synopsis: ['acctsync events [PATH...] [--follow] [--output text|json] [--env NAME] [connection options]'],
  description: `Shows the event deliveries the acctsync emulator recorded: one line per event and destination.
Works only against the emulator: --api-url embedded, or the address of a running one (SVC_API_URL,
or the variable the environment --env names in the config at PATH).`,
  flags: {
    follow: {
      type: 'boolean',
      default: false,
      help: 'keep watching and print new deliveries as they are recorded (Ctrl-C to stop)',
    },
    output: {
      type: 'string',
      default: 'text',
      value: 'F',
      help: 'text (default) or json (one JSON object per line)',
    },
    ...environmentOptions,
    ...accountConnectionOptions,
  },
});
