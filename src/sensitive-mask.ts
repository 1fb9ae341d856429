/**
 * What shows in place of a sensitive value in every output: a plan's changes, a diagnostic that
 * would quote a secret. A code frame, which keeps the file's layout, masks with asterisks instead.
 */
export const sensitiveMask = '(sensitive)';
