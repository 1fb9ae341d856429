/**
 * The watch daemon: reconciles on each trigger (a timer, a change to the config, the account's
 * events), and serves its status, health and metrics; its logger and notifications.
 */
export { WatchMetrics } from './metrics.js';
export { apiEventHandlers } from './api-events.js';
export { startDaemon, type Daemon } from './daemon.js';
export { createLogger, type LogFormat } from './logger.js';
export { Notifier, parseNotifyUrls } from './notify.js';
export { createReconcileStep, type ReconcileSettings } from './reconcile.js';
export { parseListen } from './health.js';
export type { WatchMode } from './types.js';
