/**
 * Secrets never leak: every secret field of examples/ holds a distinct canary (the TLS private key
 * is a real key, checked whole and line by line), the API key is a canary too, and validate, plan
 * (text, JSON, markdown, saved), sync (text, JSON), export, watch logs and error paths are run
 * against `acctsync serve`. No canary may appear in any output, log or written file.
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  childEnv,
  cliPath,
  collect,
  examplesDir,
  runCli,
  startServe,
  untilPrinted,
  type CliResult,
  type ServeProcess,
} from '../../support/cli.js';

const tag = randomBytes(6).toString('hex');
const canary = (name: string): string => `canary-${name}-${tag}`;
const secrets = {
  oidc: canary('oidc-client-secret'),
  oauth: canary('oauth-client-secret'),
  cloud: canary('cloud-secret-access-key'),
  monitoring: canary('monitoring-api-key'),
  apiKey: canary('api-key'),
  wrongKey: canary('wrong-api-key'),
  keyFile: canary('api-key-from-file'),
  literal: canary('literal-client-secret'),
  rotated: canary('rotated-oidc-client-secret'),
};

/**
 * Defines the suite. `full`: every command and format and every error path (soak); otherwise the
 * commands where a secret is most at risk (a plan showing a changed secret, sync, export, a 401).
 */
export function defineSecretsSuite(options: { full: boolean }): void {
  const { full } = options;
  let dir: string;
  let serve: ServeProcess;
  /** Every text that left acctsync, labelled. */
  const outputs: Array<{ label: string; text: string }> = [];
  let privateKeyCanaries: string[] = [];

  function record(label: string, r: CliResult): CliResult {
    outputs.push({ label: `${label} stdout`, text: r.stdout }, { label: `${label} stderr`, text: r.stderr });
    return r;
  }

  async function cli(label: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
    const r = await runCli(args, {
      cwd: dir,
      env: { SVC_API_URL: serve.url, SVC_API_KEY: secrets.apiKey, ...env },
      timeoutMs: 60_000,
    });
    return record(label, r);
  }

  async function recordFiles(root: string, label: string): Promise<void> {
    for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      outputs.push({ label: `${label} ${path}`, text: await readFile(path, 'utf8') });
    }
  }

  async function setFaults(faults: Record<string, number>): Promise<void> {
    const res = await fetch(`${serve.url}/_emulator/faults`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${secrets.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(faults),
    });
    if (res.status !== 200) throw new Error(`setting faults: ${res.status}`);
  }

  function leaks(): string[] {
    const all = [...Object.values(secrets), ...privateKeyCanaries];
    const found: string[] = [];
    for (const { label, text } of outputs) {
      for (const c of all) if (text.includes(c)) found.push(`${label} contains ${c.slice(0, 40)}`);
    }
    return found;
  }

  beforeEach(() => {
    outputs.length = 0;
  });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'acctsync-secrets-'));
    await cp(examplesDir, dir, { recursive: true });
    // A checkout: examples/account reads ../pki and ../secrets, inside the work tree.
    await mkdir(join(dir, '.git'));
    await writeFile(join(dir, 'secrets/oidc-client-secret'), `${secrets.oidc}\n`);
    await writeFile(join(dir, 'secrets/oauth-client-secret'), `${secrets.oauth}\n`);
    await writeFile(join(dir, 'secrets/cloud-secret-access-key'), `${secrets.cloud}\n`);
    await writeFile(join(dir, 'secrets/monitoring-api-key'), `${secrets.monitoring}\n`);
    await writeFile(join(dir, 'api-key'), `${secrets.keyFile}\n`);
    const pem = await readFile(join(dir, 'secrets/api.example.com.key'), 'utf8');
    const body = pem.split('\n').filter((l) => l !== '' && !l.startsWith('-----'));
    // The whole key, and every base64 line of its body (a partial dump must not slip through).
    privateKeyCanaries = [pem.trim(), ...body.filter((l) => l.length >= 16)];
    serve = await startServe(['--token', secrets.apiKey, '--data', join(dir, 'serve-state.json')], dir);
  }, 60_000);

  afterAll(async () => {
    await serve.stop('SIGTERM');
    outputs.push({ label: 'serve output', text: serve.output() });
    await rm(dir, { recursive: true, force: true });
  });

  describe('no secret in any output', () => {
    it('validate, plan (text, JSON, markdown, saved), sync (text, JSON), export, apply', async () => {
      expect((await cli('validate', ['validate', 'account'])).code).toBe(0);
      await cli('plan json', ['plan', 'account', '--output', 'json']);
      if (full) {
        await cli('plan text', ['plan', 'account']);
        await cli('plan markdown', ['plan', 'account', '--output', 'markdown']);
        await cli('plan --out', ['plan', 'account', '--out', 'plan.json']);
      }
      const sync = await cli('sync', ['sync', 'account', '--token-output', 'tokens.json']);
      expect(sync.code, sync.stderr).toBe(0);
      // A changed secret: the plan shows an update of a write-only value; none of it may show it.
      await writeFile(join(dir, 'secrets/oidc-client-secret'), `${secrets.rotated}\n`);
      await writeFile(join(dir, 'secrets/monitoring-api-key'), `${secrets.rotated}-m\n`);
      const changed = await cli('plan text after rotation', ['plan', 'account', '--detailed-exitcode']);
      expect(changed.code, changed.stdout + changed.stderr).toBe(2);
      await cli('plan markdown --out after rotation', [
        'plan',
        'account',
        '--output',
        'markdown',
        '--out',
        'plan2.json',
      ]);
      if (full) {
        await cli('plan json after rotation', ['plan', 'account', '--output', 'json']);
        const applied = await cli('apply saved plan', ['apply', 'plan2.json', '--output', 'json']);
        expect(applied.code, applied.stderr).toBe(0);
        // A stale saved plan: the refusal names what changed, not its values.
        await cli('apply stale plan', ['apply', 'plan.json']);
        await writeFile(join(dir, 'secrets/oidc-client-secret'), `${secrets.oidc}\n`);
        await cli('sync dry-run', ['sync', 'account', '--dry-run', '--output', 'markdown']);
      }
      const syncJson = await cli('sync json', ['sync', 'account', '--output', 'json']);
      expect(syncJson.code, syncJson.stderr).toBe(0);
      expect((await cli('export', ['export'])).code).toBe(0);
      if (full) {
        await cli('export --out', ['export', '--out', 'exported']);
        await cli('export --api-key-file', ['export', '--api-key-file', 'api-key']);
        await recordFiles(join(dir, 'exported'), 'export');
        outputs.push({ label: 'plan.json', text: await readFile(join(dir, 'plan.json'), 'utf8') });
      }
      for (const file of ['plan2.json', 'tokens.json']) {
        outputs.push({ label: file, text: await readFile(join(dir, file), 'utf8') });
      }
      expect(leaks()).toEqual([]);
    }, 180_000);

    it('error paths: a wrong key, an unreachable API, failing writes', async () => {
      await cli('401', ['plan', 'account'], { SVC_API_KEY: secrets.wrongKey });
      if (full) {
        await cli('401 sync', ['sync', 'account'], { SVC_API_KEY: secrets.wrongKey });
        await cli('key file 401', ['plan', 'account', '--api-key-file', 'api-key']);
        await cli('unreachable', ['plan', 'account'], { SVC_API_URL: 'http://127.0.0.1:9' });
        await cli('key without url', ['plan', 'account'], { SVC_API_URL: '' });

        // Every write fails with 500 while secrets are being changed.
        await writeFile(join(dir, 'secrets/oidc-client-secret'), `${secrets.rotated}-2\n`);
        await setFaults({ error500: 1 });
        const failed = await cli('sync failing', ['sync', 'account']);
        expect(failed.code).not.toBe(0);
        await cli('sync failing json', ['sync', 'account', '--output', 'json']);
        await setFaults({});
      }
      expect(leaks()).toEqual([]);
    }, 180_000);

    it('a secret written literally in the YAML is not echoed by validate, plan or watch', async () => {
      const edges = await readFile(join(dir, 'account/edges.yaml'), 'utf8');
      const literal = edges.replace('{ file: ../secrets/oidc-client-secret }', secrets.literal);
      expect(literal).not.toBe(edges);
      await writeFile(join(dir, 'account/edges.yaml'), literal);
      try {
        expect((await cli('validate literal', ['validate', 'account'])).code).toBe(0);
        await cli('plan literal', ['plan', 'account']);
        await cli('validate literal github', ['validate', 'account'], { GITHUB_ACTIONS: 'true' });
        // And next to a real error in the same file.
        const broken = literal.replace(
          'scopes: [openid, email]',
          'scopes: [openid, email]\n          bogus_member: 1',
        );
        await writeFile(join(dir, 'account/edges.yaml'), broken);
        expect((await cli('validate broken', ['validate', 'account'])).code).not.toBe(0);
        await cli('validate broken github', ['validate', 'account'], { GITHUB_ACTIONS: 'true' });
        await cli('sync broken', ['sync', 'account']);
      } finally {
        await writeFile(join(dir, 'account/edges.yaml'), edges);
      }
      expect(leaks()).toEqual([]);
    }, 180_000);

    it('watch logs, at trace level, through a reconcile that changes secrets and a broken config', async () => {
      await writeFile(join(dir, 'secrets/oidc-client-secret'), `${secrets.oidc}\n`);
      const child = spawn(
        process.execPath,
        [
          cliPath,
          'watch',
          'account',
          '--listen',
          '127.0.0.1:0',
          '--log-level',
          'trace',
          '--interval',
          '1h',
          '--debounce',
          '100ms',
        ],
        {
          cwd: dir,
          env: childEnv({ SVC_API_URL: serve.url, SVC_API_KEY: secrets.apiKey }),
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let seen = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (seen += c));
      // Each step's log lines are printed before the next step starts: without them, no canary
      // found below would prove nothing leaked in that step.
      const logged = (pattern: RegExp, from: number): Promise<void> =>
        untilPrinted(child, () => seen.slice(from), pattern);
      const done = collect(child, 120_000);
      const edges = await readFile(join(dir, 'account/edges.yaml'), 'utf8');
      // The daemon is stopped and the config restored for the next test whether or not a step was logged.
      let stepFailed: Error | undefined;
      try {
        await logged(/reconcile (succeeded|recovered|failed)/, 0);
        const mark = seen.length;
        await writeFile(join(dir, 'secrets/oidc-client-secret'), `${secrets.rotated}\n`);
        await writeFile(join(dir, 'account/edges.yaml'), `${edges}\n`);
        await logged(/reconcile (succeeded|recovered|failed)/, mark);
        // A config that fails to load while running: logged, nothing changed.
        const mark2 = seen.length;
        await writeFile(
          join(dir, 'account/edges.yaml'),
          edges.replace('scopes: [openid, email]', 'scopes: [openid, email]\n          bogus: 1'),
        );
        await logged(/"level":"(warn|error)"/, mark2);
      } catch (err) {
        stepFailed = err instanceof Error ? err : new Error(String(err));
      }
      child.kill('SIGTERM');
      const result = record('watch', await done);
      await writeFile(join(dir, 'account/edges.yaml'), edges);
      if (stepFailed !== undefined) throw stepFailed;
      expect(result.stdout).toMatch(/reconcile succeeded/);
      expect(leaks()).toEqual([]);
    }, 180_000);
  });
}
