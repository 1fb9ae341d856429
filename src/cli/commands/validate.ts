/** `acctsync validate [PATH...]`: loads the desired state offline and reports every problem. */
import { ConfigError, loadDesiredState } from '../../config/index.js';
import { parseCommandArgs } from '../args.js';
import type { Command } from '../command.js';
import { printConfigWarnings } from '../config-report.js';

const usage = `Usage: acctsync validate [PATH...]

Checks the desired state without contacting the API: structure, every rule and limit of the
service, references, duplicates and cycles. PATH is a YAML file or a directory of them; the
default is the directory account/ if it exists, else acctsync.yaml.

Exit status: 0 valid, 1 invalid. With GITHUB_ACTIONS=true, problems are also printed as
workflow annotations.`;

export const command: Command = {
  summary: 'check the desired state offline (schema, rules, references)',
  usage,
  async run(argv) {
    const { positionals } = parseCommandArgs('validate', argv, {});
    const result = await loadDesiredState(positionals);
    if (!result.ok) throw new ConfigError(result.diagnostics, { secretSpans: result.secretSpans });
    printConfigWarnings(result.warnings, result.secretSpans, process.env);
    const n = result.state.objects.length;
    const m = result.files.length;
    console.log(`valid: ${n} ${n === 1 ? 'object' : 'objects'} in ${m} ${m === 1 ? 'file' : 'files'}`);
    return 0;
  },
};
