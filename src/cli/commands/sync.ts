/** `acctsync sync`: plan, check the guards, apply. `--dry-run` prints the plan exactly as `plan` does. */
import { tokenFileView } from '../../apply/token-output.js';
import { executionFlags, runSettingsFrom } from '../apply-flags.js';
import { runApply } from '../run-apply.js';
import { defineCommand } from '../command.js';
import { confirmDestruction, mustConfirm } from '../confirm.js';
import { clientOptionsFor, connectionOptions, deadlineOptions } from '../connection.js';
import { environmentName, environmentOptions } from '../environment.js';
import { filesRootOptions, useFilesRoot } from '../files-root.js';
import { leaseFlagsFrom, leaseOptions } from '../lease-flags.js';
import { planFromConfig } from '../planned.js';
import { reviewPlan } from '../review-plan.js';
import { assertPolicyAllows, policiesFrom, policyOptions, printPolicyAnnotations } from '../policy.js';
import { hasPolicyErrors } from '../../policy/index.js';
import {
  parsePlanFormat,
  planOutputOptions,
  planningOptions,
  planningSettings,
  renderPlan,
  useColor,
} from '../plan-output.js';

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
  ...executionFlags,
  output: {
    ...executionFlags.output,
    value: 'text|json|markdown',
    help: 'result format (json: see docs/apply.md); with --dry-run, the plan rendering',
  },
  out: { ...planOutputOptions.out, help: 'with --dry-run, also save the JSON plan' },
  'detailed-exitcode': {
    ...planOutputOptions['detailed-exitcode'],
    help: 'with --dry-run: exit 0 without changes, 2 with changes, 1 on error or a plan sync would refuse',
  },
  ...leaseOptions,
  ...connectionOptions,
  ...deadlineOptions,
} as const;

export const command = defineCommand({
  name: 'sync',
  summary: 'make the live account equal to the desired state (plan, then apply)',
  synopsis: ['acctsync sync [PATH...] [options]'],
  description: `Plans like 'acctsync plan', refuses risky plans (see --force), prints the plan, then applies it:
independent operations run concurrently, dependants after what they depend on. Exit 0 when every
operation is done, 1 when any failed or was not attempted.`,
  flags,

  async run(values, positionals) {
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
});
