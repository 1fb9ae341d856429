/**
 * What the plan tells a reviewer besides its operations: its counts, the notes no operation shows,
 * how each observed entry's object differs from it, and the live objects nobody manages (a domain
 * reserved by hand, a policy made in the dashboard), listed so a review and the daily drift job see
 * them. A failed certificate provisioning, which the service reports on the object
 * (`certificate_management_status.provisioning_job.error_code`), is one such note: no operation
 * shows it, yet the domain serves no managed certificate until it is fixed (DNS records, usually).
 */
import {
  descriptorOf,
  writeOnlyValues,
  type DesiredObject,
  type KindDescriptor,
} from '../../resources/index.js';
import { keyInUseNote } from '../key-in-use.js';
import type { Match, Matching, Paired } from '../match.js';
import {
  removedBy,
  type ObservedObject,
  type Operation,
  type PlanSummary,
  type UnmanagedObject,
} from '../../plan-format/index.js';
import { tokenNotes, uncapturedNotes, type TokenCapture } from './token-capture.js';
import { managedCount } from '../cascade.js';
import type { LiveObject } from '../../live/index.js';
import { changeMasker, type Replacements } from './changes.js';
import { compare } from '../../compare.js';

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

interface SummaryInputs {
  readonly replaced: number;
  readonly unchanged: number;
  readonly liveObjects: readonly LiveObject[];
  readonly scope: string;
}

export function summarize(operations: readonly Operation[], inputs: SummaryInputs): PlanSummary {
  // A replace's two halves and an interim release are counted once, as the replace or the update.
  const count = (action: Operation['action']) =>
    operations.filter((op) => op.action === action && op.replaces === undefined && op.interim !== true)
      .length;
  return {
    create: count('create'),
    update: count('update'),
    replace: inputs.replaced,
    delete: count('delete'),
    adopt: count('adopt'),
    rename: count('rename'),
    unchanged: inputs.unchanged,
    managed: managedCount(inputs.liveObjects, inputs.scope),
    removed: operations.reduce((n, op) => n + removedBy(op), 0),
  };
}

/** One report per observed entry, its changes masked as every change is: `before` live, `after` config. */
export function observedDrift(observed: readonly Paired[], replacements: Replacements): ObservedObject[] {
  return observed.map((m) => {
    const d = descriptorOf(m.desired.kind);
    return {
      kind: m.desired.kind,
      key: m.desired.key,
      liveId: m.live.id,
      changes: (replacements.changes.get(m) ?? []).map(changeMasker(d, m.desired, m.live)),
    };
  });
}

/** Natural keys that read as a name (a domain, hostports, a CIDR), not a PEM or a key blob. */
function readableKey(d: KindDescriptor): readonly string[] | undefined {
  const fields = d.naturalKey?.fields;
  const readable = fields?.every((name) => {
    const type = d.fields[name]?.type;
    const item = type?.type === 'list' ? type.items : type;
    return (
      item?.type === 'string' &&
      !['pem-certificate', 'pem-certificate-chain', 'ssh-public-key'].includes(item.format ?? '')
    );
  });
  return readable === true ? fields : undefined;
}

/** Its natural key as written, else its description. */
function nameOf(l: LiveObject): string | undefined {
  const d = descriptorOf(l.kind);
  const key = readableKey(d)?.map((name) => {
    const value = l.record[name];
    return Array.isArray(value) ? value.map(String).join(',') : typeof value === 'string' ? value : '';
  });
  if (key !== undefined && key.every((part) => part !== '')) return key.join(':');
  const description = l.record.description;
  return typeof description === 'string' && description !== '' ? description : undefined;
}

export function unmanagedObjects(unmanaged: readonly LiveObject[]): UnmanagedObject[] {
  return [...unmanaged]
    .sort((a, b) => compare(a.kind, b.kind) || compare(a.id, b.id))
    .map((l) => {
      const name = nameOf(l);
      return {
        kind: l.kind,
        id: l.id,
        ...(name === undefined ? {} : { name }),
        ...(l.parentId === undefined ? {} : { parentId: l.parentId }),
      };
    });
}

function member(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/** One note per configured object whose certificate provisioning job failed. */
function provisioningNotes(matches: readonly Match[]): string[] {
  return matches.flatMap((m) => {
    const job = member(member(m.live?.record, 'certificate_management_status'), 'provisioning_job');
    const code = member(job, 'error_code');
    if (typeof code !== 'string') return [];
    const msg = member(job, 'msg');
    const retries = member(job, 'retries_at');
    return [
      `${m.desired.key}: certificate provisioning failed (${code}${typeof msg === 'string' ? `: ${msg}` : ''})` +
        (typeof retries === 'string' ? `; the service retries at ${retries}` : ''),
    ];
  });
}
