/** What `acctsync plan --help` prints, and the flags it parses: loaded without the command. */
import { defineHelp } from '../command.js';
import { environmentOptions } from '../environment.js';
import { filesRootOptions } from '../files-root.js';
import {
  connectionOptions,
  deadlineOptions,
  planOutputOptions,
  planningOptions,
  policyOptions,
  sampleTrafficTestsOptions,
} from '../shared-flags.js';

const flags = {
  ...planOutputOptions,
  ...planningOptions,
  ...environmentOptions,
  ...filesRootOptions,
  'all-envs': {
    type: 'boolean',
    default: false,
    help: 'plan every declared environment, each against its own account, in one report',
  },
  ...connectionOptions,
  ...policyOptions,
  ...sampleTrafficTestsOptions,
  ...deadlineOptions,
} as const;

export const help = defineHelp({
  name: 'plan',
  synopsis: ['acctsync plan [PATH...] [options]'],
  description: `Compares the desired state in PATH (files or directories; default account/ or acctsync.yaml)
with the live account and prints the changes a sync would make. Changes nothing.`,
  flags,
  notes: 'With GITHUB_STEP_SUMMARY set, the markdown rendering is appended to that file.',
});
