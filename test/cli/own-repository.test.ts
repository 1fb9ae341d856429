/**
 * README "Use it in your own repository", followed word for word: the packed tarball (`npm pack`)
 * stands in for the registry's release, committed under vendor/ of a new config repository. A
 * teammate's clone of that repository, with an empty npm cache, installs it with `npm ci` and runs
 * acctsync: the install route works beyond the machine that packed the tarball.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };

/** The first `sh` block of the README section `heading`. */
function shellBlock(heading: string): string {
  const section = readme.slice(readme.indexOf(`## ${heading}`));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error(`no sh block under ${heading}`);
  return block;
}

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  const child = spawn(command, args, { cwd, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const work = mkdtempSync(join(tmpdir(), 'acctsync-own-repo-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** No account variable, no CI marker; a git identity for the commit; npm's cache in `cache`. */
function cleanEnv(cache: string): NodeJS.ProcessEnv {
  const {
    SVC_API_URL: _u,
    SVC_API_KEY: _k,
    GITHUB_ACTIONS: _g,
    CI: _c,
    ACCTSYNC_ENV: _e,
    ...env
  } = process.env;
  return {
    ...env,
    npm_config_cache: cache,
    GIT_AUTHOR_NAME: 'Teammate',
    GIT_AUTHOR_EMAIL: 'teammate@example.com',
    GIT_COMMITTER_NAME: 'Teammate',
    GIT_COMMITTER_EMAIL: 'teammate@example.com',
  };
}

describe('README: use it in your own repository', () => {
  it('installs the tarball from vendor/ inside the repository', () => {
    const block = shellBlock('Use it in your own repository');
    expect(block).toContain(`cp ../acctsync/acctsync-${version}.tgz vendor/`);
    expect(block).toContain(`npm install --save-exact ./vendor/acctsync-${version}.tgz`);
    expect(readme).toContain(`npm install --save-exact acctsync@${version}`);
  });

  it(
    'works word for word, and a clone of the committed repository installs with npm ci from an empty cache',
    { timeout: 600_000 },
    async () => {
      // dist/ is fresh (the suite's global setup built it): pack what a release would publish.
      const packer = mkdtempSync(join(work, 'pack-'));
      const pack = await run(
        'npm',
        ['pack', '--ignore-scripts', '--json', '--pack-destination', packer],
        repoRoot,
        {
          ...process.env,
          npm_config_cache: join(work, 'pack-cache'),
        },
      );
      expect(pack.status, pack.stderr).toBe(0);
      const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];
      // Next to the clone `acctsync/`, as the README says.
      mkdirSync(join(work, 'acctsync'));
      copyFileSync(join(packer, filename), join(work, 'acctsync', `acctsync-${version}.tgz`));

      const first = await run(
        'bash',
        ['-e', '-c', shellBlock('Use it in your own repository')],
        work,
        cleanEnv(join(work, 'cache-1')),
      );
      expect(first.status, first.stdout + first.stderr).toBe(0);
      expect(first.stdout).toContain('valid: 2 objects in 1 file');
      expect(first.stdout).toMatch(/2 to create/);
      expect(first.stderr).not.toContain('install-scripts');
      const manifest = JSON.parse(readFileSync(join(work, 'my-account/package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      };
      expect(manifest.dependencies).toEqual({ acctsync: `file:vendor/acctsync-${version}.tgz` });

      // A teammate: another directory, an empty npm cache, the pack's directory gone.
      rmSync(join(work, 'acctsync'), { recursive: true });
      const cloned = await run(
        'git',
        ['clone', '-q', join(work, 'my-account'), 'teammate'],
        work,
        cleanEnv(join(work, 'cache-2')),
      );
      expect(cloned.status, cloned.stderr).toBe(0);
      const clone = join(work, 'teammate');
      const ci = await run('npm', ['ci', '--no-audit', '--no-fund'], clone, cleanEnv(join(work, 'cache-2')));
      expect(ci.status, ci.stderr).toBe(0);
      expect(ci.stderr).not.toContain('install-scripts');
      const plan = await run(
        'npx',
        ['--no-install', 'acctsync', 'plan', 'account/', '--api-url', 'embedded'],
        clone,
        cleanEnv(join(work, 'cache-2')),
      );
      expect(plan.status, plan.stderr).toBe(0);
      expect(plan.stdout).toContain('acctsync plan for scope my-account');
      expect(plan.stdout).toMatch(/2 to create/);
    },
  );
});
