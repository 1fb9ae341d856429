/** The plan schema's part for the requests operations carry (`OperationRequest` in `types.ts`). */
import { requestMethods } from './types.js';

export const requestsSchema = {
  description:
    "What the applier sends, in order (a create's POST first). In `path` and `body`, an object whose only member is `ref`, `secret` or `entries` is a placeholder the applier resolves when it sends: `{ref: KEY}` the id of an object created earlier in the run, `{secret: {key, path}}` the sensitive value at `path` of the config's object `key` (the plan never holds it), `{entries: [[KEY_OR_REF, VALUE], ...]}` an object built from its entries.",
  type: 'array',
  items: { $ref: '#/$defs/request' },
};

export const requestSchema = {
  type: 'object',
  required: ['method', 'path'],
  additionalProperties: false,
  properties: {
    method: { enum: [...requestMethods] },
    path: {
      description:
        'The path, or when it holds the id of an object created earlier in the run, its parts: joined in order, a `{ref}` part being the URL-encoded id of that key.',
      anyOf: [
        { type: 'string' },
        { type: 'array', minItems: 2, items: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/ref' }] } },
      ],
    },
    body: {
      description: 'The JSON body by request member names, with placeholders (see `requests`).',
      type: 'object',
    },
  },
};

export const refSchema = {
  type: 'object',
  required: ['ref'],
  additionalProperties: false,
  properties: { ref: { type: 'string', description: 'The key of an object the run creates first.' } },
};
