/** Finding the object a request path names. */
import type { KindDescriptor } from '../resources/index.js';
import type { Call } from './call.js';
import { notFound } from './failure.js';
import type { Located } from './model.js';

/** The object a path names; 404 also when it lives under another parent than the path says. */
export function locate(call: Call, d: KindDescriptor): Located {
  const id = call.params.id ?? '';
  const record = call.account.collection(d.kind).get(id);
  if (record === undefined) throw notFound();
  if (d.parent?.via === 'path' && record.values[d.parent.field] !== call.params[d.parent.field])
    throw notFound();
  return { d, record };
}
