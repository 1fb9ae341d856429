import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startAccount } from '../support/account.js';

describe('watch start-up errors', () => {
  let squatter: Server | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (squatter ? squatter.close(resolve) : resolve(undefined)));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('exits 1 with one clear line when the port is already taken', async () => {
    dir = await mkdtemp(join(tmpdir(), 'acctsync-listen-'));
    const configDir = join(dir, 'config');
    await mkdir(configDir);
    await writeFile(join(configDir, 'policies.yaml'), 'ip_policies:\n  office:\n    description: office\n');
    await using account = await startAccount();
    const taken = createServer();
    squatter = taken;
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    if (address === null || typeof address === 'string') throw new Error('squatter has no port');

    const result = await runCli(
      ['watch', configDir, '--api-url', account.url, '--listen', `127.0.0.1:${address.port}`],
      { cwd: dir, env: { SVC_API_KEY: account.token }, timeoutMs: 20_000 },
    );

    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/internal error|this is a bug|at .*\.js:\d+/);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`127.0.0.1:${address.port}`);
    expect(lines[0]).toContain('already in use');
  });

  it('refuses to start without an explicit API, naming the way to use the emulator', async () => {
    dir = await mkdtemp(join(tmpdir(), 'acctsync-noapi-'));
    await writeFile(join(dir, 'policies.yaml'), 'ip_policies:\n  office:\n    description: office\n');

    const result = await runCli(['watch', dir, '--listen', '127.0.0.1:0'], { cwd: dir, timeoutMs: 20_000 });

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--api-url embedded');
    expect(result.stderr).not.toMatch(/internal error/);
    expect(result.stdout).toBe('');
  });
});
