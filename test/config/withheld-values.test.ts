/**
 * A pull request's config runs in a CI job holding the account's key and the CI's token: what it
 * reads with `{env:}` or `{file:}` must never come back out. Canary values of every field format,
 * from a variable and from a file, go through validate, plan (every output, the step summary),
 * sync and the GitHub annotations, spawned as the CLI; no canary may appear anywhere, and each
 * problem names its source at the value's line instead.
 */
import { randomBytes } from 'node:crypto';
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  acctsyncVariableEndings,
  acctsyncVariables,
  ciTokenVariables,
} from '../../src/config/guarded-variables.js';
import type { CliResult } from '../support/cli.js';
import { startCliAccount, type CliAccount } from '../safety/support.js';

const run = promisify(execFile);
const canary = (): string => `cnry${randomBytes(8).toString('hex')}`;

interface FormatCase {
  readonly format: string;
  /** The bad value, holding `c`. */
  readonly value: (c: string) => string;
  /** A config file with `source` where the value goes. */
  readonly yaml: (source: string) => string;
  /** What a message says of the value besides its source. */
  readonly says: string;
}

const cases: readonly FormatCase[] = [
  {
    format: 'cidr',
    value: (c) => c,
    yaml: (s) => `ip_policies:\n  p:\n    rules:\n      - { cidr: ${s}, action: allow }\n`,
    says: 'is not an IPv4 or IPv6 address or CIDR range',
  },
  {
    format: 'cidr prefix',
    value: (c) => `10.0.0.0/${c}`,
    yaml: (s) => `ip_policies:\n  q:\n    rules:\n      - { cidr: ${s}, action: deny }\n`,
    says: 'is not an IPv4 or IPv6 address or CIDR range',
  },
  {
    format: 'hostname',
    value: (c) => `${c}..example.com`,
    yaml: (s) => `agent_ingresses:\n  i:\n    domain: ${s}\n`,
    says: 'is not a valid hostname',
  },
  {
    format: 'domain',
    value: (c) => `-${c}.example.com`,
    yaml: (s) => `reserved_domains:\n  d:\n    domain: ${s}\n`,
    says: 'is not a valid domain name',
  },
  {
    format: 'hostport',
    value: (c) => `${c}.example.com`,
    yaml: (s) => `tls_edges:\n  t:\n    hostports: [${s}]\n`,
    says: 'is not a host:port address',
  },
  {
    format: 'ssh-acl-rule',
    value: (c) => `bind:${c} x`,
    yaml: (s) => `credentials:\n  a:\n    acl: [${s}]\n`,
    says: 'is not an SSH ACL rule',
  },
  {
    format: 'ssh-public-key',
    value: (c) => `ssh-ed25519 ${c}`,
    yaml: (s) => `ssh_credentials:\n  k:\n    public_key: ${s}\n`,
    says: 'is not an SSH public key',
  },
  {
    format: 'pem-certificate (a label of its own)',
    value: (c) => `-----BEGIN ${c.toUpperCase()}-----\nAAAA\n-----END ${c.toUpperCase()}-----\n`,
    yaml: (s) => `certificate_authorities:\n  ca:\n    ca_pem: ${s}\n`,
    says: 'is not one PEM certificate',
  },
  {
    format: 'pem-certificate-chain (damaged base64)',
    value: (c) => `-----BEGIN CERTIFICATE-----\n${c}!\n-----END CERTIFICATE-----\n`,
    yaml: (s) =>
      `tls_certificates:\n  cert:\n    certificate_pem: ${s}\n    private_key_pem: { file: ok.key }\n`,
    says: 'is not a PEM certificate chain: the CERTIFICATE block (block 1) is not valid base64',
  },
  {
    format: 'pem-private-key',
    value: (c) => `not a key ${c}`,
    yaml: (s) =>
      `tls_certificates:\n  cert2:\n    certificate_pem: { file: ok.crt }\n    private_key_pem: ${s}\n`,
    says: 'is not an unencrypted PEM private key',
  },
  {
    format: 'url',
    value: (c) => `ftp://${c}.example.com/`,
    yaml: (s) =>
      [
        'https_edges:',
        '  e:',
        "    hostports: ['e.example.com:443']",
        '    routes:',
        '      - match_type: path_prefix',
        '        match: /',
        `        oidc: { issuer: ${s}, client_id: web, client_secret: { file: ok.secret } }`,
        '',
      ].join('\n'),
    says: 'is not an http(s) URL',
  },
  {
    format: 'event-type',
    value: (c) => `${c}.v0`,
    yaml: (s) => `event_subscriptions:\n  s:\n    sources:\n      - type: ${s}\n`,
    says: 'is not a known event type',
  },
  {
    format: 'length',
    value: (c) => `${c}${'x'.repeat(300)}`,
    yaml: (s) => `ip_policies:\n  long:\n    description: ${s}\n`,
    says: 'is 320 bytes long; the limit is 255 bytes',
  },
];

const varName = (i: number): string => `CANARY_VALUE_${i}`;
const fileName = (i: number): string => `canary/value-${i}.txt`;

/** Every output of validate, plan (text, JSON, markdown, the step summary) and sync, each with its exit code. */
async function everyOutput(account: CliAccount, env: Record<string, string>): Promise<CliResult[]> {
  const summary = join(account.dir, 'summary.md');
  const ci = { ...env, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary };
  const runs = [
    await account.acctsync(['validate', 'account'], ci),
    await account.acctsync(['plan', 'account'], ci),
    await account.acctsync(['plan', 'account', '--output', 'json'], ci),
    await account.acctsync(['plan', 'account', '--output', 'markdown'], ci),
    await account.acctsync(['sync', 'account', '--dry-run', '--output', 'json'], ci),
    await account.acctsync(['sync', 'account', '--yes'], ci),
  ];
  const written = await readFile(summary, 'utf8').catch(() => '');
  return [...runs, { code: 0, signal: null, stdout: written, stderr: '' }];
}

function expectNoCanary(runs: readonly CliResult[], canaries: readonly string[]): void {
  for (const run of runs) {
    for (const c of canaries) {
      expect(run.stdout.toLowerCase()).not.toContain(c.toLowerCase());
      expect(run.stderr.toLowerCase()).not.toContain(c.toLowerCase());
    }
  }
}

/** Files every case's config needs besides the value under test: valid, and not canaries. */
async function writeFixtures(account: CliAccount): Promise<void> {
  const pki = new URL('../fixtures/pki/', import.meta.url).pathname;
  await account.write('account/ok.crt', await readFile(join(pki, 'leaf-rsa.crt'), 'utf8'));
  await account.write('account/ok.key', await readFile(join(pki, 'leaf-rsa.key'), 'utf8'));
  await account.write('account/ok.secret', 'a-client-secret\n');
}

describe('values from {env:} and {file:} are never echoed', () => {
  for (const from of ['env', 'file'] as const) {
    it(`a bad value of every format from ${from}: refused at its line, naming its source, in every command and rendering`, async () => {
      await using account = await startCliAccount();
      await writeFixtures(account);
      const canaries = cases.map(() => canary());
      const env: Record<string, string> = {};
      for (const [i, c] of cases.entries()) {
        const value = c.value(canaries[i]!);
        const source = from === 'env' ? `{ env: ${varName(i)} }` : `{ file: ${fileName(i)} }`;
        if (from === 'env') env[varName(i)] = value;
        else await account.write(`account/${fileName(i)}`, value);
        await account.write(`account/case-${i}.yaml`, `version: 1\n${c.yaml(source)}`);
      }
      const runs = await everyOutput(account, env);
      expectNoCanary(runs, canaries);
      for (const run of runs.slice(0, -1)) expect(run.code, run.stderr).toBe(1);
      expect(account.writes()).toBe(0);

      const validate = runs[0]!.stderr;
      for (const [i, c] of cases.entries()) {
        const bytes = Buffer.byteLength(c.value(canaries[i]!));
        const subject =
          from === 'env'
            ? `the value of env ${varName(i)}`
            : `the content of ${fileName(i)} (${bytes} bytes)`;
        // At the value's line and column (line 3 or deeper: after `version:` and the map's key).
        expect(validate).toMatch(
          new RegExp(`account/case-${i}\\.yaml:\\d+:\\d+: error: ${escape(`${subject} ${c.says}`)}`),
        );
        expect(validate).toMatch(new RegExp(`::error file=account/case-${i}\\.yaml,line=\\d+,col=\\d+::`));
      }
    });
  }

  it('an enum field does not take {env:} at all: refused as a map, the variable never read', async () => {
    await using account = await startCliAccount();
    const c = canary();
    await account.write(
      'account/a.yaml',
      'version: 1\nip_policies:\n  p:\n    rules:\n      - { cidr: 10.0.0.0/8, action: { env: CANARY_ENUM } }\n',
    );
    const runs = await everyOutput(account, { CANARY_ENUM: c });
    expectNoCanary(runs, [c]);
    expect(runs[0]!.stderr).toMatch(/account\/a\.yaml:5:\d+: error: must be one of allow, deny; found a map/);
  });

  it('a valid value from env or file is used, and masked in every plan rendering, the step summary and the sync output', async () => {
    await using account = await startCliAccount();
    const octets = randomBytes(3);
    const address = `10.${octets[0]}.${octets[1]}.${octets[2]}`;
    const description = canary();
    const note = canary();
    await account.write('account/note.txt', `${note}\n`);
    await account.write(
      'account/a.yaml',
      [
        'version: 1',
        'ip_policies:',
        '  p:',
        '    description: { env: CANARY_DESCRIPTION }',
        '    rules:',
        '      - { cidr: { env: CANARY_CIDR }, action: allow, description: { file: note.txt } }',
        '',
      ].join('\n'),
    );
    const runs = await everyOutput(account, { CANARY_DESCRIPTION: description, CANARY_CIDR: address });
    expectNoCanary(runs, [description, note, address]);
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    // The sync did apply the values: they are the account's now, only never printed.
    const policies = await account.client.listAll<{ description: string }>('/ip_policies', 'ip_policies');
    expect(policies.map((p) => p.description)).toContain(description);
  });
});

describe('{file:} reads only inside the config root', () => {
  /**
   * A checkout with a secret in .git/config, as actions/checkout leaves its token, and a directory
   * beside it holding another secret and a YAML file.
   */
  async function checkout(): Promise<{
    account: CliAccount;
    outside: string;
    outsideSecret: string;
    inGit: string;
    [Symbol.asyncDispose](): Promise<void>;
  }> {
    const account = await startCliAccount();
    const outside = await mkdtemp(join(tmpdir(), 'acctsync-outside-'));
    const outsideSecret = canary();
    const inGit = canary();
    await writeFile(join(outside, 'secret.txt'), outsideSecret);
    await writeFile(join(outside, 'stolen.yaml'), `version: 1\nip_policies:\n  ${outsideSecret}: {}\n`);
    await writeFile(
      join(account.dir, '.git', 'config'),
      `[http]\n\textraheader = AUTHORIZATION: basic ${inGit}\n`,
    );
    return {
      account,
      outside,
      outsideSecret,
      inGit,
      async [Symbol.asyncDispose]() {
        await account.close();
        await rm(outside, { recursive: true, force: true });
      },
    };
  }

  it('refuses absolute paths, .. out of the root, .git/ and a symlink leading out, naming the path; --files-root widens it', async () => {
    await using fixture = await checkout();
    const { account, outside, outsideSecret, inGit } = fixture;
    const up = relative(join(account.dir, 'account'), join(outside, 'secret.txt'));
    await account.write(
      'account/a.yaml',
      [
        'version: 1',
        'ip_policies:',
        `  abs: { description: { file: ${join(outside, 'secret.txt')} } }`,
        `  up: { description: { file: ${up} } }`,
        '  git: { description: { file: ../.git/config } }',
        '  link: { description: { file: link.txt } }',
        '',
      ].join('\n'),
    );
    await symlink(join(outside, 'secret.txt'), join(account.dir, 'account', 'link.txt'));
    const runs = await everyOutput(account, {});
    expectNoCanary(runs, [outsideSecret, inGit]);
    const validate = runs[0]!.stderr;
    expect(validate).toContain(
      `a.yaml:3:23: error: file ${join(outside, 'secret.txt')} is outside the config's root (`,
    );
    expect(validate).toContain(`a.yaml:4:22: error: file ${up} is outside the config's root (`);
    expect(validate).toContain(
      'a.yaml:5:23: error: file ../.git/config is inside .git/, which a config may not read',
    );
    expect(validate).toContain("a.yaml:6:24: error: file link.txt is outside the config's root (");
    expect(validate).toContain('--files-root DIR (or ACCTSYNC_FILES_ROOT) adds a directory on purpose');
    expect(account.writes()).toBe(0);

    // Widened on purpose, the files beside the checkout are read (and still never printed); .git/ stays refused.
    for (const widen of [
      { args: ['--files-root', outside], env: {} },
      { args: [], env: { ACCTSYNC_FILES_ROOT: outside } },
    ]) {
      const run = await account.acctsync(['validate', 'account', ...widen.args], widen.env);
      expect(run.stderr).not.toContain(outsideSecret);
      expect(run.stderr).not.toContain('is outside');
      expect(run.stderr).toContain('file ../.git/config is inside .git/');
    }
  });

  it('a symlinked config file leading out of the root, or into .git/, is refused by validate', async () => {
    await using fixture = await checkout();
    const { account, outside, outsideSecret, inGit } = fixture;
    await account.write('account/a.yaml', 'version: 1\n');
    await symlink(join(outside, 'stolen.yaml'), join(account.dir, 'account', 'b.yaml'));
    await symlink(join(account.dir, '.git', 'config'), join(account.dir, 'account', 'c.yaml'));
    const run = await account.acctsync(['validate', 'account']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "account/b.yaml:1:1: error: account/b.yaml is a symbolic link to a target outside the config's root",
    );
    expect(run.stderr).toContain('account/c.yaml:1:1: error: account/c.yaml is a symbolic link into .git/');
    expect(run.stderr).not.toContain(inGit);
    expect(run.stderr).not.toContain(outsideSecret);
  });
});

describe('{file:} is judged and read through one descriptor', { timeout: 180_000 }, () => {
  it('a FIFO, a directory and a link to a FIFO are refused as not regular files, at once (a FIFO never hangs the load)', async () => {
    await using account = await startCliAccount();
    await account.write(
      'account/a.yaml',
      [
        'version: 1',
        'ip_policies:',
        '  pipe: { description: { file: pipe } }',
        '  dir: { description: { file: keys } }',
        '  link: { description: { file: to-pipe } }',
        '',
      ].join('\n'),
    );
    await run('mkfifo', [join(account.dir, 'account', 'pipe')]);
    await mkdir(join(account.dir, 'account', 'keys'));
    await symlink('pipe', join(account.dir, 'account', 'to-pipe'));
    const validate = await account.acctsync(['validate', 'account']);
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain('a.yaml:3:24: error: pipe is not a regular file');
    expect(validate.stderr).toContain('a.yaml:4:23: error: keys is not a regular file');
    expect(validate.stderr).toContain('a.yaml:5:24: error: to-pipe is not a regular file');
  });

  it('a directory of the path swapped for a link out of the root while it loads: never read outside', async () => {
    await using account = await startCliAccount();
    const outside = await mkdtemp(join(tmpdir(), 'acctsync-outside-'));
    try {
      // Outside, a file a config could not take as text: reading it would be reported as not UTF-8.
      await writeFile(join(outside, 'secret.txt'), Buffer.from([0x00, 0x01, 0xff, 0x00]));
      await mkdir(join(account.dir, 'inside'));
      await writeFile(join(account.dir, 'inside', 'secret.txt'), 'inside text\n');
      const entries = Array.from(
        { length: 200 },
        (_, i) => `  p${i}: { description: { file: ../keys/secret.txt } }`,
      );
      await account.write('account/a.yaml', ['version: 1', 'ip_policies:', ...entries, ''].join('\n'));
      // keys/ (beside account/) flips between the inside directory and the outside one, each flip atomic.
      const swapper = spawn(
        'bash',
        [
          '-c',
          `cd "${account.dir}"; while :; do ln -sfn inside next && mv -T next keys; ln -sfn "${outside}" next && mv -T next keys; done`,
        ],
        { stdio: 'ignore' },
      );
      try {
        const outcomes = new Set<string>();
        for (let i = 0; i < 15; i++) {
          const validate = await account.acctsync(['validate', 'account']);
          expect(validate.stderr).not.toContain('is not UTF-8 text');
          for (const line of validate.stderr.split('\n')) {
            const m = /error: (.*)$/.exec(line);
            if (m?.[1] !== undefined && !m[1].startsWith('the desired state is invalid')) outcomes.add(m[1]);
          }
        }
        // Each refusal is one a path out of the root gets, or one of a path that changed under the read.
        for (const outcome of outcomes)
          expect(outcome).toMatch(
            /^file \.\.\/keys\/secret\.txt (is outside the config's root|changed while it was opened|does not exist)/,
          );
      } finally {
        swapper.kill();
      }
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});

describe("{env:} cannot read acctsync's credentials or the CI's tokens", () => {
  it("refuses the API key (even as a description), the CI tokens and an environment's key variable, naming the variable", async () => {
    await using account = await startCliAccount();
    const token = canary();
    const jobToken = canary();
    const staging = canary();
    await account.write(
      'account/a.yaml',
      [
        'version: 1',
        'ip_policies:',
        '  key: { description: { env: SVC_API_KEY } }',
        '  github: { description: { env: GITHUB_TOKEN } }',
        '  oidc: { description: { env: ACTIONS_ID_TOKEN_REQUEST_TOKEN } }',
        '  gitlab: { description: { env: CI_JOB_TOKEN } }',
        '  staging: { description: { env: STAGING_SVC_API_KEY } }',
        '',
      ].join('\n'),
    );
    const env = {
      GITHUB_TOKEN: token,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: token,
      CI_JOB_TOKEN: jobToken,
      STAGING_SVC_API_KEY: staging,
    };
    const runs = await everyOutput(account, env);
    expectNoCanary(runs, [token, jobToken, staging, account.token]);
    for (const run of runs.slice(0, -1)) expect(run.code).toBe(1);
    expect(account.writes()).toBe(0);
    const validate = runs[0]!.stderr;
    expect(validate).toContain(
      'a.yaml:3:23: error: {env: SVC_API_KEY} is refused: SVC_API_KEY is a variable of acctsync, which a config may not read',
    );
    expect(validate).toContain(
      '{env: GITHUB_TOKEN} is refused: GITHUB_TOKEN is a variable of GitHub Actions',
    );
    expect(validate).toContain('{env: ACTIONS_ID_TOKEN_REQUEST_TOKEN} is refused');
    expect(validate).toContain('{env: CI_JOB_TOKEN} is refused: CI_JOB_TOKEN is a variable of GitLab CI');
    expect(validate).toContain(
      '{env: STAGING_SVC_API_KEY} is refused: STAGING_SVC_API_KEY is a variable of acctsync',
    );
  });

  it('an environment may name only acctsync variables for its key, so {env:} cannot reach it under another name', async () => {
    await using account = await startCliAccount();
    const key = canary();
    await account.write(
      'account/envs.yaml',
      [
        'version: 1',
        'environments:',
        '  prod: { api_key_env: PROD_KEY, api_url_env: PROD_SVC_API_URL }',
        'ip_policies:',
        '  p: { description: { env: PROD_KEY } }',
        '',
      ].join('\n'),
    );
    const run = await account.acctsync(['validate', 'account', '--env', 'prod'], { PROD_KEY: key });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `account/envs.yaml:3:24: error: "PROD_KEY" is not one of acctsync's API key variables`,
    );
    expect(run.stderr).not.toContain(key);
  });

  it('docs/config.md lists every variable refused', async () => {
    const docs = await readFile(new URL('../../docs/config.md', import.meta.url), 'utf8');
    for (const group of [acctsyncVariables, ...ciTokenVariables]) {
      for (const name of group.names) expect(docs, name).toContain(`\`${name}\``);
    }
    for (const ending of acctsyncVariableEndings) expect(docs, ending).toContain(`\`*${ending}\``);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
