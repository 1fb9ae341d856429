/** `acctsync sync`: plan, check the guards, apply. `--dry-run` prints the plan exactly as `plan` does. */
import { tokenFileView } from '../../apply/index.js';
import { runSettingsFrom } from '../apply-flags.js';
import { commandApply, renderApplied } from '../run-apply.js';
import { defineCommand } from '../command.js';
import { help } from '../help/sync.js';
import { confirmDestruction, mustConfirm } from '../confirm.js';
import { clientOptionsFor } from '../connection.js';
import { leaseFlagsFrom } from '../lease-flags.js';
import { planRequest, runCommand } from '../planned.js';
import { reviewPlan } from '../review-plan.js';
import { parsePlanFormat, renderPlan, useColor } from '../plan-output.js';

export const command = defineCommand({
  ...help,

  async run(values, positionals) {
    // Checked before connecting: a usage mistake must not cost an API call.
    const mode = values['dry-run']
      ? { dryRun: true as const, format: parsePlanFormat(values.output) }
      : {
          dryRun: false as const,
          settings: runSettingsFrom('sync', values),
          lease: { command: 'sync', flags: leaseFlagsFrom('sync', values) },
        };
    const tokens = await tokenFileView(values['token-output'], values['recapture-tokens']);
    const request = { ...(await planRequest(values, positionals)), tokens };
    if (mode.dryRun) {
      const { result } = await runCommand({ ...request, guards: { force: values.force } });
      return reviewPlan(result, {
        format: mode.format,
        out: values.out,
        detailedExitcode: values['detailed-exitcode'],
        graph: !values['no-graph'],
      });
    }
    const { settings } = mode;
    const streams = { stdout: process.stdout, stderr: process.stderr };
    const applying = commandApply(settings, streams, async (plan) => {
      if (settings.output === 'text')
        process.stdout.write(renderPlan(plan, 'text', useColor(process.env, process.stdout.isTTY)));
      const terminal = { input: process.stdin, output: process.stdout };
      if (mustConfirm(plan, terminal, values.yes)) await confirmDestruction(plan, terminal);
    });
    try {
      const run = await runCommand({
        ...request,
        client: clientOptionsFor(settings.parallelism),
        lease: mode.lease,
        guards: settings.guards,
        apply: applying.apply,
      });
      return renderApplied(run, settings, { ...streams, showPlanOnPolicyRefusal: true });
    } finally {
      applying.done();
    }
  },
});
