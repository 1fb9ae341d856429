/** How a secret is shown where it would appear: never its value, nor its length. */

/** In place of a sensitive value in a plan's changes and in a diagnostic that would quote it. */
export const sensitiveMask = '(sensitive)';

/**
 * In place of a secret inside text that keeps its layout (a code frame's source line) and in the
 * values a `--policy` rule reads: the same for every secret.
 */
export const secretStars = '********';
