/** `acctsync apply plan.json`: runs a reviewed plan, only if nothing changed since it was made. */
import { runSettingsFrom } from '../apply-flags.js';
import { runApply } from '../run-apply.js';
import { checkSavedPlanCurrent, readSavedPlan } from '../../apply/saved-plan.js';
import { UsageError } from '../../errors.js';
import { defineCommand } from '../command.js';
import { help } from '../help/apply.js';
import { clientOptionsFor } from '../connection.js';
import { useFilesRoot } from '../files-root.js';
import { leaseFlagsFrom } from '../lease-flags.js';
import { planFromConfig } from '../planned.js';
import { renderPlan, useColor } from '../plan-output.js';
import { assertPolicyAllows, policiesFrom, printPolicyAnnotations } from '../policy.js';

export const command = defineCommand({
  ...help,

  async run(values, positionals) {
    useFilesRoot(values, process.env);
    const [file, ...extra] = positionals;
    if (file === undefined || extra.length > 0) {
      throw new UsageError('apply takes exactly one argument, the plan file', {
        details: ['Save one with: acctsync plan --out plan.json'],
      });
    }
    const settings = runSettingsFrom('apply', values);
    const leaseFlags = leaseFlagsFrom('apply', values);
    const saved = await readSavedPlan(file);
    const policies = await policiesFrom(values);
    // The config and account the plan was made for: its environment's, whatever ACCTSYNC_ENV says.
    const fresh = await planFromConfig({
      paths: saved.configPaths,
      flags: values,
      env: process.env,
      environment: saved.options.environment,
      scope: saved.scope,
      adopt: saved.options.adopt,
      noDelete: saved.options.noDelete,
      // Protection is checked again on the fresh plan: a saved plan cannot carry a deletion past it.
      unprotect: (saved.options.unprotect ?? []).filter((k): k is string => typeof k === 'string'),
      deadline: true,
      client: clientOptionsFor(settings.parallelism),
      lease: { command: 'apply', flags: leaseFlags },
      policies,
    });
    const { connection } = fresh;
    try {
      checkSavedPlanCurrent(saved, fresh.plan);
      // The rules are judged on the fresh plan, which checkSavedPlanCurrent found equal to the saved one.
      printPolicyAnnotations(fresh.plan.policy, process.env, process.stderr);
      assertPolicyAllows(fresh.plan.policy);
      const { exitCode } = await runApply(saved, fresh.desired, connection.client, settings, {
        stdout: process.stdout,
        stderr: process.stderr,
        stop: fresh.lease?.signal,
        mayWrite: fresh.lease === undefined ? undefined : () => fresh.lease?.check(),
        beforeApply: () => {
          if (settings.output === 'text')
            process.stdout.write(renderPlan(saved, 'text', useColor(process.env, process.stdout.isTTY)));
        },
      });
      return exitCode;
    } finally {
      await connection.close();
    }
  },
});
