const MAX_PREVIEW = 60;

/**
 * Enough of a user's input to recognise it in a message, without echoing megabytes of garbage or
 * control characters into a terminal.
 */
export function preview(s: string): string {
  const head = s.length > MAX_PREVIEW ? `${s.slice(0, MAX_PREVIEW - 3)}...` : s;
  return head.replace(/\p{Cc}/gu, '?');
}
