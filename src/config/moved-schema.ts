/** The schema of the config's top-level `moved:` list (docs/config.md "Renaming an entry"). */

const key = (what: string): Record<string, unknown> => ({
  description: `${what}: \`<map>/<name>\`, or \`<map>/<name>/<member>/<item>\` for a nested item.`,
  type: 'string',
  pattern: '^[a-z_]+/[^/]+(/[a-z_]+/.+)?$',
});

export function movedSchema(): Record<string, unknown> {
  return {
    description:
      'Entries renamed: the live object of `from` is the entry `to` now, kept with its id (no delete, no create). A move may stay after it was applied. See docs/config.md "Renaming an entry".',
    type: 'array',
    items: {
      type: 'object',
      properties: { from: key('The old key'), to: key('The new key') },
      required: ['from', 'to'],
      additionalProperties: false,
    },
  };
}
