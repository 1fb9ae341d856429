/**
 * Swaps of unique values through the CLI as a user runs it: `acctsync sync <dir> --parallelism N`
 * against the emulator exits 0 in one run, prints the intermediate steps in its plan, and leaves
 * nothing to plan.
 */
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliAgainst } from '../support/cli.js';
import { useAccount } from '../support/use-account.js';

const pkiDir = new URL('../fixtures/pki/', import.meta.url).pathname;
/** A fixture as the config names it: copied beside it, since a config reads only inside its root. */
const pki = (name: string) => `pki/${name}`;

const before = `
tls_edges:
  db: { hostports: ['db.example.com:443', 'x.example.com:443'] }
https_edges:
  web: { hostports: ['www.example.com:443'] }
reserved_domains:
  a: { domain: one.example.com }
  b: { domain: two.example.com }
ssh_credentials:
  alice: { public_key: { file: ${pki('ssh-ed25519.pub')} } }
  bob: { public_key: { file: ${pki('ssh-rsa.pub')} } }
`;

const swapped = `
tls_edges:
  db: { hostports: ['db.example.com:443', 'www.example.com:443'] }
https_edges:
  web: { hostports: ['x.example.com:443'] }
reserved_domains:
  a: { domain: two.example.com }
  b: { domain: one.example.com }
ssh_credentials:
  alice: { public_key: { file: ${pki('ssh-rsa.pub')} } }
  bob: { public_key: { file: ${pki('ssh-ed25519.pub')} } }
`;

/** The plan as printed, with the ids the emulator chose elided. */
function planText(stdout: string): string[] {
  const end = stdout.indexOf('\nPlan: ');
  return stdout
    .slice(0, end)
    .replace(/\b(rd|edghts|edgtls|sshcr)_[0-9a-z]+/g, '$1_<id>')
    .split('\n');
}

describe('acctsync sync: swaps of unique values in one run', () => {
  // An emulator per test: both runs claim the same values.
  const account = useAccount();

  for (const parallelism of ['1', '16']) {
    it(`swaps hostports, domains and SSH keys at --parallelism ${parallelism}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'acctsync-claims-cli-'));
      cpSync(pkiDir, join(dir, 'pki'), { recursive: true });
      const file = join(dir, 'account.yaml');
      writeFileSync(file, `version: 1\nscope: swap-${parallelism}\n${before}`);
      expect((await runCliAgainst(['sync', dir], account)).code).toBe(0);

      writeFileSync(file, `version: 1\nscope: swap-${parallelism}\n${swapped}`);
      const sync = await runCliAgainst(['sync', dir, '--parallelism', parallelism], account);
      expect(sync.stderr).not.toMatch(/ERR_|409|FAILED/);
      expect(sync.code).toBe(0);
      const release = '(first releases the hostports another object claims; `update <key>` sets the rest)';
      const deleteFirst = 'the old object is deleted first: its unique value is briefly unclaimed (a swap)';
      // Public keys are shown by their fingerprint (the keys of the config above).
      const ed25519 = 'ssh-ed25519 SHA256:3R74Tu7HEAwEK/Bbsr8ImGmcX4teISWaCYTIspiwIm8';
      const rsa = 'ssh-rsa SHA256:d36U5QbAFx4w5vKBAx7PBzLlUkDsYQCcQYRpXY43WA4';
      expect(planText(sync.stdout)).toEqual([
        `acctsync plan for scope swap-${parallelism}`,
        '',
        `  ~ https_edges/web  HTTPS edge edghts_<id>  ${release.replace('<key>', 'https_edges/web')}`,
        '      ~ hostports [',
        '          - "www.example.com:443"',
        '        ]',
        '  ~ https_edges/web  HTTPS edge edghts_<id>',
        '      ~ hostports [',
        '          + "x.example.com:443"',
        '          - "www.example.com:443"',
        '        ]',
        '      # (2 unchanged attributes hidden)',
        `-/+ reserved_domains/a  reserved domain rd_<id>  (domain cannot change in place; ${deleteFirst})`,
        '      ~ domain: "one.example.com" -> "two.example.com"  # forces replacement',
        '      # (2 unchanged attributes hidden)',
        `-/+ reserved_domains/b  reserved domain rd_<id>  (domain cannot change in place; ${deleteFirst})`,
        '      ~ domain: "two.example.com" -> "one.example.com"  # forces replacement',
        '      # (2 unchanged attributes hidden)',
        `-/+ ssh_credentials/alice  SSH credential sshcr_<id>  (public_key cannot change in place; ${deleteFirst})`,
        `      ~ public_key: (${ed25519}) -> (${rsa})  # forces replacement`,
        '      # (3 unchanged attributes hidden)',
        `-/+ ssh_credentials/bob  SSH credential sshcr_<id>  (public_key cannot change in place; ${deleteFirst})`,
        `      ~ public_key: (${rsa}) -> (${ed25519})  # forces replacement`,
        '      # (3 unchanged attributes hidden)',
        `  ~ tls_edges/db  TLS edge edgtls_<id>  ${release.replace('<key>', 'tls_edges/db')}`,
        '      ~ hostports [',
        '          - "x.example.com:443"',
        '          # (1 unchanged element hidden)',
        '        ]',
        '  ~ tls_edges/db  TLS edge edgtls_<id>',
        '      ~ hostports [',
        '          + "www.example.com:443"',
        '          - "x.example.com:443"',
        '          # (1 unchanged element hidden)',
        '        ]',
        '      # (2 unchanged attributes hidden)',
        '',
        'Unmanaged: 1 API key (no scope manages it; the JSON plan lists it). To manage one, add its entry with its `id:` (`acctsync export` writes it) and sync with `--adopt`.',
        '',
      ]);
      expect(sync.stdout).toContain('Apply complete: 12 done, 0 failed, 0 not attempted');

      const plan = await runCliAgainst(['plan', dir], account);
      expect(plan.code).toBe(0);
      expect(plan.stdout).toContain('No changes. 6 objects up to date.');
    }, 60_000);
  }
});
