/**
 * An API error that quotes a secret of the desired state (the live service echoes a rejected
 * value: `ERR_SVC_215: invalid secret ...`) never prints it: not in sync's text or JSON result,
 * not in a GitHub Actions annotation, not in watch's log.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiEnv } from '../support/account.js';
import { useAccount } from '../support/use-account.js';
import { childEnv, cliPath, collect, runCli, untilPrinted } from '../support/cli.js';
import { createRng } from './support/prng.js';
import { startProxy, type RunningProxy } from './support/proxy.js';

const apiToken = `redact-key-${randomBytes(6).toString('hex')}`;
const secret = `canary-cloud-secret-${randomBytes(6).toString('hex')}`;
const config = `version: 1
scope: redact
event_destinations:
  audit:
    format: json
    target:
      delivery_stream:
        delivery_stream_arn: arn:aws:firehose:eu-west-1:123456789012:deliverystream/audit
        auth:
          creds:
            cloud_access_key_id: AKIAEXAMPLEEXAMPLE
            cloud_secret_access_key: { env: CLOUD_SECRET }
`;

const account = useAccount({ token: apiToken }, 'file');
let proxy: RunningProxy;
let dir: string;

beforeAll(async () => {
  proxy = await startProxy({
    upstream: account.url,
    rng: createRng(3),
    faults: {},
    answerFor: (method, _path, body) => {
      const quoted = [secret, apiToken].find((value) => body.includes(value));
      if (method !== 'POST' || quoted === undefined) return undefined;
      return {
        status: 400,
        body: JSON.stringify({
          error_code: 'ERR_SVC_215',
          status_code: 400,
          msg: `invalid cloud_secret_access_key ${quoted} (key ${apiToken})`,
          details: { value: quoted, operation_id: 'op_1' },
        }),
      };
    },
  });
  dir = await mkdtemp(join(tmpdir(), 'acctsync-redact-'));
  await writeFile(join(dir, 'events.yaml'), config);
});

afterAll(async () => {
  await proxy.close();
  await rm(dir, { recursive: true, force: true });
});

const env = (): Record<string, string> => ({
  ...apiEnv({ url: proxy.url, token: apiToken }),
  CLOUD_SECRET: secret,
});

it.each([
  ['text', [], {}],
  ['JSON', ['--output', 'json'], {}],
  ['GitHub Actions annotations', [], { GITHUB_ACTIONS: 'true' }],
] as const)('an API error quoting a secret does not print it (%s)', async (_name, flags, extraEnv) => {
  const result = await runCli(['sync', 'events.yaml', ...flags], {
    cwd: dir,
    env: { ...env(), ...extraEnv },
  });
  const output = result.stdout + result.stderr;
  expect(result.code, output).toBe(1);
  expect(output).toContain('ERR_SVC_215');
  expect(output).toContain('invalid cloud_secret_access_key [REDACTED]');
  expect(output).not.toContain(secret);
  expect(output).not.toContain(apiToken);
});

it('an API error quoting a secret does not reach the watch log, at trace level', async () => {
  const child = spawn(
    process.execPath,
    [cliPath, 'watch', 'events.yaml', '--listen', '127.0.0.1:0', '--log-level', 'trace', '--interval', '1h'],
    { cwd: dir, env: childEnv(env()), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (log += c));
  const done = collect(child, 60_000);
  try {
    await untilPrinted(child, () => log, /"status":"(failed|succeeded)"/);
  } finally {
    child.kill('SIGTERM');
  }
  const result = await done;
  const output = log + result.stdout + result.stderr;
  expect(output).toContain('"status":"failed"');
  expect(output).toContain('ERR_SVC_215');
  expect(output).toContain('invalid cloud_secret_access_key [REDACTED]');
  expect(output).not.toContain(secret);
  expect(output).not.toContain(apiToken);
}, 60_000);
