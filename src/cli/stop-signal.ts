/**
 * The first SIGTERM or SIGINT. Listening from the start: a signal during startup must stop the
 * daemon cleanly too, not kill it.
 */
export function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise<NodeJS.Signals>((done) => {
    process.once('SIGTERM', () => done('SIGTERM'));
    process.once('SIGINT', () => done('SIGINT'));
  });
}
