/**
 * Nothing a user or the network causes is an "internal error" (exit 70): each of these error paths,
 * run through the built CLI, exits 1 with one line saying what went wrong.
 */
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runCli, type CliResult } from '../reliability/support/cli.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'acctsync-errors-'));
  await mkdir(join(dir, 'account'));
  await writeFile(join(dir, 'account/a.yaml'), 'version: 1\nscope: errors\nip_policies:\n  office: {}\n');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function listening(server: Server | ReturnType<typeof createHttpServer>): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function expectOneClearLine(run: CliResult, pattern: RegExp): void {
  expect(run.code, run.stderr).toBe(1);
  expect(run.stderr).not.toContain('internal error');
  expect(run.stderr).not.toMatch(/^\s+at /m);
  const lines = run.stderr.trim().split('\n');
  expect(lines.at(-1)).toMatch(pattern);
}

it('serve on a port in use', async () => {
  const busy = createServer();
  const port = await listening(busy);
  try {
    const run = await runCli(['serve', '--port', String(port)], { cwd: dir, timeoutMs: 20_000 });
    expectOneClearLine(run, /^error: serve: cannot listen: .*EADDRINUSE/);
  } finally {
    busy.close();
  }
});

it('serve --data on a directory it cannot read as a file', async () => {
  const run = await runCli(['serve', '--port', '0', '--data', join(dir, 'account')], {
    cwd: dir,
    timeoutMs: 20_000,
  });
  expectOneClearLine(
    run,
    /^error: cannot use the state file .*account: EISDIR \(illegal operation on a directory\)$/,
  );
});

it('serve --data with an unknown kind in the state file', async () => {
  const file = join(dir, 'state.json');
  await writeFile(
    file,
    JSON.stringify({
      format: 'acctsync-emulator-state',
      version: 1,
      watermark: 0,
      principals: [],
      records: [{ kind: 'gadgets', id: 'x' }],
      agents: [],
      deliveries: [],
    }),
  );
  const run = await runCli(['serve', '--port', '0', '--data', file], { cwd: dir, timeoutMs: 20_000 });
  expectOneClearLine(
    run,
    /^error: .*state\.json is not an emulator state file: it holds an unknown kind "gadgets"$/,
  );
});

it('the embedded emulator when .acctsync cannot be a directory', async () => {
  await writeFile(join(dir, '.acctsync'), 'a file in the way');
  const run = await runCli(['plan', '--api-url', 'embedded'], { cwd: dir });
  expectOneClearLine(run, /^error: cannot use the embedded emulator's state in .*: (EEXIST|ENOTDIR) /);
});

it('plan --out into a directory that does not exist', async () => {
  const run = await runCli(['plan', '--api-url', 'embedded', '--out', join(dir, 'missing/plan.json')], {
    cwd: dir,
  });
  expectOneClearLine(run, /^error: cannot write the plan to .*missing\/plan\.json: ENOENT$/);
});

it('a next_page_uri on another origin', async () => {
  const server = createHttpServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    const member = (req.url ?? '').split('?')[0]?.split('/').pop() ?? '';
    res.end(
      JSON.stringify({
        [member === 'api_keys' ? 'keys' : member]: [{ id: 'x_1' }],
        next_page_uri: 'http://elsewhere.invalid/next',
      }),
    );
  });
  const port = await listening(server);
  try {
    const run = await runCli(['plan', '--api-url', `http://127.0.0.1:${port}`], {
      cwd: dir,
      env: { SVC_API_KEY: 'errors-key' },
    });
    expectOneClearLine(
      run,
      /^error: refusing to send a request to http:\/\/elsewhere\.invalid: the API is at http:\/\/127\.0\.0\.1:\d+/,
    );
  } finally {
    server.close();
  }
});
