/** What `acctsync sync --help` prints, and the flags it parses: loaded without the command. */
import { defineHelp } from '../command.js';
import { environmentOptions } from '../environment.js';
import { filesRootOptions } from '../files-root.js';
import {
  connectionOptions,
  deadlineOptions,
  executionFlags,
  leaseOptions,
  planOutputOptions,
  planningOptions,
  policyOptions,
  sampleTrafficTestsOptions,
} from '../shared-flags.js';

const flags = {
  'dry-run': {
    type: 'boolean',
    default: false,
    help: "print the plan and change nothing (same output as 'acctsync plan')",
  },
  yes: {
    type: 'boolean',
    default: false,
    help: 'do not ask before deleting or replacing (asked only on a terminal)',
  },
  ...planningOptions,
  'recapture-tokens': {
    type: 'boolean',
    default: false,
    help: 'replace managed API keys and credentials whose token is not in the\n--token-output file, saving the new token (without it they are reported)',
  },
  ...environmentOptions,
  ...filesRootOptions,
  ...policyOptions,
  ...sampleTrafficTestsOptions,
  ...executionFlags,
  output: {
    ...executionFlags.output,
    value: 'text|json|markdown',
    help: 'result format (json: see docs/apply.md); with --dry-run, the plan rendering',
  },
  out: { ...planOutputOptions.out, help: 'with --dry-run, also save the JSON plan' },
  'no-graph': {
    ...planOutputOptions['no-graph'],
    help: 'with --dry-run --output markdown: leave the change graph (mermaid) out',
  },
  'detailed-exitcode': {
    ...planOutputOptions['detailed-exitcode'],
    help: 'with --dry-run: exit 0 without changes, 2 with changes, 1 on error or a plan sync would refuse',
  },
  ...leaseOptions,
  ...connectionOptions,
  ...deadlineOptions,
} as const;

export const help = defineHelp({
  name: 'sync',
  synopsis: ['acctsync sync [PATH...] [options]'],
  description: `Plans like 'acctsync plan', refuses risky plans (see --force), prints the plan, then applies it:
independent operations run concurrently, dependants after what they depend on. Exit 0 when every
operation is done, 1 when any failed or was not attempted.`,
  flags,
});
