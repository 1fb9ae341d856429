/** `acctsync plan`: what a sync would change, without changing anything. */
import { defineCommand } from '../command.js';
import { help } from '../help/plan.js';
import { environmentName } from '../environment.js';
import { useFilesRoot } from '../files-root.js';
import { planEveryEnvironment } from '../plan-environments.js';
import { planFromConfig } from '../planned.js';
import { policiesFrom } from '../policy.js';
import { reviewPlan } from '../review-plan.js';
import { parsePlanFormat, planningSettings } from '../plan-output.js';

export const command = defineCommand({
  ...help,

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
