/** What `acctsync apply --help` prints, and the flags it parses: loaded without the command. */
import { defineHelp } from '../command.js';
import { filesRootOptions } from '../files-root.js';
import {
  connectionOptions,
  deadlineOptions,
  executionFlags,
  leaseOptions,
  policyOptions,
  sampleTrafficTestsOptions,
} from '../shared-flags.js';

export const help = defineHelp({
  name: 'apply',
  synopsis: ['acctsync apply PLAN.json [options]'],
  description: `Re-reads the config paths recorded in the plan and the live account, and refuses when either
changed since the plan was made, or when a plan made now holds other requests (saying what
changed); otherwise sends exactly the saved plan's requests. Secrets are taken from the config
when each request is sent, never from the plan file (which holds none).`,
  flags: {
    ...executionFlags,
    ...filesRootOptions,
    ...leaseOptions,
    ...policyOptions,
    ...sampleTrafficTestsOptions,
    ...connectionOptions,
    ...deadlineOptions,
  },
});
