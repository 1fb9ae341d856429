/**
 * The one diff engine: a tree of changes between a live object and its desired state, down to the
 * leaf, which every renderer (and watch's drift events) shows, and from which the plan's field
 * changes are read (`diffObject`). Nested objects, modules, maps and JSON
 * values (traffic policies) descend; lists whose elements have an identity (objects with a `name`,
 * strings such as references and hostports in unordered lists) change element by element; other
 * lists change as a whole. Unchanged members are counted, not listed. A member the desired side
 * does not have is a server default the user never wrote and is not shown, except a module, whose
 * absence means "remove it".
 *
 *     structuralDiff(descriptor, live, desired)   // update
 *     structuralDiff(descriptor, undefined, desired) // create: every member is `create`
 */
import equal from 'fast-deep-equal';
import {
  nestedFields,
  type FieldPath,
  type FieldType,
  type Fields,
  type KindDescriptor,
} from '../resources/index.js';
import { isPlainObject } from '../plain-object.js';
import type { FieldChange } from './types.js';

type Plain = Readonly<Record<string, unknown>>;

type DiffAction = 'create' | 'update' | 'delete';

/** One changed member. A leaf has `before`/`after`; a block has `children` (and a hidden count). */
export interface DiffNode {
  /** Member name, map key, or a list element's label (`rule "log-all"`, `"ca-east"`). */
  readonly name: string;
  readonly action: DiffAction;
  /** Absent on `create`. */
  readonly before?: unknown;
  /** Absent on `delete`. */
  readonly after?: unknown;
  /** Present when the member descends: its changed members. */
  readonly children?: readonly DiffNode[];
  /** Members of this block that did not change and are not listed. */
  readonly unchanged?: number;
  /** The block is a list changed element by element (`children` are its elements). */
  readonly list?: boolean;
  /** Set on a top-level member that cannot change in place (the object is replaced). */
  readonly forcesReplace?: boolean;
}

interface StructuralDiff {
  readonly changes: readonly DiffNode[];
  /** Top-level members present on both sides and equal. */
  readonly unchanged: number;
}

function leaf(name: string, before: unknown, after: unknown): DiffNode {
  if (before === undefined) return { name, action: 'create', after };
  if (after === undefined) return { name, action: 'delete', before };
  return { name, action: 'update', before, after };
}

/** A list element's identity, when it has one: an object's `name`, or a string itself. */
function identityOf(item: unknown, byValue: boolean): string | undefined {
  if (isPlainObject(item) && typeof item.name === 'string') return `"${item.name}"`;
  if (byValue && typeof item === 'string') return JSON.stringify(item);
  return undefined;
}

function diffList(
  name: string,
  before: readonly unknown[],
  after: readonly unknown[],
  type: FieldType | undefined,
  removals: boolean,
): DiffNode {
  const byValue = type?.type === 'list' ? !type.ordered : type?.type === 'ref';
  const ids = (items: readonly unknown[]) => items.map((i) => identityOf(i, byValue));
  const bIds = ids(before);
  const aIds = ids(after);
  const unique = (xs: (string | undefined)[]) =>
    xs.every((x) => x !== undefined) && new Set(xs).size === xs.length;
  if (!unique(bIds) || !unique(aIds)) return leaf(name, before, after);
  const itemType = type?.type === 'list' ? type.items : undefined;
  const children: DiffNode[] = [];
  let unchanged = 0;
  after.forEach((a, i) => {
    const id = aIds[i] as string;
    const j = bIds.indexOf(id);
    if (j < 0) children.push({ name: id, action: 'create', after: a });
    else if (equal(before[j], a)) unchanged += 1;
    else children.push(diffValue(id, before[j], a, itemType, removals));
  });
  before.forEach((b, j) => {
    const id = bIds[j] as string;
    if (!aIds.includes(id)) children.push({ name: id, action: 'delete', before: b });
  });
  return { name, action: 'update', children, unchanged, list: true };
}

/**
 * One member whose sides are both present and different, as a tree when it descends. `removals`:
 * a described member the desired side lacks is a change (a value to unset), not a server default.
 */
export function diffValue(
  name: string,
  before: unknown,
  after: unknown,
  type: FieldType | undefined,
  removals = false,
): DiffNode {
  if (isPlainObject(before) && isPlainObject(after)) {
    const fields = nestedFields(type);
    const values = type?.type === 'map' ? type.values : undefined;
    const inner = diffMembers(
      before,
      after,
      (k) => (fields ? fields[k]?.type : values),
      fields !== undefined && !removals,
      removals,
    );
    return { name, action: 'update', children: inner.changes, unchanged: inner.unchanged };
  }
  if (Array.isArray(before) && Array.isArray(after)) return diffList(name, before, after, type, removals);
  return leaf(name, before, after);
}

/**
 * `typed` says the members are described fields: there a member missing on the desired side is a
 * server default (not shown) unless it is a module. In maps and JSON a missing key is a removal.
 */
function diffMembers(
  before: Plain,
  after: Plain,
  typeOf: (member: string) => FieldType | undefined,
  typed: boolean,
  removals = false,
): StructuralDiff {
  const changes: DiffNode[] = [];
  let unchanged = 0;
  const names = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  for (const name of names) {
    const type = typeOf(name);
    const b = before[name] ?? undefined;
    const a = after[name] ?? undefined;
    if (b === undefined && a === undefined) continue;
    if (a === undefined && typed && type?.type !== 'module') continue;
    if (equal(b, a)) {
      unchanged += 1;
      continue;
    }
    changes.push(
      b === undefined || a === undefined ? leaf(name, b, a) : diffValue(name, b, a, type, removals),
    );
  }
  return { changes, unchanged };
}

/** The tree of changes turning `before` (live, normalized) into `after` (desired, normalized). */
export function structuralDiff(
  d: KindDescriptor,
  before: Plain | undefined,
  after: Plain | undefined,
): StructuralDiff {
  const tree = diffMembers(
    before ?? {},
    after ?? {},
    (k) => d.fields[k]?.type,
    before !== undefined || after === undefined,
  );
  return {
    unchanged: tree.unchanged,
    changes: tree.changes.map((c) =>
      d.fields[c.name]?.write === 'immutable' && before !== undefined ? { ...c, forcesReplace: true } : c,
    ),
  };
}

/**
 * The plan's field changes read off the tree, in descriptor order: described objects and modules
 * changed on both sides descend; anything else (lists, maps, JSON) changes whole, `before`/`after`
 * its full values; a module added or removed has no `before` or no `after`.
 */
function fieldChanges(
  fields: Fields,
  before: Plain,
  after: Plain,
  nodes: readonly DiffNode[],
  path: FieldPath,
): FieldChange[] {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const out: FieldChange[] = [];
  for (const [name, f] of Object.entries(fields)) {
    const node = byName.get(name);
    if (node === undefined) continue;
    const at = [...path, name];
    const b = before[name];
    const a = after[name];
    const nested = nestedFields(f.type);
    if (nested && node.children && isPlainObject(b) && isPlainObject(a)) {
      out.push(...fieldChanges(nested, b, a, node.children, at));
    } else if (f.type.type === 'module') {
      out.push({ path: at, ...(b == null ? {} : { before: b }), ...(a == null ? {} : { after: a }) });
    } else {
      out.push({ path: at, before: b, after: a });
    }
  }
  return out;
}

/**
 * The changes turning `live` into `desired` (both normalized), one per changed leaf of the
 * described objects; a field the desired side lacks is unset. Immutable top-level fields are
 * marked `forcesReplace`.
 */
export function diffObject(d: KindDescriptor, live: Plain, desired: Plain): FieldChange[] {
  const tree = diffMembers(live, desired, (k) => d.fields[k]?.type, false, true);
  return fieldChanges(d.fields, live, desired, tree.changes, []).map((c) =>
    d.fields[String(c.path[0])]?.write === 'immutable' ? { ...c, forcesReplace: true } : c,
  );
}
