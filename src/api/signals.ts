import { EventEmitter } from 'node:events';

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

/**
 * What undici accepts as a request's `signal` besides an AbortSignal: an emitter of `abort` with
 * `aborted` and `reason`. Much cheaper to make and to listen on than an AbortController's signal,
 * which matters once per attempt.
 */
class AttemptSignal extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/** The signal of one attempt: aborted by the caller's signal or by the deadline, whichever is first. */
interface AttemptDeadline {
  readonly signal: EventEmitter;
  /** True when the deadline, not the caller's signal, fired. */
  timedOut(): boolean;
  dispose(): void;
}

/** Like {@link linkSignals} for one signal and a deadline, without an AbortController. */
export function attemptDeadline(callerSignal: AbortSignal | undefined, timeoutMs: number): AttemptDeadline {
  const attempt = new AttemptSignal();
  let deadlinePassed = false;
  let onAbort: (() => void) | undefined;
  if (callerSignal?.aborted === true) attempt.abort(callerSignal.reason);
  else if (callerSignal !== undefined) {
    onAbort = () => attempt.abort(callerSignal.reason);
    callerSignal.addEventListener('abort', onAbort, { once: true });
  }
  const timer = setTimeout(() => {
    deadlinePassed = true;
    attempt.abort(new Error(`deadline of ${timeoutMs} ms passed`));
  }, timeoutMs);
  return {
    signal: attempt,
    timedOut: () => deadlinePassed,
    dispose: () => {
      clearTimeout(timer);
      if (onAbort !== undefined) callerSignal?.removeEventListener('abort', onAbort);
    },
  };
}
