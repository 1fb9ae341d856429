/**
 * Tokens are never lost in silence: an API key whose create committed but whose answer never
 * reached acctsync (the process was SIGKILLed, or the answer and the recovery lookup both failed)
 * is reported by the next `sync --token-output`, and `--recapture-tokens` replaces it so that a
 * token ends up in the file.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { parseMetadata } from '../../src/plan/index.js';
import { apiEnv } from '../support/account.js';
import { useAccount } from '../support/use-account.js';
import { childEnv, cliPath, collect, runCli } from '../support/cli.js';
import { createRng } from './support/prng.js';
import { startProxy, type RunningProxy } from './support/proxy.js';

const apiToken = 'tokens-test-key';
const config = `version: 1
scope: tokens
api_keys:
  ci:
    description: deploy pipeline
`;

const account = useAccount({ token: apiToken });
let dir: string;
let proxy: RunningProxy | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'acctsync-tokens-'));
  await writeFile(join(dir, 'access.yaml'), config);
});

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await rm(dir, { recursive: true, force: true });
});

const tokenFile = (): string => join(dir, 'tokens.json');

function sync(url: string, ...extra: string[]) {
  return runCli(['sync', 'access.yaml', '--token-output', tokenFile(), ...extra], {
    cwd: dir,
    env: apiEnv({ url, token: apiToken }),
  });
}

/** Ids of the API keys this config manages (the account's own key is not one of them). */
async function liveKeyIds(): Promise<string[]> {
  const page = await account.client.get<{ keys: { id: string; metadata: string }[] }>('/api_keys');
  return page.body.keys.filter((k) => parseMetadata(k.metadata).marker?.scope === 'tokens').map((k) => k.id);
}

async function savedTokens(): Promise<Record<string, { id: string; token: string }>> {
  return JSON.parse(await readFile(tokenFile(), 'utf8')) as Record<string, { id: string; token: string }>;
}

/** The missing token is reported, then recaptured on request: a new key, its token in the file. */
async function expectReportedThenRecaptured(lostId: string): Promise<void> {
  const report = await sync(account.url);
  expect(report.code, report.stderr).toBe(0);
  expect(report.stdout).toContain(
    `api_keys/ci (${lostId}): its token is not in the token file and the API never shows it again: sync --recapture-tokens replaces it`,
  );
  expect(await liveKeyIds()).toEqual([lostId]);
  const json = await sync(account.url, '--output', 'json');
  expect(json.code, json.stderr).toBe(0);
  expect((JSON.parse(json.stdout) as { notes: string[] }).notes).toContain(
    `api_keys/ci (${lostId}): its token is not in the token file and the API never shows it again: sync --recapture-tokens replaces it with a new one whose token is saved`,
  );

  const recapture = await sync(account.url, '--recapture-tokens', '--yes');
  expect(recapture.code, recapture.stdout + recapture.stderr).toBe(0);
  expect(recapture.stdout).toContain('its token is not in the token file: a new one is created');
  const ids = await liveKeyIds();
  expect(ids).toHaveLength(1);
  expect(ids[0]).not.toBe(lostId);
  const saved = await savedTokens();
  expect(saved['api_keys/ci']?.id).toBe(ids[0]);
  expect(saved['api_keys/ci']?.token).toMatch(/.{8,}/);
  expect(recapture.stdout + recapture.stderr).not.toContain(saved['api_keys/ci']?.token);

  const after = await sync(account.url);
  expect(after.stdout).toContain('No changes');
  expect(after.stdout).not.toContain('not in the token file');
}

it('a sync SIGKILLed after the API key create committed: the re-run reports the lost token and recaptures it on request', async () => {
  let kill = (): void => undefined;
  proxy = await startProxy({
    upstream: account.url,
    rng: createRng(1),
    faults: {},
    onUpstreamResponse: (method, path) => {
      if (method === 'POST' && path.startsWith('/api_keys')) kill();
    },
  });
  const child = spawn(process.execPath, [cliPath, 'sync', 'access.yaml', '--token-output', tokenFile()], {
    cwd: dir,
    env: childEnv(apiEnv({ url: proxy.url, token: apiToken })),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  kill = () => child.kill('SIGKILL');
  const killed = await collect(child, 60_000);
  expect(killed.signal, killed.stdout + killed.stderr).toBe('SIGKILL');
  const ids = await liveKeyIds();
  expect(ids).toHaveLength(1);

  await expectReportedThenRecaptured(ids[0] ?? '');
}, 60_000);

it('a create whose answer was lost and whose recovery lookup failed: the next run says so, and recaptures on request', async () => {
  let created = false;
  proxy = await startProxy({
    upstream: account.url,
    rng: createRng(2),
    faults: {},
    // The create commits but its answer is lost; every request after it fails (the lookup too).
    faultFor: (method, path) => {
      if (created) return 'reset-before';
      if (method === 'POST' && path.startsWith('/api_keys')) {
        created = true;
        return 'reset-after-commit';
      }
      return undefined;
    },
  });
  const failed = await sync(proxy.url);
  expect(failed.code).toBe(1);
  const ids = await liveKeyIds();
  expect(ids).toHaveLength(1);

  await expectReportedThenRecaptured(ids[0] ?? '');
}, 60_000);

it('without --token-output, the plan names the keys whose tokens will be unrecoverable', async () => {
  const plan = await runCli(['plan', 'access.yaml'], {
    cwd: dir,
    env: account.env,
  });
  expect(plan.code, plan.stderr).toBe(0);
  expect(plan.stdout).toContain('without it the tokens of api_keys/ci are unrecoverable');
});

it('--recapture-tokens without --token-output is refused before any API call', async () => {
  const result = await runCli(['sync', 'access.yaml', '--recapture-tokens'], {
    cwd: dir,
    env: account.env,
  });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('--recapture-tokens needs --token-output FILE');
  expect(await liveKeyIds()).toEqual([]);
});
