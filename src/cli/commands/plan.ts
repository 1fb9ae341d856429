/** `acctsync plan`: what a sync would change, without changing anything. */
import { parseCommandArgs } from '../args.js';
import type { Command } from '../command.js';
import { connectionOptions, deadlineOptions, waitUsage } from '../connection.js';
import { environmentName, environmentOptions } from '../environment.js';
import { filesRootOptions, filesRootUsage, useFilesRoot } from '../files-root.js';
import { planEveryEnvironment } from '../plan-environments.js';
import { planFromConfig } from '../planned.js';
import { policiesFrom, policyOptions, policyUsage } from '../policy.js';
import { reviewPlan } from '../review-plan.js';
import { parsePlanFormat, planOutputOptions, planningOptions, planningSettings } from '../plan-output.js';

const options = {
  ...connectionOptions,
  ...deadlineOptions,
  ...planOutputOptions,
  ...planningOptions,
  ...environmentOptions,
  ...filesRootOptions,
  ...policyOptions,
  'all-envs': { type: 'boolean', default: false },
} as const;

export const command: Command = {
  summary: 'show what a sync would change (also: sync --dry-run)',
  usage: `Usage: acctsync plan [PATH...] [options]

Compares the desired state in PATH (files or directories; default account/ or acctsync.yaml)
with the live account and prints the changes a sync would make. Changes nothing.

Options:
  --output text|json|markdown  Rendering on stdout (default text; json is documented in docs/plan-output.md)
  --out FILE                   Also save the JSON plan, for 'acctsync apply FILE'
  --detailed-exitcode          Exit 0 without changes, 2 with changes, 1 on error
  --adopt                      Take over unmanaged objects matching a desired one by natural key
  --no-delete                  Plan no deletion of managed objects that left the config
  --scope S                    Ownership scope (default: the config's scope)
  --unprotect KEY              Allow deleting or replacing the protected object KEY (repeatable)
  --env NAME                   The environment, for a config that declares them (default: ACCTSYNC_ENV)
${filesRootUsage}
  --all-envs                   Plan every declared environment, each against its own account, in one report
  --api-url URL                API address, or 'embedded' (default: SVC_API_URL, else embedded)
  --api-key-file FILE          File holding the API key (default: SVC_API_KEY)
  --rate-limit N/m             Pace requests below N per minute
${policyUsage}
${waitUsage}

With GITHUB_STEP_SUMMARY set, the markdown rendering is appended to that file.`,

  async run(argv) {
    const { values, positionals } = parseCommandArgs('plan', argv, options);
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
};
