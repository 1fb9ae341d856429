/** What `acctsync serve --help` prints, and the flags it parses: loaded without the command. */
import { defineHelp } from '../command.js';

export const help = defineHelp({
  name: 'serve',
  synopsis: [
    'acctsync serve [--host 127.0.0.1] [--port 4010] [--token T] [--data FILE] [--rate-limit N/m] [--trust-proxy] [--echo]',
  ],
  description: 'Serves the whole Account Management API locally, with a control surface under /_emulator/.',
  flags: {
    host: { type: 'string', value: 'HOST', help: 'address to listen on (default 127.0.0.1)' },
    port: { type: 'string', value: 'PORT', help: 'port to listen on; 0 picks a free one (default 4010)' },
    token: {
      type: 'string',
      value: 'T',
      help: 'token of the bootstrap API key (default: generated and printed)',
    },
    data: {
      type: 'string',
      value: 'FILE',
      help: 'keep the state in FILE, loaded at start and saved atomically',
    },
    'rate-limit': { type: 'string', value: 'N/m', help: 'answer 429 beyond N requests per rolling minute' },
    'cert-delay': {
      type: 'string',
      value: 'D',
      help: 'how long a managed certificate takes to be issued, e.g. 500ms, 2s, 1m (default 2s)',
    },
    echo: {
      type: 'boolean',
      help: "answer what was written, as written, not as the vendor's examples show (for tests)",
    },
    'trust-proxy': {
      type: 'boolean',
      help: 'build the addresses in answers from X-Forwarded-Proto/-Host (a proxy you run)',
    },
  },
});
