/**
 * Every shell example of docs/emulator.md runs, in document order, as one script: against the
 * built CLI (`acctsync` on PATH), on a free port instead of the documented 4010. An example whose
 * request fails (an error body) or whose command exits non-zero fails the test.
 */
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliShim, runBash } from '../support/cli.js';
import { commandBlocks } from './command-blocks.js';

/** The blocks this test owns (test/docs/command-blocks.ts): every `sh` block of the doc. */
function shellBlocks(): string[] {
  return commandBlocks('docs/emulator.md')
    .filter((b) => b.runBy === 'test/docs/emulator-doc.test.ts')
    .map((b) => b.body);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

describe('docs/emulator.md', () => {
  it('documents every flag of serve and every control-surface route', async () => {
    const doc = readFileSync('docs/emulator.md', 'utf8');
    const { controlRoutes } = await import('../../src/emulator/control.js');
    const routes = controlRoutes({} as Parameters<typeof controlRoutes>[0]);
    for (const r of routes) expect(doc).toContain(`${r.method} ${r.pattern}`);
    const { command } = await import('../../src/cli/commands/serve.js');
    for (const flag of Object.keys(command.flags)) expect(doc).toContain(`\`--${flag}`);
  });

  it('runs every example', async () => {
    const blocks = shellBlocks();
    expect(blocks.length).toBeGreaterThan(5);
    const dir = mkdtempSync(join(tmpdir(), 'acctsync-emulator-doc-'));
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'acctsync'), cliShim, { mode: 0o755 });
    const port = String(await freePort());
    const script = [
      'set -euo pipefail',
      "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT",
      ...blocks.map((b) => b.replaceAll('4010', port)),
    ].join('\n');
    const result = await runBash(script, {
      cwd: dir,
      env: { PATH: `${bin}:${process.env.PATH ?? ''}` },
      isolated: true,
    });
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    // Error bodies carry a status_code; no example may get one.
    expect(result.stdout).not.toMatch(/"status_code":\s*[45]/);
    expect(result.stdout).toContain('"outcome":"done"');
    expect(result.stdout).toMatch(/"issuer_common_name":"acctsync emulator CA"/);
  });
});
