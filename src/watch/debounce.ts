/** Trailing-edge debounce: a burst of calls runs `fn` once, `waitMs` after the last one. */

interface Debounced {
  /** Starts or restarts the wait. */
  trigger(): void;
  /** Drops a pending call (on shutdown). */
  cancel(): void;
}

/**
 * Editors save in bursts (write a temp file, unlink the original, rename, touch a backup), and a
 * `git pull` rewrites many files at once: reacting to the first event would read a half-updated tree.
 */
export function debounce(waitMs: number, fn: () => void): Debounced {
  let timer: NodeJS.Timeout | undefined;
  return {
    trigger() {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        fn();
      }, waitMs);
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
