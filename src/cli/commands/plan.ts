/** `acctsync plan`: what a sync would change, without changing anything. */
import { computePlan } from '../../plan/index.js';
import { parseCommandArgs } from '../args.js';
import type { Command } from '../command.js';
import { printConfigWarnings } from '../config-report.js';
import { connectionOptions, deadlineOptions, openConnection, waitUsage } from '../connection.js';
import {
  parsePlanFormat,
  planExitCode,
  planOutputOptions,
  planningOptions,
  planningSettings,
  writePlanOutput,
} from '../plan-output.js';

const options = {
  ...connectionOptions,
  ...deadlineOptions,
  ...planOutputOptions,
  ...planningOptions,
} as const;

export const command: Command = {
  summary: 'show what a sync would change (also: sync --dry-run)',
  usage: `Usage: acctsync plan [PATH...] [options]

Compares the desired state in PATH (files or directories; default account/ or acctsync.yaml)
with the live account and prints the changes a sync would make. Changes nothing.

Options:
  --output text|json|markdown  Rendering on stdout (default text; json is documented in docs/plan-output.md)
  --out FILE                   Also save the JSON plan, for 'acctsync apply FILE'
  --detailed-exitcode          Exit 0 without changes, 2 with changes, 1 on error
  --adopt                      Take over unmanaged objects matching a desired one by natural key
  --no-delete                  Plan no deletion of managed objects that left the config
  --scope S                    Ownership scope (default: the config's scope)
  --unprotect KEY              Allow deleting or replacing the protected object KEY (repeatable)
  --api-url URL                API address, or 'embedded' (default: SVC_API_URL, else embedded)
  --api-key-file FILE          File holding the API key (default: SVC_API_KEY)
  --rate-limit N/m             Pace requests below N per minute
${waitUsage}

With GITHUB_STEP_SUMMARY set, the markdown rendering is appended to that file.`,

  async run(argv) {
    const { values, positionals } = parseCommandArgs('plan', argv, options);
    const format = parsePlanFormat(values.output);
    const connection = await openConnection({ flags: values, env: process.env, deadline: true });
    try {
      const { plan, warnings, secretSpans } = await computePlan({
        paths: positionals,
        client: connection.client,
        env: process.env,
        ...planningSettings(values),
      });
      printConfigWarnings(warnings, secretSpans, process.env);
      await writePlanOutput(plan, { format, out: values.out, env: process.env, stdout: process.stdout });
      return planExitCode(plan, values['detailed-exitcode']);
    } finally {
      await connection.close();
    }
  },
};
