/** The daemon's reconcile step on a test account, without the daemon: its settings and one run of it. */
import type { ApiClient } from '../../src/api/index.js';
import { builtinKinds } from '../../src/resources/index.js';
import { createReconcileStep, type ReconcileSettings } from '../../src/watch/reconcile.js';
import type { ReconcileResult } from '../../src/watch/types.js';
import { captureLog } from './log-capture.js';

/** A step over the config at `paths` (under `cwd`), with the settings `watch` runs by default. */
export function reconcileStep(
  client: ApiClient,
  where: { readonly paths: readonly string[]; readonly cwd: string },
  settings: Partial<ReconcileSettings> = {},
): (options?: { readonly signal?: AbortSignal }) => Promise<ReconcileResult> {
  const step = createReconcileStep({
    ...where,
    env: {},
    client,
    adopt: false,
    noDelete: false,
    parallelism: 4,
    continueOnError: false,
    guards: {},
    kinds: builtinKinds,
    ...settings,
  });
  return (options = {}) =>
    step({
      id: 'test',
      trigger: 'change',
      log: captureLog().log,
      signal: options.signal ?? new AbortController().signal,
      progress: { planned() {}, operationFinished() {} },
    });
}
