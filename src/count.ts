/**
 * A number with its noun, for messages: `1 error`, `3 errors`. The plural is written out by the
 * caller (`policies`, `addresses`): appending `s` gets English wrong. A kind's nouns are its
 * descriptor's `title` and `titlePlural` (`countOf` in `resources/titles.ts`).
 */
export function counted(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
