/**
 * Secrets in a plan: where the write-only values are (compared through salted hashes in the
 * ownership marker, because the service never returns them), and masking every sensitive value
 * as `(sensitive)` before anything leaves the planner.
 */
import { isUnder } from '../path-prefix.js';
import {
  findFields,
  isSensitiveField,
  nestedFields,
  type DesiredState,
  type FieldPath,
  type FieldType,
  type Fields,
  builtinKinds,
  type KindRegistry,
} from '../resources/index.js';
import { isPlainObject } from '../plain-object.js';
import { sensitiveMask, type FieldChange } from '../plan-format/index.js';

/** The value at `path` in `values`, undefined when any step is missing. */
function valueAt(values: unknown, path: FieldPath): unknown {
  return path.reduce<unknown>(
    (at, step) =>
      Array.isArray(at)
        ? at[Number(step)]
        : isPlainObject(at) && Object.hasOwn(at, String(step))
          ? at[String(step)]
          : undefined,
    values,
  );
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (isPlainObject(value)) return Object.values(value).flatMap(stringsIn);
  return [];
}

/** A line this long of a multi-line secret (a PEM key) identifies it on its own. */
const minSecretLine = 16;

/**
 * Every sensitive string of the desired state (descriptor secrets, write-only values, values read
 * from `{env}` or `{file}`), and each long line of the multi-line ones: what must be scrubbed from
 * any text the service sends back.
 */
export function sensitiveValues(desired: DesiredState, kinds: KindRegistry = builtinKinds): string[] {
  const values = desired.objects.flatMap((o) => {
    const d = kinds.descriptorOf(o.kind);
    const fields = findFields(d.fields, o.fields, isSensitiveField);
    return [...fields.map((f) => f.value), ...o.sensitive.map((path) => valueAt(o.fields, path))];
  });
  const strings = values.flatMap(stringsIn);
  const lines = strings.flatMap((s) => s.split(/\r?\n/).map((line) => line.trim()));
  return [...new Set([...strings, ...lines.filter((line) => line.length >= minSecretLine)])];
}

/** `value` with whatever sits at `inner` (a path relative to it) replaced by the mask. */
function maskInside(value: unknown, inner: FieldPath): unknown {
  const [head, ...rest] = inner;
  if (head === undefined) return value === undefined ? value : sensitiveMask;
  if (Array.isArray(value)) {
    const i = Number(head);
    return i in value
      ? (value as unknown[]).map((item, j) => (j === i ? maskInside(item, rest) : item))
      : value;
  }
  if (isPlainObject(value) && Object.hasOwn(value, String(head))) {
    return { ...value, [head]: maskInside(value[String(head)], rest) };
  }
  return value;
}

/** `change` with every sensitive value in it masked; `sensitive` set when any was. */
export function maskChange(change: FieldChange, sensitive: readonly FieldPath[]): FieldChange {
  let { before, after } = change;
  let masked = change.sensitive === true;
  for (const s of sensitive) {
    if (isUnder(change.path, s)) {
      before = before === undefined ? before : sensitiveMask;
      after = after === undefined ? after : sensitiveMask;
      masked = true;
    } else if (isUnder(s, change.path)) {
      const inner = s.slice(change.path.length);
      const b = maskInside(before, inner);
      const a = maskInside(after, inner);
      masked ||= b !== before || a !== after;
      before = b;
      after = a;
    }
  }
  return {
    path: change.path,
    ...(Object.hasOwn(change, 'before') ? { before } : {}),
    ...(Object.hasOwn(change, 'after') ? { after } : {}),
    ...(masked ? { sensitive: true } : {}),
    ...(change.forcesReplace ? { forcesReplace: true } : {}),
  };
}

/** Formats of public material: shown (summarised) in plans even when read from a file or the environment. */
const publicFormats: ReadonlySet<string> = new Set([
  'pem-certificate',
  'pem-certificate-chain',
  'ssh-public-key',
]);

/** True when `path` names a certificate or public key field: public keys are not secrets. */
export function isPublicMaterial(fields: Fields, path: FieldPath): boolean {
  let current: Fields | undefined = fields;
  let type: FieldType | undefined;
  for (const name of path) {
    type = current?.[String(name)]?.type;
    current = nestedFields(type);
  }
  return type?.type === 'string' && type.format !== undefined && publicFormats.has(type.format);
}
