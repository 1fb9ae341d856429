/** `acctsync plan`: what a sync would change, without changing anything. */
import { defineCommand } from '../command.js';
import { help } from '../help/plan.js';
import { environmentName } from '../environment.js';
import { filesRootFrom } from '../files-root.js';
import { planEveryEnvironment } from '../plan-environments.js';
import { runCommand } from '../planned.js';
import { policiesFrom } from '../policy.js';
import { reviewPlan } from '../review-plan.js';
import { parsePlanFormat, planningSettings } from '../plan-output.js';

export const command = defineCommand({
  ...help,

  async run(values, positionals) {
    const format = parsePlanFormat(values.output);
    if (values['all-envs']) return planEveryEnvironment(positionals, values, format);
    const policies = await policiesFrom(values);
    const { result } = await runCommand({
      policies,
      trafficTests: values['traffic-tests'],
      paths: positionals,
      flags: values,
      env: process.env,
      filesRoot: filesRootFrom(values),
      environment: environmentName(values, process.env),
      ...planningSettings(values),
      deadline: true,
    });
    return reviewPlan(result, {
      format,
      out: values.out,
      detailedExitcode: values['detailed-exitcode'],
      graph: !values['no-graph'],
    });
  },
});
