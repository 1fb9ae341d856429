/** What the text and markdown renderers share: symbols, value previews, grouping of replaces. */
import { descriptorOf, type FieldPath } from '../resources/index.js';
import type { FieldChange, Operation, Plan } from './types.js';

/** One line of the plan as a reader sees it: a replace's two operations are one entry. */
export interface Entry {
  readonly symbol: '+' | '~' | '-' | '-/+' | '<=';
  readonly verb: string;
  readonly key: string;
  readonly title: string;
  readonly liveId?: string;
  readonly changes: readonly FieldChange[];
  readonly reason?: string;
  readonly destructive: boolean;
}

const symbols = { create: '+', update: '~', delete: '-', adopt: '<=' } as const;
const verbs = { create: 'create', update: 'update', delete: 'delete', adopt: 'adopt' } as const;

/** The plan's entries in plan order, each replace shown once where its first operation stands. */
export function entriesOf(plan: Plan): Entry[] {
  const seen = new Set<string>();
  const out: Entry[] = [];
  for (const op of plan.operations) {
    const title = descriptorOf(op.kind).title;
    if (op.replaces !== undefined) {
      if (seen.has(op.replaces)) continue;
      seen.add(op.replaces);
      const pair = plan.operations.filter((o) => o.replaces === op.replaces);
      const old = pair.find((o) => o.action === 'delete');
      const created = pair.find((o) => o.action === 'create');
      out.push({
        symbol: '-/+',
        verb: 'replace',
        key: op.replaces,
        title,
        ...(old?.liveId === undefined ? {} : { liveId: old.liveId }),
        changes: created?.changes ?? [],
        ...(op.reason === undefined ? {} : { reason: op.reason }),
        destructive: true,
      });
      continue;
    }
    out.push(entryOf(op, title));
  }
  return out;
}

function entryOf(op: Operation, title: string): Entry {
  return {
    symbol: symbols[op.action],
    verb: verbs[op.action],
    key: op.key,
    title,
    ...(op.liveId === undefined ? {} : { liveId: op.liveId }),
    changes: op.changes,
    ...(op.reason === undefined ? {} : { reason: op.reason }),
    destructive: op.action === 'delete',
  };
}

const previewChars = 72;

/** A value in one line: JSON, long or multi-line strings shortened with their length. */
export function preview(value: unknown): string {
  if (typeof value === 'string') {
    const firstLine = value.split('\n', 1)[0] ?? '';
    if (firstLine.length === value.length && value.length <= previewChars) return JSON.stringify(value);
    const head = firstLine.length > previewChars ? `${firstLine.slice(0, previewChars)}` : firstLine;
    return `${JSON.stringify(`${head}…`)} (${value.length} chars)`;
  }
  const text = JSON.stringify(value) ?? 'null';
  return text.length <= previewChars * 2
    ? text
    : `${text.slice(0, previewChars * 2)}… (${text.length} chars)`;
}

export function pathText(path: FieldPath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** `old -> new`, `new` for a first value, `old -> (removed)` for a removal. */
export function changeText(c: FieldChange): string {
  const has = (k: 'before' | 'after') => Object.hasOwn(c, k);
  const text =
    has('before') && has('after')
      ? `${preview(c.before)} -> ${preview(c.after)}`
      : has('after')
        ? preview(c.after)
        : `${preview(c.before)} -> (removed)`;
  return `${pathText(c.path)}: ${text}${c.forcesReplace ? '  # forces replacement' : ''}`;
}

/** `3 to create, 1 to update, ...`, every count shown so scripts and readers find them. */
export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  const total = s.create + s.update + s.replace + s.delete + s.adopt;
  if (total === 0) return `No changes. ${s.unchanged} objects up to date.`;
  return `Plan: ${s.create} to create, ${s.update} to update, ${s.replace} to replace, ${s.delete} to delete, ${s.adopt} to adopt; ${s.unchanged} unchanged.`;
}
