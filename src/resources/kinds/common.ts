import { field } from '../fields.js';
import type { Field, KindDescriptor, ModuleDescriptor } from '../types.js';

export const crud: KindDescriptor['operations'] = {
  create: true,
  list: true,
  get: true,
  update: true,
  delete: true,
};

/** A module as a member of its owner's create body; null when the owner has no such module. */
export function moduleField(module: ModuleDescriptor): Field {
  return field({ type: 'module', module }, `The ${module.title}.`, { nullable: true, default: null });
}
