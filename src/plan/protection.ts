/**
 * Protection on the live object: `protect: true` is recorded in the ownership marker, so it holds
 * even once the object's block left the config (unlike Terraform's `prevent_destroy`, which leaves
 * with its block). A plan that would delete or replace a protected object, directly or as a child
 * deleted with its parent, is refused before any request; `protect: false` in the config or
 * `--unprotect KEY` lifts it.
 */
import { counted } from '../count.js';
import { UserError } from '../errors.js';
import type { DesiredObject, KindRegistry } from '../resources/index.js';
import type { LiveObject } from '../live/index.js';
import type { Operation } from '../plan-format/index.js';

interface ProtectionContext {
  readonly scope: string;
  readonly desired: ReadonlyMap<string, DesiredObject>;
  /** `--unprotect` keys. */
  readonly unprotect: ReadonlySet<string>;
  readonly kinds: KindRegistry;
}

/** Whether `l` may not go: protected by its marker or by the config, and not lifted. */
function isProtected(l: LiveObject, ctx: ProtectionContext): boolean {
  if (l.marker?.scope !== ctx.scope) return false;
  const key = l.marker.key;
  if (ctx.unprotect.has(key)) return false;
  const wanted = ctx.desired.get(key)?.protect;
  return wanted ?? l.marker.protect === true;
}

/**
 * @throws {UserError} listing every protected object the operations would remove, and how to
 *   proceed; `--force` does not lift it
 */
export function checkProtection(
  ops: readonly Operation[],
  objects: readonly LiveObject[],
  ctx: ProtectionContext,
): void {
  const byId = new Map(objects.map((l) => [l.id, l]));
  const refused: string[] = [];
  for (const op of ops) {
    if (op.action !== 'delete' || op.liveId === undefined) continue;
    const why =
      op.replaces !== undefined
        ? `replaced: ${op.reason ?? 'cannot change in place'}`
        : (op.reason ?? 'deleted');
    const removed = [op.liveId, ...(op.cascade?.objects ?? []).map((c) => c.id)];
    for (const id of removed) {
      const l = byId.get(id);
      if (l === undefined || !isProtected(l, ctx)) continue;
      const via = id === op.liveId ? why : `deleted with ${ctx.kinds.descriptorOf(op.kind).title} ${op.key}`;
      refused.push(`  - ${l.marker?.key ?? id} (${id}): ${via}`);
    }
  }
  if (refused.length === 0) return;
  const keys = refused.map((line) => /^ {2}- (\S+)/.exec(line)?.[1] ?? '');
  throw new UserError(
    `refusing to plan: ${counted(refused.length, 'protected object', 'protected objects')} would be deleted or replaced`,
    {
      details: [
        ...refused,
        `Protection is recorded on the live object and --force does not lift it. If this is intended, set 'protect: false' on the object's block and sync, or run again with ${keys.map((k) => `--unprotect ${k}`).join(' ')}.`,
      ],
    },
  );
}
