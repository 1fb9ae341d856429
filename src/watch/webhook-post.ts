/**
 * One POST of a notification, bounded by a timer of our own. `AbortSignal.timeout` combined with
 * `AbortSignal.any` does not reliably fire on Node 20 (nodejs/node#57736: a webhook that never
 * answered held POSTs for 44 and 60 s), so the limit is a plain `setTimeout` aborting a plain
 * controller, and the wait is raced against that abort: whatever fetch does with the signal, the
 * caller gets its answer when the time is up.
 */

/** How an attempt ended. */
export type PostOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'timeout' | 'error' | 'status'; readonly cause: string };

const message = (err: unknown): string =>
  err instanceof Error
    ? err.cause instanceof Error
      ? `${err.message}: ${err.cause.message}`
      : err.message
    : String(err);

/** POSTs `body` as JSON to `url`; never takes longer than `timeoutMs`, nor past `stop`. */
export async function postJson(
  url: string,
  body: string,
  timeoutMs: number,
  stop: AbortSignal,
): Promise<PostOutcome> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`no answer within ${timeoutMs} ms`));
  }, timeoutMs);
  const onStop = (): void => controller.abort(new Error('the daemon is stopping'));
  if (stop.aborted) onStop();
  else stop.addEventListener('abort', onStop, { once: true });
  const aborted = new Promise<never>((_resolve, reject) => {
    const fail = (): void => reject(controller.signal.reason as Error);
    if (controller.signal.aborted) fail();
    else controller.signal.addEventListener('abort', fail, { once: true });
  });
  // Rejects unobserved once the attempt is over and the timer or the stop fires regardless.
  aborted.catch(() => undefined);
  try {
    const res = await Promise.race([
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: controller.signal,
      }),
      aborted,
    ]);
    // The body is not read, only released; a receiver that never ends it is cut by the same timer.
    await Promise.race([res.body?.cancel(), aborted]);
    return res.ok ? { ok: true } : { ok: false, reason: 'status', cause: `HTTP ${res.status}` };
  } catch (err) {
    if (timedOut) return { ok: false, reason: 'timeout', cause: `no answer within ${timeoutMs} ms` };
    return { ok: false, reason: 'error', cause: message(err) };
  } finally {
    clearTimeout(timer);
    stop.removeEventListener('abort', onStop);
  }
}
