/** An AbortSignal linked to others and optionally to a deadline; dispose() detaches everything. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** True when the deadline, not a linked signal, fired. */
  timedOut(): boolean;
  dispose(): void;
}

/**
 * Links signals by hand rather than with `AbortSignal.any`, so that per-attempt listeners on a
 * long-lived client signal are removed as soon as the attempt ends.
 */
export function linkSignals(signals: readonly (AbortSignal | undefined)[], timeoutMs?: number): LinkedSignal {
  const controller = new AbortController();
  const linked = signals.filter((s): s is AbortSignal => s !== undefined);
  let deadlinePassed = false;
  const onAbort = (event: Event): void => controller.abort((event.target as AbortSignal).reason);
  for (const signal of linked) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', onAbort, { once: true });
  }
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          deadlinePassed = true;
          controller.abort(new Error(`deadline of ${timeoutMs} ms passed`));
        }, timeoutMs);
  // A deadline never keeps the process alive by itself.
  timer?.unref();
  return {
    signal: controller.signal,
    timedOut: () => deadlinePassed,
    dispose: () => {
      clearTimeout(timer);
      for (const signal of linked) signal.removeEventListener('abort', onAbort);
    },
  };
}
