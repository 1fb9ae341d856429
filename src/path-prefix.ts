/**
 * Whether a path into a value (`['routes', 0, 'backend']`, a config's document path or a field
 * path) is `prefix` or lies under it. Segments compare as text: a list index read from YAML and
 * one from a field path are the same step.
 */
export function isUnder(path: readonly (string | number)[], prefix: readonly (string | number)[]): boolean {
  return prefix.length <= path.length && prefix.every((seg, i) => String(seg) === String(path[i]));
}
