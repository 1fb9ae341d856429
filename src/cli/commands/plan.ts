/** `acctsync plan`: what a sync would change, without changing anything. */
import { defineCommand } from '../command.js';
import { help } from '../help/plan.js';
import { planEveryEnvironment } from '../plan-environments.js';
import { planRequest, runCommand } from '../planned.js';
import { reviewPlan } from '../review-plan.js';
import { parsePlanFormat } from '../plan-output.js';

export const command = defineCommand({
  ...help,

  async run(values, positionals) {
    const format = parsePlanFormat(values.output);
    if (values['all-envs']) return planEveryEnvironment(positionals, values, format);
    const { result } = await runCommand(await planRequest(values, positionals));
    return reviewPlan(result, {
      format,
      out: values.out,
      detailedExitcode: values['detailed-exitcode'],
      graph: !values['no-graph'],
    });
  },
});
