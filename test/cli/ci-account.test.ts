/**
 * Under CI a missing account is an error, never a silent plan or sync against a throwaway emulator:
 * a misspelt variable or a secret the job cannot see must turn the job red and say which variable.
 */
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { examplesDir, runCli } from '../support/cli.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'acctsync-ci-account-'));
  await mkdir(join(dir, 'account'));
  await writeFile(
    join(dir, 'account/network.yaml'),
    'version: 1\nscope: ci\nip_policies:\n  office:\n    description: Office networks\n',
  );
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const commands = [['plan'], ['sync'], ['sync', '--dry-run'], ['export', '--out', 'exported/']];
const systems = [{ CI: 'true' }, { GITHUB_ACTIONS: 'true' }, { GITLAB_CI: 'true' }, { CI: '1' }];

describe('no account configured under CI', { timeout: 120_000 }, () => {
  it.each(commands)('%s exits 1 naming SVC_API_URL and SVC_API_KEY', async (...args) => {
    for (const ci of systems) {
      const run = await runCli(args, { cwd: dir, env: ci });
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(
        'error: no account configured: neither SVC_API_URL nor SVC_API_KEY has a value',
      );
      expect(run.stderr).toContain(`${Object.keys(ci)[0]}=`);
      expect(run.stderr).toContain('--api-url embedded');
      expect(run.stderr).not.toContain('using the embedded emulator');
    }
  });

  it('an empty variable counts as unset, and the message names it', async () => {
    const run = await runCli(['plan'], { cwd: dir, env: { CI: 'true', SVC_API_URL: '', SVC_API_KEY: 'k' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error: an API key is set but no API URL');
    expect(run.stderr).toContain('SVC_API_URL is set but empty, which counts as unset.');

    const noKey = await runCli(['plan'], {
      cwd: dir,
      env: { CI: 'true', SVC_API_URL: 'http://127.0.0.1:9', SVC_API_KEY: ' ' },
    });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain('error: no API key for http://127.0.0.1:9');
    expect(noKey.stderr).toContain('SVC_API_KEY is set but empty, which counts as unset.');
  });

  it('an environment names its own variables', async () => {
    const config = join(examplesDir, 'environments');
    const run = await runCli(['plan', config, '--env', 'staging'], { cwd: dir, env: { GITLAB_CI: 'true' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'no account configured: neither STAGING_SVC_API_URL nor STAGING_SVC_API_KEY',
    );
  });

  it('the embedded emulator runs under CI when asked for', async () => {
    const run = await runCli(['plan', '--api-url', 'embedded', '--detailed-exitcode'], {
      cwd: dir,
      env: { CI: 'true' },
    });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toContain('+ ip_policies/office');
  });

  it('outside CI the quick start keeps its embedded default', async () => {
    const run = await runCli(['plan', '--detailed-exitcode'], { cwd: dir, env: { CI: 'false' } });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('acctsync: using the embedded emulator');
  });
});
