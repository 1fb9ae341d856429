/** `acctsync serve`: the Account Management API emulator on a local port. */
import { isIPv4 } from 'node:net';
import { isSystemError, UsageError, UserError } from '../../errors.js';
import { defineCommand } from '../command.js';
import { help } from '../help/serve.js';

function parsePort(value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : -1;
  if (port < 0 || port > 65_535) throw new UsageError(`serve: --port must be 0..65535, found ${value}`);
  return port;
}

function parseRate(value: string): number {
  const match = /^(\d+)(?:\/m)?$/.exec(value);
  const rate = match === null ? 0 : Number(match[1]);
  if (rate < 1) throw new UsageError(`serve: --rate-limit must look like 120/m, found ${value}`);
  return rate;
}

function parseDelay(value: string): number {
  const match = /^(\d+)(ms|s|m)?$/.exec(value);
  if (match === null)
    throw new UsageError(`serve: --cert-delay must look like 500ms, 2s or 1m, found ${value}`);
  const unit = match[2] === 'm' ? 60_000 : match[2] === 's' ? 1_000 : 1;
  return Number(match[1]) * unit;
}

/** What to do when the emulator cannot listen, by the system error's code. */
const listenHints: Readonly<Record<string, (host: string, port: number) => string>> = {
  EADDRINUSE: (_host, port) =>
    `serve --port ${port}: the port is already in use; choose another with --port (0 picks a free one)`,
  EACCES: (_host, port) => `serve --port ${port}: permission denied; use a port above 1023`,
  EADDRNOTAVAIL: (host) => `serve --host ${host}: this machine has no such address`,
};

function listenError(err: NodeJS.ErrnoException & { code: string }, host: string, port: number): UserError {
  const hint = listenHints[err.code];
  return new UserError(hint?.(host, port) ?? `serve: cannot listen on ${host}:${port}: ${err.code}`, {
    cause: err,
  });
}

/** A bootstrap token shorter than this is guessable by whoever reaches a port beyond loopback. */
const minExposedTokenLength = 32;

function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || (isIPv4(bare) && bare.startsWith('127.'));
}

/**
 * The bootstrap key is an admin's: on an address other machines reach, a short token (the docs'
 * `test-token`) hands the account and its control surface to anyone on the network.
 */
function exposureWarning(host: string, token: string | undefined): string | undefined {
  if (isLoopback(host) || token === undefined || token.length >= minExposedTokenLength) return undefined;
  return `warning: serve --host ${host} listens beyond this machine with a --token of ${token.length} characters: anyone who reaches the port can guess it and use the admin key; pass a token of at least ${minExposedTokenLength} random characters (openssl rand -hex 24), or leave out --token to have one generated, or listen on 127.0.0.1`;
}

export const command = defineCommand({
  ...help,

  async run(values) {
    const { startEmulator } = await import('../../emulator/index.js');
    const rate = values['rate-limit'];
    const certDelay = values['cert-delay'];
    const host = values.host ?? '127.0.0.1';
    const port = parsePort(values.port ?? '4010');
    const warning = exposureWarning(host, values.token);
    if (warning !== undefined) console.error(warning);
    let emulator;
    try {
      emulator = await startEmulator({
        host,
        port,
        ...(values.token === undefined ? {} : { token: values.token }),
        ...(values.data === undefined
          ? {}
          : {
              dataFile: values.data,
              onSaveError: (err: Error) =>
                console.error(
                  `warning: ${err.message}; the account stays in memory and is saved with the next change`,
                ),
            }),
        ...(rate === undefined ? {} : { rateLimitPerMinute: parseRate(rate) }),
        ...(certDelay === undefined ? {} : { certDelayMs: parseDelay(certDelay) }),
        trustProxy: values['trust-proxy'] === true,
        echo: values.echo === true,
      });
    } catch (err) {
      if (isSystemError(err) && err.syscall === 'listen') throw listenError(err, host, port);
      throw err;
    }
    console.log(`acctsync emulator listening on ${emulator.url}`);
    if (values.token === undefined) console.log(`API key token: ${emulator.token}`);
    const running = emulator;
    // A last save that fails at exit is an error of the command: the edge says so and exits 1.
    await new Promise<void>((resolve, reject) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        running.close().then(resolve, reject);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return 0;
  },
});
