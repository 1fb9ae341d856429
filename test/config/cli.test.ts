import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));

function validate(args: string[], env: Record<string, string> = {}) {
  const { GITHUB_ACTIONS: _, ...base } = process.env;
  return spawnSync(process.execPath, ['dist/cli/main.js', 'validate', ...args], {
    cwd: repo,
    env: { ...base, ...env },
    encoding: 'utf8',
  });
}

describe('acctsync validate', () => {
  it('exits 0 with a summary for the examples', () => {
    const run = validate(['examples/account/']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^valid: \d+ objects in 6 files\n$/);
    expect(run.status).toBe(0);
  });

  it('exits 1 with code frames on stderr', () => {
    const run = validate(['test/fixtures/config/broken/unknown-field']);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      'test/fixtures/config/broken/unknown-field/account.yaml:4:5: error: unknown field descripton',
    );
    expect(run.stderr).toContain('> 4 |     descripton: Office');
  });

  it('adds workflow annotations under GitHub Actions', () => {
    const run = validate(['test/fixtures/config/broken/missing-reference-suggestion'], {
      GITHUB_ACTIONS: 'true',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      '::error file=test/fixtures/config/broken/missing-reference-suggestion/account.yaml,line=7,col=19::',
    );
  });

  it('warns about a literal secret without showing it or its length', () => {
    const warn = (secret: string) => {
      const dir = mkdtempSync(join(tmpdir(), 'acctsync-literal-'));
      try {
        const config = `version: 1\nevent_destinations:\n  m:\n    target:\n      monitoring:\n        api_key: ${secret}\n        service: svc\n`;
        writeFileSync(join(dir, 'account.yaml'), config);
        return validate([join(dir, 'account.yaml')]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    const short = warn('k3y');
    const long = warn('a-much-longer-literal-monitoring-key-0123456789');
    expect(short.status).toBe(0);
    expect(short.stderr).toContain('api_key is a secret written in the file');
    expect(short.stderr).toContain('> 6 |         api_key: ********\n');
    expect(long.stderr).not.toContain('a-much-longer');
    const frame = (stderr: string) => stderr.replace(/^.*account\.yaml/gm, 'account.yaml');
    expect(frame(long.stderr)).toBe(frame(short.stderr));
  });

  it('refuses metadata that fits alone but not with the ownership marker sync adds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acctsync-validate-'));
    const file = join(dir, 'account.yaml');
    const config = (size: number) =>
      `version: 1\nscope: prod\nreserved_domains:\n  site:\n    domain: site.example.com\n    metadata: '${'x'.repeat(size)}'\n`;
    writeFileSync(file, config(4096));
    const full = validate([file]);
    expect(full.stdout).toBe('');
    expect(full.stderr).toContain(
      'error: metadata is 4194 bytes with the ownership marker (98 of them), over the 4096-byte limit: shorten it by 98',
    );
    expect(full.stderr).toContain('ownership marker (scope prod, key reserved_domains/site)');
    expect(full.status).toBe(1);
    writeFileSync(file, config(3998));
    const fits = validate([file]);
    expect(fits.stderr).toBe('');
    expect(fits.status).toBe(0);
  });
  it("takes a nested collection in ignore: (an IP policy's rules), and suggests it for a near miss", () => {
    const dir = mkdtempSync(join(tmpdir(), 'acctsync-validate-'));
    const file = join(dir, 'account.yaml');
    const config = (ignored: string) =>
      `version: 1\nscope: prod\nip_policies:\n  office:\n    ignore: [${ignored}]\n    rules:\n      - { cidr: 10.0.0.0/8, action: allow }\n`;
    writeFileSync(file, config('rules'));
    const taken = validate([file]);
    expect(taken.stderr).toBe('');
    expect(taken.status).toBe(0);
    writeFileSync(file, config('rule'));
    const missed = validate([file]);
    expect(missed.stderr).toContain('error: IP policy has no field rule');
    expect(missed.stderr).toContain('did you mean rules?');
    expect(missed.status).toBe(1);
    rmSync(dir, { recursive: true, force: true });
  });
});
