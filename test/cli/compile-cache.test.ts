/**
 * The built CLI keeps V8's compiled code of its largest files in a cache under the temporary
 * directory (`src/cached-script.ts`). A command must judge a config the same whether the cache is
 * missing, present, or damaged, and must not keep one when told not to.
 */
import { execFile } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function validate(dir: string, temp: string, env: Record<string, string> = {}): Promise<Run> {
  const { GITHUB_ACTIONS: _, NODE_DISABLE_COMPILE_CACHE: __, ...base } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['dist/cli/main.js', 'validate', dir],
      { cwd: repo, env: { ...base, TMPDIR: temp, ...env }, encoding: 'utf8' },
      (err, stdout, stderr) => resolve({ code: err ? (err.code as number) : 0, stdout, stderr }),
    );
  });
}

let temp: string;
beforeEach(() => {
  temp = mkdtempSync(join(tmpdir(), 'acctsync-cache-test-'));
});
afterEach(() => rmSync(temp, { recursive: true, force: true }));

const cacheDir = (): string => join(temp, 'acctsync-compile-cache');
const cacheFiles = (): string[] => readdirSync(cacheDir()).filter((f) => f.endsWith('.bin'));

describe('the compile cache', () => {
  it('is written by the first run, private to the user, and gives the same verdicts after', async () => {
    const valid = await validate('examples/account/', temp);
    expect(valid.stderr).toBe('');
    expect(valid.stdout).toMatch(/^valid: \d+ objects in 6 files\n$/);
    expect(cacheFiles().length).toBeGreaterThan(0);
    expect(statSync(cacheDir()).mode & 0o777).toBe(0o700);
    for (const file of cacheFiles()) expect(statSync(join(cacheDir(), file)).mode & 0o777).toBe(0o600);

    const broken = 'test/fixtures/config/broken/unknown-field';
    const cold = await validate(broken, mkdtempSync(join(temp, 'cold-')));
    const warm = await validate(broken, temp);
    expect(warm).toEqual(cold);
    expect(warm.code).toBe(1);
    expect(warm.stderr).toContain(`${broken}/account.yaml:4:5: error: unknown field descripton`);
    expect(await validate('examples/account/', temp)).toEqual(valid);
  });

  it('is replaced when damaged, and the command runs as without it', async () => {
    const first = await validate('examples/account/', temp);
    const files = cacheFiles().map((file) => join(cacheDir(), file));
    const garbage = Buffer.alloc(4096, 7);
    for (const file of files) writeFileSync(file, garbage);
    expect(await validate('examples/account/', temp)).toEqual(first);
    for (const file of files) expect(readFileSync(file).equals(garbage)).toBe(false);
    expect(await validate('examples/account/', temp)).toEqual(first);
  });

  it('is neither read nor written in a directory others may write to (it is code that runs)', async () => {
    mkdirSync(cacheDir());
    chmodSync(cacheDir(), 0o777);
    const first = await validate('examples/account/', temp);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^valid: /);
    expect(cacheFiles()).toEqual([]);
    // A cache planted there beforehand is not loaded: the command runs as without one.
    const planted = await validate('examples/account/', mkdtempSync(join(temp, 'own-')));
    expect(planted).toEqual(first);
    const own = join(
      temp,
      readdirSync(temp).find((d) => d.startsWith('own-')) ?? '',
      'acctsync-compile-cache',
    );
    for (const file of readdirSync(own)) writeFileSync(join(cacheDir(), file), Buffer.alloc(64, 7));
    expect(await validate('examples/account/', temp)).toEqual(first);
    expect(cacheFiles().every((f) => readFileSync(join(cacheDir(), f)).equals(Buffer.alloc(64, 7)))).toBe(
      true,
    );
  });

  it('is not kept with NODE_DISABLE_COMPILE_CACHE set', async () => {
    const run = await validate('examples/account/', temp, { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^valid: /);
    expect(readdirSync(temp)).not.toContain('acctsync-compile-cache');
  });
});
