/**
 * Running the built CLI (`dist/cli/main.js`, built by vitest's global setup) as a child process, and
 * `acctsync serve` as a standalone emulator.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { apiEnv } from './account.js';

export const cliPath = new URL('../../dist/cli/main.js', import.meta.url).pathname;
export const repoRoot = new URL('../../', import.meta.url).pathname;
export const examplesDir = new URL('../../examples/', import.meta.url).pathname;

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Environment for a child: no inherited SVC_* variables, environment, or CI job's (a job's step
 * summary, GitHub Actions itself), colour off.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  delete env.SVC_API_URL;
  delete env.SVC_API_KEY;
  delete env.ACCTSYNC_ENV;
  delete env.GITHUB_ACTIONS;
  delete env.GITHUB_STEP_SUMMARY;
  return { ...env, ...extra };
}

interface RunOptions {
  readonly cwd: string;
  readonly env?: Record<string, string>;
  /** Only `env` and PATH reach the child, nothing else of this process's environment. */
  readonly isolated?: boolean;
  readonly timeoutMs?: number;
}

/** Runs the CLI to completion (killed after `timeoutMs`), asynchronously: the emulators answer from this process. */
export async function runCli(args: readonly string[], options: RunOptions): Promise<CliResult> {
  const child = spawn(process.execPath, [cliPath, ...args], {
    cwd: options.cwd,
    env: options.isolated === true ? { PATH: process.env.PATH ?? '', ...options.env } : childEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collect(child, options.timeoutMs ?? 60_000);
}

/** Runs `acctsync ...args` against `api` with its key in the environment, and nothing else of ours. */
export function runCliAgainst(
  args: readonly string[],
  api: { readonly url: string; readonly token: string },
  options: { readonly env?: Record<string, string>; readonly cwd?: string } = {},
): Promise<CliResult> {
  return runCli(args, {
    cwd: options.cwd ?? process.cwd(),
    env: { ...apiEnv(api), ...options.env },
    isolated: true,
  });
}

/** A shell script's `acctsync`: the built CLI, for a directory on the script's PATH. */
export const cliShim = `#!/bin/sh\nexec "${process.execPath}" "${cliPath}" "$@"\n`;

/**
 * Runs `script` with bash as a reader pastes it into a terminal (`set -euo pipefail`, no rc files),
 * to completion (killed after `timeoutMs`).
 */
export async function runBash(script: string, options: RunOptions): Promise<CliResult> {
  const child = spawn('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', script], {
    cwd: options.cwd,
    env: options.isolated === true ? { PATH: process.env.PATH ?? '', ...options.env } : childEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collect(child, options.timeoutMs ?? 60_000);
}

/** Waits for a child to exit, with its output; SIGKILLs it after `timeoutMs`. */
export async function collect(child: ChildProcess, timeoutMs: number): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  try {
    const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
    return { code, signal, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves on the output event after which `printed()` (the child's stdout as the caller gathers
 * it, from where the caller's wait begins) matches `pattern`. Rejects when the child exits first,
 * or after `timeoutMs`; the message names the pattern, never the output (it may hold secrets).
 */
export function untilPrinted(
  child: ChildProcess,
  printed: () => string,
  pattern: RegExp,
  timeoutMs = 40_000,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = (): void => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.off('close', closed);
    };
    const check = (): void => {
      if (!pattern.test(printed())) return;
      stop();
      resolve();
    };
    const closed = (): void => {
      stop();
      reject(new Error(`the process exited before printing ${String(pattern)}`));
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${String(pattern)}`));
    }, timeoutMs);
    // After the caller's own listener: `printed()` includes the chunk that arrived.
    child.stdout?.on('data', check);
    child.once('close', closed);
    check();
  });
}

export interface ServeProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** Output so far. */
  output(): string;
  /** SIGKILL (or another signal) and wait for the exit; resolves with the exit code (null if killed). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `acctsync serve --port 0` and resolves once it prints its URL. */
export async function startServe(args: readonly string[], cwd: string): Promise<ServeProcess> {
  const child = spawn(process.execPath, [cliPath, 'serve', '--host', '127.0.0.1', '--port', '0', ...args], {
    cwd,
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
  const exited = once(child, 'exit');
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 30_000);
    const check = (): void => {
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', check);
    child.on('exit', () => {
      clearTimeout(timer);
      reject(new Error(`serve exited early: ${out}`));
    });
  });
  return {
    child,
    url,
    output: () => out,
    async stop(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
      return child.exitCode;
    },
  };
}
