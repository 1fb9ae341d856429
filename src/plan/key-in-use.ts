/**
 * acctsync runs with an API key that may be one of the keys it manages: deleting that key cuts off
 * every later request (401). The plan cannot tell which key is in use (the API does not say), so a
 * delete or replace of any such key is warned about and ordered after everything else.
 */
import { isKeyDelete } from '../plan-format/index.js';
import type { Operation } from '../plan-format/index.js';
import type { KindRegistry } from '../resources/index.js';

/** Ops that depend, directly or not, on `id`. */
function dependants(ops: readonly Operation[], id: string): Set<string> {
  const out = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const op of ops) {
      if (out.has(op.id)) continue;
      if (op.dependsOn.some((d) => d === id || out.has(d))) {
        out.add(op.id);
        grew = true;
      }
    }
  }
  return out;
}

/**
 * `ops` (already in dependency order) with key deletes last: each waits for every operation that
 * does not itself wait for it, so nothing else is left to do when the key goes.
 */
export function keyDeletesLast(ops: readonly Operation[], kinds: KindRegistry): Operation[] {
  const keys = ops.filter((op) => isKeyDelete(op, kinds));
  if (keys.length === 0) return [...ops];
  const keyIds = new Set(keys.map((k) => k.id));
  const rest = ops.filter((op) => !keyIds.has(op.id));
  const last = keys.map((k) => {
    const after = dependants(ops, k.id);
    const others = rest.filter((op) => !after.has(op.id)).map((op) => op.id);
    return { ...k, dependsOn: [...new Set([...k.dependsOn, ...others])] };
  });
  // A key delete's dependants (the new half of a delete-first replace) follow it.
  const blocked = new Set(last.flatMap((k) => [...dependants(ops, k.id)]));
  return [...rest.filter((op) => !blocked.has(op.id)), ...last, ...rest.filter((op) => blocked.has(op.id))];
}

/** The plan's note about deleted keys, when there are any. */
export function keyInUseNote(ops: readonly Operation[], kinds: KindRegistry): string[] {
  const deletes = ops.filter((op) => isKeyDelete(op, kinds));
  const first = deletes[0];
  if (first === undefined) return [];
  const keys = [...new Set(deletes.map((op) => op.key))];
  const d = kinds.descriptorOf(first.kind);
  return [
    `deletes or replaces ${keys.length === 1 ? d.title : d.titlePlural} ${keys.join(', ')}: if acctsync runs with ${keys.length === 1 ? 'it' : 'one of them'}, every request after the delete fails with 401; ${keys.length === 1 ? 'it is' : 'they are'} deleted last`,
  ];
}
