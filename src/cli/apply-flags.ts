/** The run settings of `sync`, `apply` and `watch`, from their command-line flags. */
import { defaultParallelism } from '../apply/index.js';
import { UsageError } from '../errors.js';
import type { RunSettings } from './run-apply.js';

interface ExecutionValues {
  readonly parallelism?: string | undefined;
  readonly 'continue-on-error'?: boolean | undefined;
  readonly force?: boolean | undefined;
  readonly 'max-delete-percent'?: string | undefined;
  readonly 'max-delete-min-managed'?: string | undefined;
  readonly 'token-output'?: string | undefined;
  readonly output?: string | undefined;
}

function wholeNumber(
  command: string,
  flag: string,
  text: string | undefined,
  fallback: number,
  min: number,
): number {
  return givenNumber(command, flag, text, min) ?? fallback;
}

/** A flag's whole number, or undefined when the flag is not given. */
function givenNumber(
  command: string,
  flag: string,
  text: string | undefined,
  min: number,
): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min) {
    throw new UsageError(`${command}: --${flag} must be a whole number of at least ${min}, not '${text}'`);
  }
  return value;
}

/** @throws {UsageError} for a malformed number or output format */
export function runSettingsFrom(command: string, values: ExecutionValues): RunSettings {
  const output = values.output ?? 'text';
  if (output !== 'text' && output !== 'json')
    throw new UsageError(`${command}: --output must be text or json, not '${output}'`);
  const maxDeletePercent = givenNumber(command, 'max-delete-percent', values['max-delete-percent'], 0);
  const maxDeleteMinManaged = givenNumber(
    command,
    'max-delete-min-managed',
    values['max-delete-min-managed'],
    0,
  );
  if (maxDeletePercent !== undefined && maxDeletePercent > 100)
    throw new UsageError(`${command}: --max-delete-percent is a percentage, at most 100`);
  return {
    parallelism: wholeNumber(command, 'parallelism', values.parallelism, defaultParallelism, 1),
    continueOnError: values['continue-on-error'] ?? false,
    guards: {
      force: values.force ?? false,
      ...(maxDeletePercent === undefined ? {} : { maxDeletePercent }),
      ...(maxDeleteMinManaged === undefined ? {} : { maxDeleteMinManaged }),
    },
    tokenOutput: values['token-output'],
    output,
  };
}
