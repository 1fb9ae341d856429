/**
 * Nothing a user, the machine or the network causes is an "internal error" (exit 70): each
 * operational failure below, run through the built CLI, exits 1 with one line naming the file or
 * port and what to do, prints no stack trace, and changes nothing on the account.
 *
 * Tests may run as root, where file modes do not stop anyone: there, "cannot write here" is a path
 * whose parent is a regular file (ENOTDIR), and "cannot read this" is a symlink pointing at itself
 * (ELOOP); both fail for root too. A full disk is /dev/full, reached through a preloaded module
 * (fixtures/full-disk.js) that sends writes under one directory there.
 */
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderError } from '../../src/cli/render-error.js';
import { testClient } from '../support/client.js';
import { runCli, startServe, type CliResult } from '../support/cli.js';
import { startCliAccount, type CliAccount } from './support.js';

const asRoot = process.getuid?.() === 0;
const fullDiskModule = new URL('./fixtures/full-disk.js', import.meta.url).pathname;

const config = 'version: 1\nscope: errors\nip_policies:\n  office: {}\n';
const configWithKey = `${config}api_keys:\n  deploy:\n    description: deploy key\n`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'acctsync-errors-'));
  await mkdir(join(dir, 'account'));
  await writeFile(join(dir, 'account/a.yaml'), config);
});
afterEach(async () => {
  await chmod(dir, 0o700);
  for (const entry of await readdir(dir, { recursive: true })) {
    await chmod(join(dir, entry), 0o700).catch(() => undefined);
  }
  await rm(dir, { recursive: true, force: true });
});

/** A directory nobody may create files in: mode 0555, or for root a regular file in its place. */
async function unwritableDir(path: string): Promise<string> {
  if (asRoot) {
    await writeFile(path, 'a file where a directory should be\n');
  } else {
    await mkdir(path);
    await chmod(path, 0o555);
  }
  return path;
}

/** A file that cannot be read: mode 0000, or for root a symlink to itself. */
async function unreadableFile(path: string, text: string): Promise<string> {
  if (asRoot) {
    await symlink(path, path);
  } else {
    await writeFile(path, text);
    await chmod(path, 0o000);
  }
  return path;
}

/** The errno code each helper above produces. */
const unwritableCode = asRoot ? 'ENOTDIR' : 'EACCES';
const unreadableCode = asRoot ? 'ELOOP' : 'EACCES';

/** Environment making every write under `path` meet a full disk. */
function fullDisk(path: string): Record<string, string> {
  return { NODE_OPTIONS: `--import=${fullDiskModule}`, ACCTSYNC_TEST_FULL_DIR: path };
}

async function listening(server: Server | ReturnType<typeof createHttpServer>): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Exit 1, no "internal error", no stack trace, and exactly one `error:` line, matching `pattern`. */
function expectOneClearLine(run: CliResult, pattern: RegExp): void {
  expect(run.code, run.stderr).toBe(1);
  expect(run.stderr).not.toContain('internal error');
  expect(run.stderr).not.toMatch(/^\s+at /m);
  const errors = run.stderr.split('\n').filter((line) => line.startsWith('error:'));
  expect(errors, run.stderr).toHaveLength(1);
  expect(errors[0]).toMatch(pattern);
}

describe('ports', () => {
  it('serve on a port in use', async () => {
    const busy = createServer();
    const port = await listening(busy);
    try {
      const run = await runCli(['serve', '--port', String(port)], { cwd: dir, timeoutMs: 20_000 });
      expectOneClearLine(
        run,
        new RegExp(`^error: serve --port ${port}: the port is already in use; choose another with --port`),
      );
    } finally {
      busy.close();
    }
  });

  it('watch on a port in use exits before touching the account', async () => {
    const account = await startCliAccount();
    const busy = createServer();
    const port = await listening(busy);
    try {
      await account.write('account/a.yaml', config);
      const run = await account.acctsync(['watch', '--listen', `127.0.0.1:${port}`]);
      expectOneClearLine(
        run,
        new RegExp(
          `^error: --listen 127\\.0\\.0\\.1:${port}: the port is already in use; choose another with --listen`,
        ),
      );
      expect(account.writes()).toBe(0);
    } finally {
      busy.close();
      await account.close();
    }
  });
});

describe('serve --data', () => {
  it('in a directory it cannot write', async () => {
    const data = join(await unwritableDir(join(dir, 'state')), 'state.json');
    const run = await runCli(['serve', '--port', '0', '--data', data], { cwd: dir, timeoutMs: 20_000 });
    expectOneClearLine(
      run,
      new RegExp(
        `^error: cannot (use|save) the emulator state (file|to) .*state/state\\.json: ${unwritableCode} `,
      ),
    );
  });

  it('naming a directory', async () => {
    const run = await runCli(['serve', '--port', '0', '--data', join(dir, 'account')], {
      cwd: dir,
      timeoutMs: 20_000,
    });
    expectOneClearLine(
      run,
      /^error: cannot use the emulator state file .*account: EISDIR \(illegal operation on a directory\); it is a directory: name a file$/,
    );
  });

  it('naming a file that is not JSON', async () => {
    const file = join(dir, 'state.json');
    await writeFile(file, '{"format": "acctsync-emulator-state", "records": [');
    const run = await runCli(['serve', '--port', '0', '--data', file], { cwd: dir, timeoutMs: 20_000 });
    expectOneClearLine(
      run,
      /^error: .*state\.json is not an emulator state file: it is not valid JSON; fix it, or move it away to start empty$/,
    );
    expect(await readFile(file, 'utf8')).toBe('{"format": "acctsync-emulator-state", "records": [');
  });

  it('with an unknown kind in the state file', async () => {
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
      /^error: .*state\.json is not an emulator state file: it holds an unknown kind "gadgets"; fix it, or move it away to start empty$/,
    );
  });

  it('on a full disk', async () => {
    const full = join(dir, 'full');
    await mkdir(full);
    const run = await runCli(['serve', '--port', '0', '--data', join(full, 'state.json')], {
      cwd: dir,
      env: fullDisk(full),
      timeoutMs: 20_000,
    });
    expectOneClearLine(
      run,
      /^error: cannot save the emulator state to .*full\/state\.json: ENOSPC \(no space left on device\); the disk is full: free some space and run again$/,
    );
  });
});

describe('serve --data, a save failing while it runs', () => {
  it('warns at once, keeps serving, and exits 1 at stop with one line', async () => {
    const state = join(dir, 'state');
    await mkdir(state);
    const serve = await startServe(['--token', 'errors-token', '--data', join(state, 'state.json')], dir);
    const client = testClient({ url: serve.url, token: 'errors-token' }, { retry: { attempts: 1 } });
    try {
      // The directory is swapped for a file: every later save meets ENOTDIR, for root too.
      await rename(state, join(dir, 'state-moved'));
      await writeFile(state, 'in the way\n');
      await client.post('/ip_policies', { description: 'made while saves fail' });
      await expect.poll(() => serve.output(), { timeout: 10_000 }).toMatch(/^warning: cannot save/m);
      expect(serve.output()).toMatch(
        /^warning: cannot save the emulator state to .*state\/state\.json: ENOTDIR \(not a directory\); .*; the account stays in memory and is saved with the next change$/m,
      );
      const listed = await client.get<{ ip_policies: unknown[] }>('/ip_policies');
      expect(listed.body.ip_policies).toHaveLength(1);
    } finally {
      await client.close();
      await serve.stop('SIGTERM');
    }
    expect(serve.child.exitCode).toBe(1);
    const errors = serve
      .output()
      .split('\n')
      .filter((line) => line.startsWith('error:'));
    expect(errors).toEqual([expect.stringMatching(/^error: cannot save the emulator state to .*: ENOTDIR /)]);
    expect(serve.output()).not.toMatch(/internal error|^\s+at /m);
  });
});

describe('the embedded emulator', () => {
  it('when .acctsync cannot be a directory', async () => {
    await writeFile(join(dir, '.acctsync'), 'a file in the way');
    const run = await runCli(['plan', '--api-url', 'embedded'], { cwd: dir });
    expectOneClearLine(run, /^error: cannot use the embedded emulator's state in .*: (EEXIST|ENOTDIR) .*; /);
  });

  it('on a full disk applies nothing', async () => {
    const state = join(dir, '.acctsync');
    await mkdir(state);
    const run = await runCli(['sync', '--api-url', 'embedded'], { cwd: dir, env: fullDisk(state) });
    expectOneClearLine(
      run,
      /^error: cannot save the emulator state to .*\.acctsync\/embedded\.json: ENOSPC \(no space left on device\); the disk is full/,
    );
    expect(run.stdout).not.toMatch(/create/);
    expect(await readdir(state)).toEqual([]);
  });
});

describe('plan --out', () => {
  it('into a directory it cannot write', async () => {
    const out = join(await unwritableDir(join(dir, 'plans')), 'plan.json');
    const run = await runCli(['plan', '--api-url', 'embedded', '--out', out], { cwd: dir });
    expectOneClearLine(
      run,
      new RegExp(`^error: cannot write the plan to .*plans/plan\\.json: ${unwritableCode} \\(.*\\); `),
    );
  });

  it('into a directory that does not exist', async () => {
    const run = await runCli(['plan', '--api-url', 'embedded', '--out', join(dir, 'missing/plan.json')], {
      cwd: dir,
    });
    expectOneClearLine(
      run,
      /^error: cannot write the plan to .*missing\/plan\.json: ENOENT \(no such file or directory\); check the path$/,
    );
  });

  it('on a full disk', async () => {
    const full = join(dir, 'full');
    await mkdir(full);
    const run = await runCli(['plan', '--api-url', 'embedded', '--out', join(full, 'plan.json')], {
      cwd: dir,
      env: fullDisk(full),
    });
    expectOneClearLine(
      run,
      /^error: cannot write the plan to .*full\/plan\.json: ENOSPC \(no space left on device\); the disk is full: free some space and run again$/,
    );
  });
});

describe('files of other commands', () => {
  it('apply of a plan file it cannot read', async () => {
    const account = await startCliAccount();
    try {
      const file = await unreadableFile(join(account.dir, 'plan.json'), '{}\n');
      const run = await account.acctsync(['apply', file]);
      expectOneClearLine(
        run,
        new RegExp(`^error: cannot read the plan file .*plan\\.json: ${unreadableCode} \\(.*\\); .+$`),
      );
      expect(account.writes()).toBe(0);
    } finally {
      await account.close();
    }
  });

  it('export --out into a directory it cannot write', async () => {
    const out = join(await unwritableDir(join(dir, 'exported')), 'account');
    const run = await runCli(['export', '--api-url', 'embedded', '--out', out], { cwd: dir });
    expectOneClearLine(
      run,
      new RegExp(`^error: cannot write the export to .*exported/account: ${unwritableCode} \\(.*\\); .+$`),
    );
  });

  it('export --out on a full disk', async () => {
    const full = join(dir, 'full');
    await mkdir(full);
    const run = await runCli(['export', '--api-url', 'embedded', '--out', join(full, 'account.yaml')], {
      cwd: dir,
      env: fullDisk(full),
    });
    expectOneClearLine(
      run,
      /^error: cannot write the export to .*full\/account\.yaml: ENOSPC \(no space left on device\); the disk is full: free some space and run again$/,
    );
  });
});

it('the GitHub step summary on a full disk', async () => {
  const full = join(dir, 'full');
  await mkdir(full);
  const run = await runCli(['plan', '--api-url', 'embedded'], {
    cwd: dir,
    env: { ...fullDisk(full), GITHUB_STEP_SUMMARY: join(full, 'summary.md') },
  });
  expectOneClearLine(
    run,
    /^error: cannot write the step summary to .*full\/summary\.md: ENOSPC \(no space left on device\); the disk is full: free some space and run again$/,
  );
});

describe('sync --token-output, checked before any change', () => {
  let account: CliAccount;
  beforeEach(async () => {
    account = await startCliAccount();
    await account.write('account/a.yaml', configWithKey);
  });
  afterEach(async () => {
    await account.close();
  });

  it('in a directory it cannot write', async () => {
    const file = join(await unwritableDir(join(account.dir, 'secrets')), 'tokens.json');
    const run = await account.acctsync(['sync', '--token-output', file]);
    expectOneClearLine(
      run,
      new RegExp(`^error: cannot (read|write) the token file .*secrets/tokens\\.json: ${unwritableCode} `),
    );
    expect(account.writes()).toBe(0);
  });

  it('in a directory that does not exist', async () => {
    const run = await account.acctsync(['sync', '--token-output', join(account.dir, 'missing/tokens.json')]);
    expectOneClearLine(
      run,
      /^error: cannot write the token file .*missing\/tokens\.json: ENOENT \(no such file or directory\); check the path$/,
    );
    expect(account.writes()).toBe(0);
  });

  it('on a full disk', async () => {
    const full = join(account.dir, 'full');
    await mkdir(full);
    const run = await account.acctsync(['sync', '--token-output', join(full, 'tokens.json')], fullDisk(full));
    expectOneClearLine(
      run,
      /^error: cannot write the token file .*full\/tokens\.json: ENOSPC \(no space left on device\); the disk is full/,
    );
    expect(account.writes()).toBe(0);
  });

  it('an existing token file it cannot read', async () => {
    const file = await unreadableFile(join(account.dir, 'tokens.json'), '{}\n');
    const run = await account.acctsync(['sync', '--token-output', file]);
    expectOneClearLine(
      run,
      new RegExp(`^error: cannot read the token file .*tokens\\.json: ${unreadableCode} \\(.*\\); `),
    );
    expect(account.writes()).toBe(0);
  });
});

describe('config files', () => {
  /** Config problems are reported as the loader reports every finding: a summary, then `file:line:col: error: ...`. */
  function expectConfigFinding(run: CliResult, pattern: RegExp): void {
    expectOneClearLine(run, /^error: the desired state is invalid: 1 error$/);
    expect(run.stderr).toMatch(pattern);
  }

  it('a config file it cannot read', async () => {
    const account = await startCliAccount();
    try {
      await account.write('account/a.yaml', config);
      await unreadableFile(join(account.dir, 'lab.yaml'), 'ip_policies:\n  lab: {}\n');
      const run = await account.acctsync(['sync', 'account', 'lab.yaml']);
      expectConfigFinding(
        run,
        new RegExp(`^lab\\.yaml:1:1: error: cannot read the file: ${unreadableCode} \\(.*\\); .+$`, 'm'),
      );
      expect(account.writes()).toBe(0);
    } finally {
      await account.close();
    }
  });

  it('a value file (a secret) it cannot read', async () => {
    const account = await startCliAccount();
    try {
      await account.write(
        'account/a.yaml',
        'version: 1\nscope: errors\nip_policies:\n  office: { description: { file: ../secret.txt } }\n',
      );
      await unreadableFile(join(account.dir, 'secret.txt'), 'office\n');
      const run = await account.acctsync(['sync']);
      expectConfigFinding(
        run,
        new RegExp(
          `^account/a\\.yaml:4:.*error: cannot read file \\.\\./secret\\.txt: ${unreadableCode} \\(.*\\); .+$`,
          'm',
        ),
      );
      expect(account.writes()).toBe(0);
    } finally {
      await account.close();
    }
  });

  it('a config directory that is a file', async () => {
    await rm(join(dir, 'account'), { recursive: true });
    await writeFile(join(dir, 'account'), config);
    const run = await runCli(['plan', '--api-url', 'embedded', 'account/prod'], { cwd: dir });
    expectConfigFinding(
      run,
      /^account\/prod:1:1: error: cannot read the file: ENOTDIR \(not a directory\); part of the path is a file, not a directory: check the path$/m,
    );
  });
});

describe('the API key file', () => {
  it('one it cannot read', async () => {
    const account = await startCliAccount();
    try {
      await account.write('account/a.yaml', config);
      const file = await unreadableFile(join(account.dir, 'key'), `${account.emulator.token}\n`);
      const run = await runCli(['sync', '--api-url', account.emulator.url, '--api-key-file', file], {
        cwd: account.dir,
      });
      expectOneClearLine(
        run,
        new RegExp(`^error: cannot read the API key file .*key: ${unreadableCode} \\(.*\\); `),
      );
      expect(account.writes()).toBe(0);
    } finally {
      await account.close();
    }
  });

  it('a directory', async () => {
    const run = await runCli(
      ['plan', '--api-url', 'http://127.0.0.1:9', '--api-key-file', join(dir, 'account')],
      {
        cwd: dir,
      },
    );
    expectOneClearLine(
      run,
      /^error: cannot read the API key file .*account: EISDIR \(illegal operation on a directory\); it is a directory: name a file$/,
    );
  });
});

describe('the network', () => {
  it('an API nobody listens on', async () => {
    const closed = createServer();
    const port = await listening(closed);
    await new Promise((resolve) => closed.close(resolve));
    const run = await runCli(['plan', '--api-url', `http://127.0.0.1:${port}`, '--deadline', '10s'], {
      cwd: dir,
      env: { SVC_API_KEY: 'errors-key' },
    });
    expectOneClearLine(
      run,
      /^error: GET \/\S+: network error ECONNREFUSED \(the request was not sent\); nothing accepts connections at the API address: check --api-url \(or SVC_API_URL\)$/,
    );
  });

  it('an API host that does not resolve', async () => {
    const run = await runCli(['plan', '--api-url', 'http://acctsync-errors.invalid', '--deadline', '10s'], {
      cwd: dir,
      env: { SVC_API_KEY: 'errors-key' },
    });
    expectOneClearLine(
      run,
      /^error: GET \/\S+: network error (ENOTFOUND|EAI_AGAIN) \(the request was not sent\); the API host name (does not resolve|could not be resolved now)/,
    );
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
});

it("a file error no layer explained is still the user's to fix, not a bug report", async () => {
  const missing = join(dir, 'nowhere/file');
  const err: unknown = await readFile(missing).catch((e: unknown) => e);
  expect(renderError(err)).toEqual({
    text: `error: cannot open ${missing}: ENOENT (no such file or directory); check the path`,
    annotations: [],
    exitCode: 1,
  });
});
