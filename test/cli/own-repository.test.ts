/**
 * README "Use it in your own repository", followed word for word: the packed tarball (`npm pack`)
 * stands in for the registry's release, installed into a fresh directory, then the README's
 * commands run there as written.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

const work = mkdtempSync(join(tmpdir(), 'acctsync-own-repo-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('README: use it in your own repository', () => {
  it('pins the version this package has, packed from a clone', () => {
    expect(shellBlock('Use it in your own repository')).toContain(
      `npm install --save-exact ../acctsync/acctsync-${version}.tgz`,
    );
    expect(readme).toContain(`npm install --save-exact acctsync@${version}`);
  });

  it('works word for word from the packed tarball in an empty directory', { timeout: 240_000 }, () => {
    // dist/ is fresh (the suite's global setup built it): pack what a release would publish.
    const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(pack.status, pack.stderr).toBe(0);
    const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];
    const script = shellBlock('Use it in your own repository').replace(
      `../acctsync/acctsync-${version}.tgz`,
      join(work, filename),
    );
    const { SVC_API_URL: _u, SVC_API_KEY: _k, GITHUB_ACTIONS: _g, ...env } = process.env;
    const run = spawnSync('bash', ['-e', '-c', script], { cwd: work, env, encoding: 'utf8' });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('valid: 2 objects in 1 file');
    expect(run.stdout).toContain('ip_policies/office');
    expect(run.stdout).toMatch(/2 to create/);
    const installed = JSON.parse(readFileSync(join(work, 'my-account/package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(installed.dependencies)).toEqual(['acctsync']);
  });
});
