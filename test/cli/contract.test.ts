/**
 * The command-line contract a CI pipeline relies on, tested as the pipeline meets it: the built CLI
 * run with exact arguments, its exit status, stdout and stderr. README "Exit codes" documents it.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands.js';
import { flagSignature } from '../../src/cli/flags.js';

const main = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

const policies = (names: string[]) =>
  `version: 1\nscope: contract\nip_policies:\n${names.map((n) => `  ${n}:\n    description: ${n} networks\n`).join('')}`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'acctsync-contract-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(file: string, text: string): void {
  mkdirSync(join(dir, file, '..'), { recursive: true });
  writeFileSync(join(dir, file), text);
}

/** The CLI as a pipeline runs it: no terminal, a clean environment but for what the test sets. */
function acctsync(args: string[], env: Record<string, string> = {}): SpawnSyncReturns<string> {
  const {
    GITHUB_ACTIONS: _a,
    SVC_API_URL: _u,
    SVC_API_KEY: _k,
    GITHUB_STEP_SUMMARY: _s,
    ...base
  } = process.env;
  return spawnSync(process.execPath, [main, ...args], {
    cwd: dir,
    env: { ...base, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

/** Synced once, so that the same config plans no change. */
function syncedAccount(): void {
  write('account/network.yaml', policies(['office']));
  const run = acctsync(['sync', '--api-url', 'embedded']);
  expect(run.status, run.stderr).toBe(0);
}

type Situation = 'no change' | 'change' | 'config error' | 'API error' | 'usage error';

/** What each situation does to the directory and the arguments. */
function arrange(situation: Situation): { extra: string[]; env: Record<string, string> } {
  syncedAccount();
  switch (situation) {
    case 'no change':
      return { extra: [], env: {} };
    case 'change':
      write('account/network.yaml', policies(['office', 'lab']));
      return { extra: [], env: {} };
    case 'config error':
      write('account/network.yaml', `${policies(['office'])}    descripton: typo\n`);
      return { extra: [], env: {} };
    case 'API error':
      // A closed port on loopback: the connection is refused at once, every retry alike.
      return { extra: ['--api-url', 'http://127.0.0.1:9'], env: { SVC_API_KEY: 'contract-test-key' } };
    case 'usage error':
      return { extra: ['--bogus-flag'], env: {} };
  }
}

/** Every command the CLI has, from its registry: a new one is held to the contract below unasked. */
const commandNames = Object.keys(commands);

const expected: Record<string, Record<Situation, number>> = {
  'plan --detailed-exitcode': {
    'no change': 0,
    change: 2,
    'config error': 1,
    'API error': 1,
    'usage error': 1,
  },
  plan: { 'no change': 0, change: 0, 'config error': 1, 'API error': 1, 'usage error': 1 },
  'sync --dry-run --detailed-exitcode': {
    'no change': 0,
    change: 2,
    'config error': 1,
    'API error': 1,
    'usage error': 1,
  },
  sync: { 'no change': 0, change: 0, 'config error': 1, 'API error': 1, 'usage error': 1 },
  validate: { 'no change': 0, change: 0, 'config error': 1, 'API error': 0, 'usage error': 1 },
};

// Several CLI processes per case: well over the default 20 s on a loaded machine.
describe(
  'exit codes: 0 success, 2 changes (only with --detailed-exitcode), 1 any error',
  { timeout: 120_000 },
  () => {
    const cases = Object.entries(expected).flatMap(([command, row]) =>
      Object.entries(row).map(([situation, code]) => ({ command, situation: situation as Situation, code })),
    );
    it.each(cases)('$command with $situation exits $code', ({ command, situation, code }) => {
      const { extra, env } = arrange(situation);
      // validate never talks to the API: its "API error" column is a valid config with a dead API.
      const args = command === 'validate' ? ['validate', ...extra.filter((a) => a === '--bogus-flag')] : [];
      const run = acctsync(args.length > 0 ? args : [...command.split(' '), ...extra], env);
      expect(run.status, run.stdout + run.stderr).toBe(code);
      if (code === 1) expect(run.stderr).toMatch(/^error: /m);
      expect(run.stderr).not.toMatch(/internal error/);
    });

    it('apply of a saved plan: 0 applied, 1 for a stale plan, a missing file or a bad flag', () => {
      syncedAccount();
      write('account/network.yaml', policies(['office', 'lab']));
      expect(acctsync(['plan', '--out', 'plan.json']).status).toBe(0);
      expect(acctsync(['apply', 'plan.json', '--bogus']).status).toBe(1);
      expect(acctsync(['apply', 'missing.json']).status).toBe(1);
      expect(acctsync(['apply', 'plan.json']).status).toBe(0);
      const stale = acctsync(['apply', 'plan.json']);
      expect(stale.status).toBe(1);
      expect(stale.stderr).toMatch(/^error: /m);
    });

    it.each(commandNames)('%s with an unknown flag exits 1 and names it', (command) => {
      const run = acctsync([command, '--bogus-flag']);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(new RegExp(`^error: .*--bogus-flag`, 'm'));
      expect(run.stderr).toContain(`Usage: acctsync ${command}`);
    });

    it.each([['export'], ['sessions', 'list'], ['events']])(
      '%s against an API that refuses exits 1',
      (...command) => {
        const run = acctsync([...command, '--api-url', 'http://127.0.0.1:9'], {
          SVC_API_KEY: 'contract-test-key',
        });
        expect(run.status, run.stderr).toBe(1);
        expect(run.stderr).toMatch(/^error: /m);
      },
    );

    it('apply prints the config problems of the config the plan was made from', () => {
      syncedAccount();
      write('account/network.yaml', policies(['office', 'lab']));
      expect(acctsync(['plan', '--out', 'plan.json']).status).toBe(0);
      write('account/network.yaml', `${policies(['office'])}    descripton: typo\n`);
      const run = acctsync(['apply', 'plan.json'], { GITHUB_ACTIONS: 'true' });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('account/network.yaml:6:5: error: unknown field descripton');
      expect(run.stderr).toContain('::error file=account/network.yaml,line=6,col=5::');
    });
  },
);

describe('usage errors say what to do', () => {
  it('an unknown flag gets a suggestion and the usage line, not the parser text', () => {
    const run = acctsync(['plan', '--outptu', 'json']);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      [
        'error: plan: unknown option --outptu',
        'did you mean --output?',
        'Usage: acctsync plan [PATH...] [options]',
        "Run 'acctsync help plan' for its options.",
        '',
      ].join('\n'),
    );
  });

  it('a bad flag value exits 1', () => {
    const run = acctsync(['plan', '--output', 'yaml']);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('error: --output yaml is not a plan format: use text, json or markdown');
    expect(run.stderr).toContain('Usage: acctsync plan [PATH...] [options]');
  });

  it('a flag without its value, and a value given to a switch, exit 1', () => {
    expect(acctsync(['plan', '--out']).stderr).toContain('error: plan: option --out needs a value');
    const run = acctsync(['plan', '--adopt=yes']);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('error: plan: option --adopt takes no value');
  });

  it('an unknown command gets a suggestion; no command prints the overview and exits 1', () => {
    const typo = acctsync(['plna']);
    expect(typo.status).toBe(1);
    expect(typo.stderr).toContain('error: unknown command plna\ndid you mean plan?');
    const none = acctsync([]);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('Commands:');
  });

  it('--help lists every command with its summary, the connection settings and the exit codes', () => {
    const run = acctsync(['--help']);
    expect(run.status).toBe(0);
    expect(commandNames).toEqual(expect.arrayContaining(['validate', 'plan', 'sync', 'watch', 'forget']));
    for (const name of commandNames) expect(run.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(run.stdout).toContain('SVC_API_URL');
    expect(run.stdout).toContain('SVC_API_KEY');
    expect(run.stdout).toMatch(
      /^ {2}2 +changes present \(only plan and sync --dry-run with --detailed-exitcode\)$/m,
    );
  });

  it.each(commandNames)('%s --help lists every flag the command accepts, with its value', async (name) => {
    const { command } = await commands[name]!.load();
    const run = acctsync([name, '--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Usage: acctsync ${name}`));
    const listed = [...run.stdout.matchAll(/^ {2}(--[a-z-]+(?: \S+)?)/gm)].map((m) => m[1]);
    expect(listed).toEqual(Object.entries(command.flags).map(([flag, row]) => flagSignature(flag, row)));
  });

  it.each(commandNames)('%s refuses a value-taking flag without its value', async (name) => {
    const { command } = await commands[name]!.load();
    const flag = Object.keys(command.flags).find((f) => command.flags[f]?.type === 'string');
    expect(flag).toBeDefined();
    const run = acctsync([name, `--${flag}`]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`error: ${name}: option --${flag} needs a value`);
  });

  it('help <command> prints the command usage; --version the package version', () => {
    const help = acctsync(['help', 'sync']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: acctsync sync /);
    expect(help.stdout).toContain('--yes');
    const version = acctsync(['--version']);
    expect(version.status).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('config problems look the same under every command that loads config', { timeout: 120_000 }, () => {
  const loading = ['validate', 'plan', 'sync', 'sync --dry-run'];
  /** The command line: commands that plan talk to the embedded emulator. */
  const argsOf = (command: string) =>
    command === 'validate' ? ['validate'] : [...command.split(' '), '--api-url', 'embedded'];

  it.each(loading)('%s prints the code frame of each problem', (command) => {
    write('account/network.yaml', `${policies(['office'])}    descripton: typo\n`);
    const run = acctsync(argsOf(command));
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('account/network.yaml:6:5: error: unknown field descripton');
    expect(run.stderr).toContain('> 6 |     descripton: typo');
    expect(run.stderr).toContain('hint: did you mean description?');
    expect(run.stderr).not.toContain('::error');
  });

  it.each(loading)('%s adds workflow annotations under GitHub Actions', (command) => {
    write('account/network.yaml', `${policies(['office'])}    descripton: typo\n`);
    const run = acctsync(argsOf(command), { GITHUB_ACTIONS: 'true' });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      '::error file=account/network.yaml,line=6,col=5::ip_policies.office.descripton: unknown field descripton',
    );
    expect(run.stderr).toContain('> 6 |     descripton: typo');
  });

  it('warnings show under plan and sync too, not only validate', () => {
    write(
      'account/network.yaml',
      'version: 1\nscope: contract\nip_policies:\n  office:\n    rules:\n      - { cidr: 10.0.0.1/8, action: allow }\n',
    );
    const validate = acctsync(['validate']);
    expect(validate.status).toBe(0);
    const warning = /account\/network\.yaml:\d+:\d+: warning: .*/.exec(validate.stderr)?.[0];
    expect(warning).toBeDefined();
    for (const command of [['plan'], ['sync', '--dry-run'], ['sync']]) {
      const run = acctsync([...command, '--api-url', 'embedded'], { GITHUB_ACTIONS: 'true' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toContain(warning);
      expect(run.stderr).toMatch(/^::warning file=account\/network\.yaml,line=\d+,col=\d+::/m);
    }
  });

  it('problems are listed by file and line', () => {
    write('account/b.yaml', 'version: 1\nip_policies:\n  b:\n    descripton: x\n');
    write('account/a.yaml', 'version: 1\nip_policies:\n  a:\n    colour: x\n    descripton: y\n');
    const run = acctsync(['plan', '--api-url', 'embedded']);
    const places = [...run.stderr.matchAll(/^(account\/\w+\.yaml:\d+):\d+: error/gm)].map((m) => m[1]);
    expect(places).toEqual(['account/a.yaml:4', 'account/a.yaml:5', 'account/b.yaml:4']);
  });

  it('a file that does not parse causes no follow-on errors in the files that refer into it', () => {
    write('account/network.yaml', 'version: 1\nip_policies:\n  office: description: x\n');
    write(
      'account/access.yaml',
      'version: 1\nip_restrictions:\n  r:\n    type: api\n    ip_policies: [office]\n',
    );
    const run = acctsync(['plan', '--api-url', 'embedded']);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('account/network.yaml:3');
    expect(run.stderr).not.toContain('no IP policy named office');
    expect(run.stderr).toContain(
      'references to names this file may define were not checked, because it did not parse: office (account/access.yaml:5)',
    );
    expect(run.stderr).toContain('error: the desired state is invalid: 1 error');
  });
});

describe('directory loading', () => {
  it('skips hidden files and directories and node_modules below the given directory', () => {
    write('network.yaml', policies(['office']));
    write('.github/workflows/ci.yml', 'on: push\njobs: {}\n');
    write('node_modules/some-package/config.yml', 'name: x\n');
    write('.hidden/extra.yaml', 'version: 1\nip_policies:\n  hidden: {}\n');
    write('.gitlab-ci.yml', 'stages: [check]\n');
    const run = acctsync(['validate', '.']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('valid: 1 object in 1 file\n');
    expect(run.status).toBe(0);
  });

  it('reads a hidden directory named on the command line', () => {
    write('.config/acct/network.yaml', policies(['office']));
    const run = acctsync(['validate', '.config/acct']);
    expect(run.stdout).toBe('valid: 1 object in 1 file\n');
  });
});

describe('sync asks before destroying, on a terminal only', { timeout: 120_000 }, () => {
  /** `script` gives the command a pseudo-terminal and feeds it `input`. */
  function onTerminal(args: string[], input: string): SpawnSyncReturns<string> {
    const { SVC_API_URL: _u, SVC_API_KEY: _k, ...base } = process.env;
    const command = [process.execPath, main, ...args].map((a) => `'${a}'`).join(' ');
    return spawnSync('script', ['-qec', command, '/dev/null'], {
      cwd: dir,
      env: base,
      input,
      encoding: 'utf8',
      timeout: 60_000,
    });
  }

  it('a delete waits for "yes"; anything else changes nothing', () => {
    write('account/network.yaml', policies(['office', 'lab']));
    expect(acctsync(['sync']).status).toBe(0);
    write('account/network.yaml', policies(['office']));
    const declined = onTerminal(['sync'], 'no\n');
    expect(declined.stdout).toContain('This sync deletes or replaces 1 object.');
    expect(declined.stdout).toContain('sync cancelled: nothing was changed');
    expect(declined.status).toBe(1);
    expect(acctsync(['plan', '--detailed-exitcode']).status).toBe(2);
    const accepted = onTerminal(['sync'], 'yes\n');
    expect(accepted.status, accepted.stdout).toBe(0);
    expect(acctsync(['plan', '--detailed-exitcode']).status).toBe(0);
  });

  it('--yes skips the question; without a terminal nothing is asked', () => {
    write('account/network.yaml', policies(['office', 'lab', 'guest']));
    expect(acctsync(['sync']).status).toBe(0);
    write('account/network.yaml', policies(['office', 'lab']));
    const yes = onTerminal(['sync', '--yes'], '');
    expect(yes.stdout).not.toContain('Enter a value');
    expect(yes.status).toBe(0);
    write('account/network.yaml', policies(['office']));
    const piped = acctsync(['sync']);
    expect(piped.stdout).not.toContain('Enter a value');
    expect(piped.status).toBe(0);
  });
});
