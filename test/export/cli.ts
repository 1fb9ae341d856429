/** Runs the built CLI (`dist/cli/main.js`, built by the global setup) as a user would. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { apiEnv } from '../support/account.js';

const main = join(import.meta.dirname, '../../dist/cli/main.js');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `acctsync ...args` against `api` with its key in the environment. */
export function runCli(
  args: readonly string[],
  api: { readonly url: string; readonly token: string },
  options: { readonly env?: Record<string, string>; readonly cwd?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env: { PATH: process.env.PATH ?? '', ...apiEnv(api), ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
