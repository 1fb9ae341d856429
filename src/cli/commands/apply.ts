/** `acctsync apply plan.json`: runs a reviewed plan, only if nothing changed since it was made. */
import { runSettingsFrom } from '../apply-flags.js';
import { commandApply, renderApplied } from '../run-apply.js';
import { readSavedPlan } from '../../apply/index.js';
import { UsageError } from '../../errors.js';
import { defineCommand } from '../command.js';
import { help } from '../help/apply.js';
import { clientOptionsFor } from '../connection.js';
import { filesRootFrom } from '../files-root.js';
import { leaseFlagsFrom } from '../lease-flags.js';
import { runCommand } from '../planned.js';
import { renderPlan, useColor } from '../plan-output.js';
import { policiesFrom } from '../policy.js';

export const command = defineCommand({
  ...help,

  async run(values, positionals) {
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
    const streams = { stdout: process.stdout, stderr: process.stderr };
    const applying = commandApply(settings, streams, (plan) => {
      if (settings.output === 'text')
        process.stdout.write(renderPlan(plan, 'text', useColor(process.env, process.stdout.isTTY)));
    });
    try {
      // The config and account the plan was made for: its environment's, whatever ACCTSYNC_ENV says.
      const run = await runCommand({
        paths: saved.configPaths,
        flags: values,
        env: process.env,
        filesRoot: filesRootFrom(values),
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
        trafficTests: values['traffic-tests'],
        guards: settings.guards,
        saved,
        apply: applying.apply,
      });
      return renderApplied(run, settings, { ...streams, showPlanOnPolicyRefusal: false });
    } finally {
      applying.done();
    }
  },
});
