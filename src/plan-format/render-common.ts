/**
 * What the text and markdown renderers share: symbols, change trees, order, grouping of replaces.
 * Keys, ids and reasons can come from the live account (an ownership marker, a service id): an
 * entry holds them already made inert for a terminal.
 */
import { counted } from '../count.js';
import { inert } from '../inert.js';
import { builtinKinds, countOf, type KindName, type KindRegistry } from '../resources/index.js';
import { countCascaded, describeCascade } from './deletes.js';
import { changeTree, namesOfIds, treeLines } from './render-tree.js';
import type { Cascade, CascadedObject, ChangeCause, FieldChange, Operation, Plan } from './types.js';

/** One line of the plan as a reader sees it: a replace's two operations are one entry. */
export interface Entry {
  readonly symbol: '+' | '~' | '-' | '-/+' | '<=' | '~>';
  readonly verb: string;
  readonly kind: KindName;
  readonly key: string;
  readonly title: string;
  /** Whether its kind has no parent: a top-level key shows the new name alone on a rename. */
  readonly topLevel: boolean;
  readonly liveId?: string;
  /** On a rename: the key before. */
  readonly renamedFrom?: string;
  readonly changes: readonly FieldChange[];
  /** Members left as they are, counted at the end of the body. */
  readonly unchanged?: number;
  readonly reason?: string;
  /** What the service deletes with the object, and how the header says it (`, with 8 HTTPS edge routes`). */
  readonly cascade?: Cascade;
  readonly withCascade: string;
  readonly destructive: boolean;
  readonly cause?: ChangeCause;
}

/** Whether the entry puts back a change made outside acctsync (alone or with the config's). */
export function isDrift(e: Entry): boolean {
  return e.cause === 'drift' || e.cause === 'both';
}

/** The heading drift is shown under, before the config's changes. */
export const driftHeading = 'Changed outside acctsync';

/**
 * How an entry is named in headers: its key, or for a rename the key before and the new name
 * (`reserved_domains/www -> website`; a nested item's whole new key, its parent may have moved).
 */
export function shownKey(e: Pick<Entry, 'topLevel' | 'key' | 'renamedFrom'>): string {
  if (e.renamedFrom === undefined) return e.key;
  return `${e.renamedFrom} -> ${e.topLevel ? e.key.slice(e.key.indexOf('/') + 1) : e.key}`;
}

/** Why, for the header line: the reason and what goes with a delete (`left the config, with 8 HTTPS edge routes`). */
export function whyOf(e: Entry): string | undefined {
  const both = e.cause === 'both' ? ', the config changed too' : '';
  const why = `${e.reason ?? ''}${e.withCascade}${both}`.replace(/^, /, '');
  return why === '' ? undefined : why;
}

const symbols = { create: '+', update: '~', delete: '-', adopt: '<=', rename: '~>' } as const;
const verbs = {
  create: 'create',
  update: 'update',
  delete: 'delete',
  adopt: 'adopt',
  rename: 'rename',
} as const;

/** Keys compared segment by segment: children (`a/b/rules/x`) follow their parent `a/b`. */
function byKey(a: Entry, b: Entry): number {
  const x = a.key.split('/');
  const y = b.key.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const [p, q] = [x[i] ?? '', y[i] ?? ''];
    if (p !== q) return p < q ? -1 : 1;
  }
  return x.length - y.length;
}

/**
 * The plan's entries grouped by kind then name, children under their parent, each replace once.
 * The execution order stays in the JSON plan.
 */
export function entriesOf(plan: Plan, kinds: KindRegistry = builtinKinds): Entry[] {
  return planOrderEntries(plan, kinds).sort(byKey);
}

/** The change lines of an entry: a tree down to the leaf, references as the config's names. */
export function bodyOf(plan: Plan, kinds: KindRegistry = builtinKinds): (e: Entry) => string[] {
  const names = namesOfIds(plan);
  return (e) => [
    ...treeLines(changeTree(e.kind, e.changes, names, kinds), e.unchanged),
    ...(e.cascade?.objects ?? []).map((c) => cascadedLine(c, kinds)),
  ];
}

/** A child deleted with its parent: its key, or its id and kind when the config does not manage it. */
function cascadedLine(c: CascadedObject, kinds: KindRegistry): string {
  const title = kinds.descriptorOf(c.kind).title;
  return c.key === undefined
    ? `- ${inert(c.id)}  ${title}, not managed by this config`
    : `- ${inert(c.key)}  ${title}`;
}

function planOrderEntries(plan: Plan, kinds: KindRegistry): Entry[] {
  const seen = new Set<string>();
  const out: Entry[] = [];
  for (const op of plan.operations) {
    const d = kinds.descriptorOf(op.kind);
    const kindOf = { title: d.title, topLevel: d.parent === undefined };
    if (op.replaces !== undefined) {
      if (seen.has(op.replaces)) continue;
      seen.add(op.replaces);
      const pair = plan.operations.filter((o) => o.replaces === op.replaces);
      const old = pair.find((o) => o.action === 'delete');
      const created = pair.find((o) => o.action === 'create');
      out.push({
        symbol: '-/+',
        verb: 'replace',
        kind: op.kind,
        key: inert(op.replaces),
        ...kindOf,
        ...(old?.liveId === undefined ? {} : { liveId: inert(old.liveId) }),
        changes: created?.changes ?? [],
        ...(created?.unchanged === undefined ? {} : { unchanged: created.unchanged }),
        ...(op.reason === undefined ? {} : { reason: inert(op.reason) }),
        ...(old?.cascade === undefined ? {} : { cascade: old.cascade }),
        withCascade: describeCascade(old?.cascade, kinds),
        destructive: true,
        ...(op.cause === undefined ? {} : { cause: op.cause }),
      });
      continue;
    }
    out.push(entryOf(op, kindOf, kinds));
  }
  return out;
}

function entryOf(op: Operation, kindOf: Pick<Entry, 'title' | 'topLevel'>, kinds: KindRegistry): Entry {
  return {
    symbol: symbols[op.action],
    verb: verbs[op.action],
    kind: op.kind,
    key: inert(op.key),
    ...kindOf,
    ...(op.liveId === undefined ? {} : { liveId: inert(op.liveId) }),
    ...(op.renamedFrom === undefined ? {} : { renamedFrom: inert(op.renamedFrom) }),
    changes: op.changes,
    ...(op.unchanged === undefined ? {} : { unchanged: op.unchanged }),
    ...(op.reason === undefined ? {} : { reason: inert(op.reason) }),
    ...(op.cascade === undefined ? {} : { cascade: op.cascade }),
    withCascade: describeCascade(op.cascade, kinds),
    destructive: op.action === 'delete',
    ...(op.cause === undefined ? {} : { cause: op.cause }),
  };
}

/**
 * The observed entries, in a section of their own: each with its live id and, when it drifted,
 * its changes (`before` the live value, `after` the config's). Empty when the config observes none.
 */
export function observedLines(plan: Plan, kinds: KindRegistry = builtinKinds): string[] {
  const observed = plan.observed ?? [];
  if (observed.length === 0) return [];
  const names = namesOfIds(plan);
  return [
    'Observed objects (read only, never written):',
    ...observed.flatMap((o) => {
      const head = `${o.key}  ${kinds.descriptorOf(o.kind).title} ${o.liveId}`;
      if (o.changes.length === 0) return [`  = ${head}  (as configured)`];
      return [
        `  ! ${head}  (drifted: live -> config)`,
        ...treeLines(changeTree(o.kind, o.changes, names, kinds)).map((line) => `      ${line}`),
      ];
    }),
  ];
}

/**
 * How many live objects nobody manages, by kind, and how to adopt one; the JSON plan's `unmanaged`
 * lists them. Undefined when there are none.
 */
export function unmanagedLine(plan: Plan, kinds: KindRegistry = builtinKinds): string | undefined {
  const unmanaged = plan.unmanaged;
  if (unmanaged.length === 0) return undefined;
  const counts = new Map<KindName, number>();
  for (const u of unmanaged) counts.set(u.kind, (counts.get(u.kind) ?? 0) + 1);
  const counted = [...counts].map(([kind, n]) => countOf(kinds.descriptorOf(kind), n)).join(', ');
  const them = unmanaged.length === 1 ? 'it' : 'them';
  return `Unmanaged: ${counted} (no scope manages ${them}; the JSON plan lists ${them}). To manage one, add its entry with its \`id:\` (\`acctsync export\` writes it) and sync with \`--adopt\`.`;
}

/**
 * `3 to create, 1 to update, ...`, every count shown so scripts and readers find them; children the
 * service deletes with their parent are counted after the deletes (`1 to delete (with 8 HTTPS edge routes)`).
 */
export function summaryLine(plan: Plan, kinds: KindRegistry = builtinKinds): string {
  const s = plan.summary;
  const total = s.create + s.update + s.replace + s.delete + s.adopt + s.rename;
  if (total === 0) return `No changes. ${counted(s.unchanged, 'object', 'objects')} up to date.`;
  const cascaded = countCascaded(
    plan.operations.flatMap((op) => op.cascade?.objects ?? []),
    kinds,
  );
  const deletes = `${s.delete} to delete${cascaded === '' ? '' : ` (with ${cascaded})`}`;
  // Renames are counted when there are any: plans without them read as they always have.
  const renames = s.rename > 0 ? `, ${s.rename} to rename` : '';
  return `Plan: ${s.create} to create, ${s.update} to update, ${s.replace} to replace, ${deletes}, ${s.adopt} to adopt${renames}; ${s.unchanged} unchanged.`;
}
