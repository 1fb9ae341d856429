/**
 * A plan says which environment it is for, in every rendering: two environments' plans of one
 * scope must never read alike to a reviewer or a pipeline.
 */
import { expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useTwoAccounts } from './support/two-accounts.js';

let dir: string;
let env: Record<string, string>;
useTwoAccounts('acctsync-named-outputs-', (accounts) => {
  ({ dir, env } = accounts);
});

async function acctsync(
  args: readonly string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const run = await runCli(args, { cwd: dir, env: { HOME: dir, ...env }, isolated: true });
  return { status: run.code, stdout: run.stdout, stderr: run.stderr };
}

it('text, markdown and JSON plans name their environment', async () => {
  for (const name of ['staging', 'production']) {
    const text = await acctsync(['plan', 'config', '--env', name]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe(`acctsync plan for scope web (environment ${name})`);

    const markdown = await acctsync(['plan', 'config', '--env', name, '--output', 'markdown']);
    expect(markdown.stdout.split('\n')[0]).toBe(`### acctsync plan: environment \`${name}\`, scope \`web\``);

    const json = await acctsync(['plan', 'config', '--env', name, '--output', 'json']);
    expect(json.status, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { environment?: string }).environment).toBe(name);
  }
}, 120_000);
