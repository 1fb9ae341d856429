/**
 * An environment reaches its account only through acctsync's own variables: a config naming any
 * other (an attacker-set commit title as the URL, the CI job's token as the key) is refused at its
 * line before a request leaves, and no value of any variable is printed.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { repoRoot } from './support/two-accounts.js';

const keyCanary = 'sk_canary_9f3b2e7d51';
const tokenCanary = 'glcbt-canary-4411';

let dir: string;
let listener: Server;
let connections: number;
let listenerUrl: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'acctsync-api-variables-'));
  cpSync(join(repoRoot, 'examples/environments'), join(dir, 'config'), { recursive: true });
  connections = 0;
  listener = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  listenerUrl = `http://127.0.0.1:${(listener.address() as { port: number }).port}`;
});
afterEach(async () => {
  await new Promise((resolve) => listener.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** Replaces one line of the staging environment's declaration. */
function declare(from: string, to: string): void {
  const file = join(dir, 'config/acctsync.yaml');
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

async function acctsync(
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number | null; output: string }> {
  const run = await runCli(args, { cwd: dir, env });
  return { status: run.code, output: run.stdout + run.stderr };
}

/** What a GitLab merge-request job holds: the branch's commit title, the job token and the account's pair. */
function jobEnvironment(): Record<string, string> {
  return {
    GITLAB_CI: 'true',
    CI_COMMIT_TITLE: listenerUrl,
    CI_JOB_TOKEN: tokenCanary,
    STAGING_SVC_API_URL: listenerUrl,
    STAGING_SVC_API_KEY: keyCanary,
  };
}

describe('api_url_env and api_key_env name only acctsync API variables', { timeout: 120_000 }, () => {
  it.each([
    ['plan', ['plan', 'config', '--env', 'staging']],
    ['sync', ['sync', 'config', '--env', 'staging']],
    ['watch', ['watch', 'config', '--env', 'staging', '--listen', '127.0.0.1:0']],
  ])('%s: a foreign URL variable is refused at its line, and nothing is sent', async (_, args) => {
    declare('api_url_env: STAGING_SVC_API_URL', 'api_url_env: CI_COMMIT_TITLE');
    const run = await acctsync(args, jobEnvironment());
    expect(run.status).toBe(1);
    expect(run.output).toContain(
      `config/acctsync.yaml:10:18: error: "CI_COMMIT_TITLE" is not one of acctsync's API URL variables`,
    );
    expect(run.output).toContain('name SVC_API_URL or <PREFIX>_SVC_API_URL');
    expect(connections).toBe(0);
    expect(run.output).not.toContain(keyCanary);
    expect(run.output).not.toContain(listenerUrl);
  });

  it("a foreign key variable (the CI job's token) is refused and never sent", async () => {
    declare('api_key_env: STAGING_SVC_API_KEY', 'api_key_env: CI_JOB_TOKEN');
    const run = await acctsync(['plan', 'config', '--env', 'staging'], jobEnvironment());
    expect(run.status).toBe(1);
    expect(run.output).toContain(
      `config/acctsync.yaml:11:18: error: "CI_JOB_TOKEN" is not one of acctsync's API key variables`,
    );
    expect(connections).toBe(0);
    expect(run.output).not.toContain(tokenCanary);
  });

  it('the URL and key variables swapped: the key variable is refused as a URL', async () => {
    declare('api_url_env: STAGING_SVC_API_URL', 'api_url_env: STAGING_SVC_API_KEY');
    const run = await acctsync(['plan', 'config', '--env', 'staging'], jobEnvironment());
    expect(run.status).toBe(1);
    expect(run.output).toContain(`"STAGING_SVC_API_KEY" is not one of acctsync's API URL variables`);
    expect(connections).toBe(0);
    expect(run.output).not.toContain(keyCanary);
  });

  it('a URL that does not parse is named by its variable, never shown', async () => {
    const run = await acctsync(['plan', 'config', '--env', 'staging'], {
      ...jobEnvironment(),
      STAGING_SVC_API_URL: keyCanary,
    });
    expect(run.status).toBe(1);
    expect(run.output).toContain('error: the API URL in STAGING_SVC_API_URL is not a valid URL');
    expect(run.output).not.toContain(keyCanary);
    expect(connections).toBe(0);
  });

  it("a prefixed pair of acctsync's own is accepted and reaches its account", async () => {
    declare('api_url_env: STAGING_SVC_API_URL', 'api_url_env: EU_STAGING_SVC_API_URL');
    const run = await acctsync(['plan', 'config', '--env', 'staging'], {
      ...jobEnvironment(),
      EU_STAGING_SVC_API_URL: listenerUrl,
    });
    // The listener is no API: the request reached it, and failed.
    expect(run.status).toBe(1);
    expect(connections).toBeGreaterThan(0);
    expect(run.output).not.toContain(keyCanary);
  });
});
