/** `acctsync sync`: plan, check the guards, apply. `--dry-run` prints the plan exactly as `plan` does. */
import { tokenFileView } from '../../apply/token-output.js';
import { executionFlags, executionUsage, runSettingsFrom } from '../apply-flags.js';
import { runApply } from '../run-apply.js';
import { parseCommandArgs } from '../args.js';
import type { Command } from '../command.js';
import { confirmDestruction, mustConfirm } from '../confirm.js';
import { clientOptionsFor, connectionOptions, deadlineOptions, waitUsage } from '../connection.js';
import { environmentName, environmentOptions, environmentUsage } from '../environment.js';
import { filesRootOptions, filesRootUsage, useFilesRoot } from '../files-root.js';
import { leaseFlagsFrom, leaseOptions, leaseUsage } from '../lease-flags.js';
import { planFromConfig } from '../planned.js';
import { reviewPlan } from '../review-plan.js';
import {
  assertPolicyAllows,
  policiesFrom,
  policyOptions,
  policyUsage,
  printPolicyAnnotations,
} from '../policy.js';
import { hasPolicyErrors } from '../../policy/index.js';
import {
  parsePlanFormat,
  planOutputOptions,
  planningOptions,
  planningSettings,
  renderPlan,
  useColor,
} from '../plan-output.js';

const options = {
  ...connectionOptions,
  ...deadlineOptions,
  ...planOutputOptions,
  ...executionFlags,
  ...leaseOptions,
  'dry-run': { type: 'boolean', default: false },
  'recapture-tokens': { type: 'boolean', default: false },
  yes: { type: 'boolean', default: false },
  ...environmentOptions,
  ...filesRootOptions,
  ...planningOptions,
  ...policyOptions,
} as const;

export const command: Command = {
  summary: 'make the live account equal to the desired state (plan, then apply)',
  usage: `Usage: acctsync sync [PATH...] [options]

Plans like 'acctsync plan', refuses risky plans (see --force), prints the plan, then applies it:
independent operations run concurrently, dependants after what they depend on. Exit 0 when every
operation is done, 1 when any failed or was not attempted.

Options:
  --dry-run                   print the plan and change nothing (same output as 'acctsync plan')
  --yes                       do not ask before deleting or replacing (asked only on a terminal)
  --adopt                     take over unmanaged objects matching a desired one by natural key
  --no-delete                 delete nothing, apply everything else
  --recapture-tokens          replace managed API keys and credentials whose token is not in the
                              --token-output file, saving the new token (without it they are reported)
  --scope S                   ownership scope (default: the config's scope)
  --unprotect KEY             allow deleting or replacing the protected object KEY (repeatable)
${environmentUsage}
${filesRootUsage}
${policyUsage}
${executionUsage}
${leaseUsage}
  --api-url URL               API address, or 'embedded' (default: SVC_API_URL, else embedded)
  --api-key-file FILE         file holding the API key (default: SVC_API_KEY)
  --rate-limit N/m            pace requests below N per minute (the live API allows about 120)
${waitUsage}

With --dry-run, --output also takes markdown, and --out FILE and --detailed-exitcode work as for plan.`,

  async run(argv) {
    const { values, positionals } = parseCommandArgs('sync', argv, options);
    useFilesRoot(values, process.env);
    // Checked before connecting: a usage mistake must not cost an API call.
    const mode = values['dry-run']
      ? { dryRun: true as const, format: parsePlanFormat(values.output) }
      : {
          dryRun: false as const,
          settings: runSettingsFrom('sync', values),
          lease: { command: 'sync', flags: leaseFlagsFrom('sync', values) },
        };
    const tokens = await tokenFileView(values['token-output'], values['recapture-tokens']);
    const policies = await policiesFrom(values);
    const { plan, desired, connection, lease } = await planFromConfig({
      policies,
      paths: positionals,
      flags: values,
      env: process.env,
      environment: environmentName(values, process.env),
      ...planningSettings(values),
      deadline: true,
      tokens,
      ...(mode.dryRun ? {} : { client: clientOptionsFor(mode.settings.parallelism), lease: mode.lease }),
    });
    try {
      if (mode.dryRun) {
        return await reviewPlan(plan, desired, {
          format: mode.format,
          out: values.out,
          detailedExitcode: values['detailed-exitcode'],
          force: values.force,
        });
      }
      const { settings } = mode;
      printPolicyAnnotations(plan.policy, process.env, process.stderr);
      if (plan.policy !== undefined && hasPolicyErrors(plan.policy)) {
        process.stdout.write(renderPlan(plan, 'text', useColor(process.env, process.stdout.isTTY)));
        assertPolicyAllows(plan.policy);
      }
      const { exitCode } = await runApply(plan, desired, connection.client, settings, {
        stdout: process.stdout,
        stderr: process.stderr,
        stop: lease?.signal,
        beforeApply: async () => {
          if (settings.output === 'text')
            process.stdout.write(renderPlan(plan, 'text', useColor(process.env, process.stdout.isTTY)));
          const terminal = { input: process.stdin, output: process.stdout };
          if (mustConfirm(plan, terminal, values.yes)) await confirmDestruction(plan, terminal);
        },
      });
      return exitCode;
    } finally {
      await connection.close();
    }
  },
};
