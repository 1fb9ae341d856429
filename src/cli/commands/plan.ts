/** `acctsync plan`: what a sync would change, without changing anything. */
import { defineCommand } from '../command.js';
import { connectionOptions, deadlineOptions } from '../connection.js';
import { environmentName, environmentOptions } from '../environment.js';
import { filesRootOptions, useFilesRoot } from '../files-root.js';
import { planEveryEnvironment } from '../plan-environments.js';
import { planFromConfig } from '../planned.js';
import { policiesFrom, policyOptions } from '../policy.js';
import { reviewPlan } from '../review-plan.js';
import { parsePlanFormat, planOutputOptions, planningOptions, planningSettings } from '../plan-output.js';

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
  ...deadlineOptions,
} as const;

export const command = defineCommand({
  name: 'plan',
  summary: 'show what a sync would change (also: sync --dry-run)',
  synopsis: ['acctsync plan [PATH...] [options]'],
  description: `Compares the desired state in PATH (files or directories; default account/ or acctsync.yaml)
with the live account and prints the changes a sync would make. Changes nothing.`,
  flags,
  notes: 'With GITHUB_STEP_SUMMARY set, the markdown rendering is appended to that file.',

  async run(values, positionals) {
    useFilesRoot(values, process.env);
    const format = parsePlanFormat(values.output);
    if (values['all-envs']) return planEveryEnvironment(positionals, values, format);
    const policies = await policiesFrom(values);
    const { plan, desired, connection } = await planFromConfig({
      policies,
      paths: positionals,
      flags: values,
      env: process.env,
      environment: environmentName(values, process.env),
      ...planningSettings(values),
      deadline: true,
    });
    try {
      return await reviewPlan(plan, desired, {
        format,
        out: values.out,
        detailedExitcode: values['detailed-exitcode'],
      });
    } finally {
      await connection.close();
    }
  },
});
