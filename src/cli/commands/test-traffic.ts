/** `acctsync test-traffic CONFIG TESTS...`: traffic tests run against the desired state, offline. */
import { ConfigError, loadDesiredState } from '../../config/index.js';
import { UsageError } from '../../errors.js';
import { defineCommand } from '../command.js';
import { printConfigWarnings } from '../config-report.js';
import { environmentName } from '../environment.js';
import { filesRootFrom } from '../files-root.js';
import { help } from '../help/test-traffic.js';
import { runAndReport } from '../traffic-tests.js';

export const command = defineCommand({
  ...help,

  async run(values, positionals) {
    const [config, ...tests] = positionals;
    if (config === undefined || tests.length === 0)
      throw new UsageError('test-traffic: needs the config and at least one tests file', {
        details: [`Usage: ${help.synopsis[0]!}`],
      });
    if (values.output !== 'text' && values.output !== 'json')
      throw new UsageError(`test-traffic: --output must be text or json, not ${values.output}`);
    const named = environmentName(values, process.env);
    // Offline, like validate: a secret the evaluation never reads need not be there.
    const loaded = await loadDesiredState([config], {
      uncheckedUnavailable: true,
      filesRoot: filesRootFrom(values),
      ...(named === undefined ? {} : { environment: named }),
    });
    if (!loaded.ok) throw new ConfigError(loaded.diagnostics, { secretSpans: loaded.secretSpans });
    printConfigWarnings(loaded.warnings, loaded.secretSpans, process.env);
    return (await runAndReport(loaded.state, tests, values.output)) ? 0 : 1;
  },
});
