/** Child processes of the bench: servers and measured runs, each bounded by a timeout. */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { ServerSpec } from '../children/server.js';

const childDir = new URL('../children/', import.meta.url);

export interface ChildServer {
  readonly url: string;
  readonly token: string;
  readonly pid: number | undefined;
  /** CPU time (user + system) the server process has used so far, in ms. */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

/** Waits for the first IPC message of `child`, failing when it exits first or after `timeoutMs`. */
export function firstMessage<T>(child: ChildProcess, timeoutMs: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (m: unknown): void => {
      done();
      resolve(m as T);
    };
    const onExit = (code: number | null): void => {
      done();
      reject(new Error(`${what}: exited with ${code} before answering`));
    };
    const timer = setTimeout(() => {
      done();
      child.kill('SIGKILL');
      reject(new Error(`${what}: no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/** Starts a server child (the emulator or a bare node:http server). */
export async function startServer(spec: ServerSpec): Promise<ChildServer> {
  const child = fork(fileURLToPath(new URL('server.js', childDir)), [JSON.stringify(spec)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { url, token } = await firstMessage<{ url: string; token: string }>(
    child,
    60_000,
    `${spec.mode} server`,
  );
  return {
    url,
    token,
    pid: child.pid,
    cpuMs() {
      const answer = firstMessage<{ cpuMs: number }>(child, 10_000, 'server cpu');
      child.send('cpu');
      return answer.then((m) => m.cpuMs);
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs `children/<script>.js` with a JSON argument and returns its one IPC result. */
export async function runChild<T>(script: string, arg: unknown, timeoutMs: number): Promise<T> {
  const child = fork(fileURLToPath(new URL(`${script}.js`, childDir)), [JSON.stringify(arg)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: ['--expose-gc'],
  });
  const result = await firstMessage<T>(child, timeoutMs, script);
  if (child.exitCode === null) await once(child, 'exit');
  return result;
}
