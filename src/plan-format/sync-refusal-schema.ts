/** The plan schema's `syncRefusal`: what a sync of the plan would refuse, shown before the merge. */
import { syncGuards } from './types.js';

export const syncRefusalSchema = {
  description:
    'What `acctsync sync` would refuse in this plan (docs/apply.md, guards); absent when no guard refuses it. With --detailed-exitcode the plan then exits 1.',
  type: 'object',
  required: ['guard', 'reason', 'details', 'howToProceed'],
  additionalProperties: false,
  properties: {
    guard: { enum: [...syncGuards] },
    reason: { type: 'string', description: 'Why, as sync says it after `refusing to sync: `.' },
    details: {
      description: 'What would go: a heading, then the objects (at most 20 listed, the rest counted).',
      type: 'array',
      items: { type: 'string' },
    },
    howToProceed: {
      type: 'string',
      description: "The reviewer's way through: the config's guards:, reviewed with the change.",
    },
  },
};
