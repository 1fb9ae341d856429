/**
 * `guards:` in the config: the mass-delete and empty-config limits a sync applies, set in a file
 * that is reviewed with the change it allows. A pull request that must delete much raises the
 * limit in the same diff the reviewer approves; nobody edits the workflow to add `--force`.
 */
import type { GuardSettings } from '../resources/index.js';
import type { SourceFile } from './source.js';

/** The JSON Schema of `guards:`. */
export const guardsSchema = {
  description:
    "Limits sync and watch apply before the first write (docs/apply.md 'Guards'); the flags of sync, apply and watch override them.",
  type: 'object',
  properties: {
    max_delete_percent: {
      description:
        'Refuse a plan whose deletes and replaces exceed this share of the managed objects (default 30).',
      type: 'integer',
      minimum: 0,
      maximum: 100,
    },
    max_delete_min_managed: {
      description: 'Apply max_delete_percent only from this many managed objects up (default 10).',
      type: 'integer',
      minimum: 0,
    },
    allow_empty: {
      description: 'Let a config with no objects delete every object it manages (default false).',
      type: 'boolean',
    },
  },
  additionalProperties: false,
} as const;

/** The first file's `guards:`, already checked against {@link guardsSchema}. */
export function guardSettings(sources: readonly SourceFile[]): GuardSettings | undefined {
  for (const source of sources) {
    const raw = (source.value as Record<string, unknown>).guards as
      { max_delete_percent?: number; max_delete_min_managed?: number; allow_empty?: boolean } | undefined;
    if (raw === undefined) continue;
    return {
      ...(raw.max_delete_percent === undefined ? {} : { maxDeletePercent: raw.max_delete_percent }),
      ...(raw.max_delete_min_managed === undefined
        ? {}
        : { maxDeleteMinManaged: raw.max_delete_min_managed }),
      ...(raw.allow_empty === undefined ? {} : { allowEmpty: raw.allow_empty }),
    };
  }
  return undefined;
}
