/**
 * Fields owned elsewhere (`ignore:` on an entry, docs/config.md "Fields owned elsewhere"): a path
 * names a field, or a member of an object or module field, by dotted names. The loader checks the
 * paths against the kind; the planner takes them out of both sides before it compares (as Argo
 * CD's diff normalizers do), so an ignored field can never come back as a change by another way.
 */
import { isPlainObject } from '../plain-object.js';
import type { FieldPath } from './state.js';
import type { Field, Fields } from './types.js';
import { nestedFields } from './walk.js';

/** Why `path` names nothing of `fields`, with the names it could have meant; undefined when it does. */
export function ignoredPathProblem(
  fields: Fields,
  path: FieldPath,
):
  | {
      readonly at: string;
      readonly candidates: readonly string[];
      /** The path's last field, when the path goes on below a field that holds no fields (a string). */
      readonly leaf?: string;
    }
  | undefined {
  let level: Fields | undefined = fields;
  for (const [i, name] of path.entries()) {
    const f: Field | undefined =
      level !== undefined && Object.hasOwn(level, name) ? level[String(name)] : undefined;
    if (level === undefined)
      return { at: path.slice(0, i + 1).join('.'), candidates: [], leaf: path.slice(0, i).join('.') };
    if (f === undefined) return { at: path.slice(0, i + 1).join('.'), candidates: Object.keys(level) };
    level = i < path.length - 1 ? nestedFields(f.type) : undefined;
  }
  return undefined;
}

/** `values` without the members at `paths` (a path through anything but an object leaves it). */
export function withoutPaths(
  values: Readonly<Record<string, unknown>>,
  paths: readonly FieldPath[],
): Record<string, unknown> {
  const out = { ...values };
  for (const path of paths) {
    const [head, ...rest] = path.map(String);
    if (head === undefined || !Object.hasOwn(out, head)) continue;
    const inner = out[head];
    if (rest.length === 0) delete out[head];
    else if (isPlainObject(inner)) out[head] = withoutPaths(inner, [rest]);
  }
  return out;
}
