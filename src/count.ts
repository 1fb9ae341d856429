/** Counts in messages: a number with its noun, and the first few of a list with how many more. */

/**
 * `1 error`, `3 errors`. The plural is written out by the caller (`policies`, `addresses`):
 * appending `s` gets English wrong. A kind's nouns are its descriptor's `title` and `titlePlural`
 * (`countOf` in `resources/titles.ts`).
 */
export function counted(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The first `max` of `items` joined by commas, then how many more: `a, b, c and 4 more`. */
export function firstOf(items: readonly string[], max: number): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}
