/** What a reviewer of the plan should know that no operation shows. */
import { descriptorOf, type DesiredObject } from '../../resources/index.js';
import { writeOnlyValues } from '../../resources/ownership/secret-fields.js';
import { keyInUseNote } from '../key-in-use.js';
import type { Matching, Paired } from '../match.js';
import { provisioningNotes } from '../provisioning-notes.js';
import type { Operation } from '../../plan-format/index.js';
import { tokenNotes, uncapturedNotes, type TokenCapture } from './token-capture.js';

interface NoteInputs {
  readonly operations: readonly Operation[];
  readonly desiredByKey: ReadonlyMap<string, DesiredObject>;
  readonly matching: Matching;
  readonly paired: readonly Paired[];
  /** Whether the plan saves new tokens to a token file (`--token-output`). */
  readonly tokenFile: boolean;
  readonly capture: TokenCapture;
  /** What the ordering found no way around. */
  readonly blocked: readonly string[];
}

const adoptedSecretsNote =
  'adopted objects keep their secrets and private keys as they are: the API never returns them, so acctsync records the configured ones without rewriting; change a secret in the config to have it written';

function adoptsSecrets(operations: readonly Operation[], desiredByKey: NoteInputs['desiredByKey']): boolean {
  return operations.some(
    (op) =>
      op.action === 'adopt' &&
      writeOnlyValues(descriptorOf(op.kind).fields, desiredByKey.get(op.key)?.fields ?? {}).length > 0,
  );
}

export function planNotes(inputs: NoteInputs): string[] {
  const { operations } = inputs;
  return [
    ...tokenNotes(operations, !inputs.tokenFile),
    ...uncapturedNotes(inputs.capture),
    ...(adoptsSecrets(operations, inputs.desiredByKey) ? [adoptedSecretsNote] : []),
    ...keyInUseNote(operations),
    ...inputs.matching.notes,
    ...provisioningNotes(inputs.paired),
    ...inputs.blocked,
  ];
}
