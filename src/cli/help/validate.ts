/** What `acctsync validate --help` prints, and the flags it parses: loaded without the command. */
import { defineHelp } from '../command.js';
import { environmentOptions } from '../environment.js';
import { filesRootOptions } from '../files-root.js';
import { policyOptions, trafficTestsOptions } from '../shared-flags.js';

export const help = defineHelp({
  name: 'validate',
  synopsis: ['acctsync validate [PATH...] [--env NAME]'],
  description: `Checks the desired state without contacting the API: structure, every rule and limit of the
service, references, duplicates and cycles. PATH is a YAML file or a directory of them; the
default is the directory account/ if it exists, else acctsync.yaml. A config that declares
environments is checked for each of them, or for the one --env names.`,
  flags: { ...environmentOptions, ...filesRootOptions, ...policyOptions, ...trafficTestsOptions },
  notes: `Exit status: 0 valid (and every traffic test passed), 1 invalid or a traffic test failed.
With GITHUB_ACTIONS=true, problems are also printed as workflow annotations.`,
});
