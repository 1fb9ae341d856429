/** `acctsync sync`: plan, check the guards, apply. `--dry-run` prints the plan exactly as `plan` does. */
import { tokenFileView } from '../../apply/token-output.js';
import { runSettingsFrom } from '../apply-flags.js';
import { runApply } from '../run-apply.js';
import { defineCommand } from '../command.js';
import { help } from '../help/sync.js';
import { confirmDestruction, mustConfirm } from '../confirm.js';
import { clientOptionsFor } from '../connection.js';
import { environmentName } from '../environment.js';
import { useFilesRoot } from '../files-root.js';
import { leaseFlagsFrom } from '../lease-flags.js';
import { planFromConfig } from '../planned.js';
import { reviewPlan } from '../review-plan.js';
import { assertPolicyAllows, policiesFrom, printPolicyAnnotations } from '../policy.js';
import { hasPolicyErrors } from '../../policy/index.js';
import { parsePlanFormat, planningSettings, renderPlan, useColor } from '../plan-output.js';

export const command = defineCommand({
  ...help,

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
        mayWrite: lease === undefined ? undefined : () => lease.check(),
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
