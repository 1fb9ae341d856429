/**
 * Fingerprints of both inputs of a plan. The live one lets `apply plan.json` refuse when the
 * account changed since review; the desired one identifies the config without holding a secret.
 */
import { compare } from '../compare.js';
import { createHash } from 'node:crypto';
import {
  canonicalJson,
  derivedOnce,
  descriptorOf,
  hashSecret,
  secretPaths,
  serverFills,
  writableValues,
  type DesiredState,
  type FieldPath,
  type Fields,
} from '../resources/index.js';
import { isPlainObject } from '../plain-object.js';
import type { LiveState } from '../live/index.js';
import { sensitiveMask } from '../plan-format/index.js';

/** `items` through `f`, one at a time: the fingerprints never hold every converted object at once. */
function* mapped<T, U>(items: readonly T[], f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
}

/**
 * SHA-256 of the canonical JSON of `{ ...head, [member]: items, ...tail }` (members in sorted order,
 * `member` between `head` and `tail`), hashed item by item: a 100,000-object state is never held as
 * one string nor as one sorted copy. The bytes are those of `canonicalJson` on the whole value.
 */
function hashDocument(
  head: Record<string, unknown>,
  member: string,
  items: Iterable<unknown>,
  tail: () => Record<string, unknown>,
): string {
  const hash = createHash('sha256');
  const members = (values: Record<string, unknown>): string => canonicalJson(values).slice(1, -1);
  const before = members(head);
  hash.update(`{${before}${before === '' ? '' : ','}${JSON.stringify(member)}:[`);
  let first = true;
  for (const item of items) {
    hash.update(first ? canonicalJson(item) : `,${canonicalJson(item)}`);
    first = false;
  }
  const after = members(tail());
  return `sha256:${hash.update(`]${after === '' ? '' : ','}${after}}`).digest('hex')}`;
}

const serverFilledNames = derivedOnce((fields: Fields): string[] =>
  Object.keys(fields).filter((name) => fields[name]?.serverFilled !== undefined),
);

/**
 * The values of `record` the live fingerprint covers: the writable ones, less those the service is
 * filling in itself (a managed domain's issued certificate), which it may do between `plan --out`
 * and `apply` without anything of the plan becoming wrong.
 */
function coveredValues(fields: Fields, record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const values = writableValues(fields, record);
  for (const name of serverFilledNames(fields)) if (serverFills(fields[name], record)) delete values[name];
  return values;
}

/**
 * Hash of the writable state of every fetched object (metadata raw, marker included): read-only
 * members the service updates on its own (certificate status, matching tunnels) do not count, nor
 * do the writable ones it is filling in.
 */
export function liveFingerprint(live: LiveState): string {
  const objects = mapped(live.objects, (o) => ({
    kind: o.kind,
    id: o.id,
    parent: o.parentId ?? null,
    values: coveredValues(descriptorOf(o.kind).fields, o.record),
  }));
  return hashDocument({ kinds: live.kinds }, 'objects', objects, () => ({}));
}

function replaceAt(value: unknown, path: FieldPath, replace: (v: unknown) => unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return replace(value);
  if (Array.isArray(value))
    return (value as unknown[]).map((v, i) => (String(i) === String(head) ? replaceAt(v, rest, replace) : v));
  if (isPlainObject(value) && Object.hasOwn(value, String(head)))
    return { ...value, [head]: replaceAt(value[String(head)], rest, replace) };
  return value;
}

/**
 * Hash of the desired state. Sensitive values are taken out (a placeholder in their place) and
 * folded in through one scrypt hash of them all (docs/apply.md "How secrets are compared"): a plan
 * file must not let anyone confirm a guessed secret at hash speed, and one scrypt per plan costs
 * the same per guess as one per secret.
 */
export function desiredFingerprint(desired: DesiredState, scope: string): string {
  const sensitive: unknown[] = [];
  const sorted = [...desired.objects].sort((a, b) => compare(a.key, b.key));
  const objects = mapped(sorted, (o) => {
    const paths = [...secretPaths(descriptorOf(o.kind).fields, o.fields), ...o.sensitive];
    const fields = paths.reduce<unknown>(
      (values, path) =>
        replaceAt(values, path, (v) => {
          sensitive.push([o.key, path, v]);
          return sensitiveMask;
        }),
      o.fields,
    );
    const ignore = o.ignore === undefined ? {} : { ignore: o.ignore };
    return {
      kind: o.kind,
      key: o.key,
      parentKey: o.parentKey ?? null,
      pin: o.pin ?? null,
      fields,
      ...ignore,
    };
  });
  // Moves change what the plan does; a config without them keeps the fingerprint it always had.
  const moves = (desired.moves ?? []).map((m) => [m.from, m.to]);
  // The secrets' hash is known once every object went through: it comes after them in member order.
  return hashDocument(moves.length > 0 ? { moves } : {}, 'objects', objects, () => ({
    scope,
    secrets: sensitive.length === 0 ? null : hashSecret(`fingerprint/${scope}`, canonicalJson(sensitive)),
  }));
}
