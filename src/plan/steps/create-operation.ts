/** The create of a desired object that has no live counterpart. */
import { descriptorOf, type DesiredObject } from '../../resources/index.js';
import { resolvedFields } from '../normalize.js';
import type { Operation } from '../types.js';
import { changeMasker } from './masking.js';
import type { OperationContext } from './operation-context.js';

export function createOperation(o: DesiredObject, ctx: OperationContext): Operation {
  const d = descriptorOf(o.kind);
  const mask = changeMasker(d, o, undefined);
  const values = resolvedFields(d, o, ctx.replacements.resolve);
  const created = Object.keys(d.fields)
    .filter((name) => name in values && !(name === 'metadata' && values[name] === ''))
    .map((name) => mask({ path: [name], after: values[name] }));
  return {
    id: `create ${o.key}`,
    action: 'create',
    kind: o.kind,
    key: o.key,
    ...(o.parentKey === undefined ? {} : { parentKey: o.parentKey }),
    changes: created,
    dependsOn: [],
    reason_code: 'create_because_missing',
    metadata: ctx.metadata.final(o, undefined),
  };
}
