/**
 * `npx acctsync` in a clone runs the built CLI, also after a rebuild (`npm test` rebuilds dist/):
 * the README's commands must not fail with "Permission denied" once the tests have run.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);

function npx(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', [...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the package bin', () => {
  it('is executable after the build, and npx acctsync runs it', async () => {
    expect(statSync(new URL('dist/cli/main.js', root)).mode & 0o111).not.toBe(0);
    const version = await npx(['acctsync', '--version']);
    expect(version.stderr).not.toContain('Permission denied');
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
