/**
 * Whoever writes a description (in the dashboard, or in a pull request's config) must not write to
 * the terminal of the person running acctsync or give the CI runner a command. A corpus of hostile
 * strings, set live through the API and in the config, goes through every command that prints it;
 * the output holds no raw control character and no line a GitHub runner would obey.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { CliResult } from '../support/cli.js';
import { startCliAccount, type CliAccount } from '../safety/support.js';

const hostile = [
  'clear\u001b[2J\u001b[Hscreen',
  'osc8 \u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007 link',
  'bell\u0007 and a carriage\rPlan: 0 to create, 0 to update, 0 to replace, 0 to delete',
  'c1 csi \u009b31m red \u0085 nel',
  'rlo \u202egnp.exe and lri \u2066x\u2069 del \u007f',
  'fence ``` and ```` <img src=x onerror=alert(1)> [link](https://evil.example) @someone | cell',
  'multi\n::warning::injected\n  ::add-mask::secret\n##[add-mask]y and ##vso[task.setvariable variable=x]1\n::error file=a,line=1::fake',
];

/** Raw characters a terminal or a log viewer acts on (a line break is the output's own). */
const raw =
  // eslint-disable-next-line no-control-regex -- finding raw control characters is the point
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/**
 * Lines a GitHub runner obeys, as its parser reads them (`::cmd ...::` after leading blanks,
 * `##[cmd]` anywhere), outside `::stop-commands::TOKEN` ... `::TOKEN::` frames. acctsync's own
 * annotations (`::error file=...`) are allowed.
 */
function obeyed(output: string): string[] {
  const out: string[] = [];
  let token: string | undefined;
  for (const line of output.split('\n')) {
    const trimmed = line.trimStart();
    if (token !== undefined) {
      if (trimmed === `::${token}::`) token = undefined;
      continue;
    }
    const stop = /^::stop-commands::(\w+)$/.exec(trimmed);
    if (stop) {
      token = stop[1];
      continue;
    }
    if (/^::(error|warning) file=[^:]+,line=\d+,col=\d+::/.test(line)) continue;
    if (/^::[\w-]+.*::/.test(trimmed) || /##[a-z]*\[/i.test(line)) out.push(line);
  }
  return out;
}

function expectInert(what: string, run: CliResult): void {
  for (const [stream, text] of [
    ['stdout', run.stdout],
    ['stderr', run.stderr],
  ] as const) {
    const at = raw.exec(text);
    expect(
      at === null ? null : JSON.stringify(text.slice(Math.max(0, at.index - 30), at.index + 10)),
      `${what} ${stream}`,
    ).toBeNull();
    expect(obeyed(text), `${what} ${stream}`).toEqual([]);
  }
}

function config(descriptions: readonly string[]): string {
  const body = descriptions.map((d, i) => `  p${i}:\n    description: ${JSON.stringify(d)}\n`).join('');
  return `version: 1\nscope: hostile\nip_policies:\n${body}`;
}

async function setLive(account: CliAccount, description: (i: number) => string): Promise<void> {
  const headers = { Authorization: `Bearer ${account.token}`, 'content-type': 'application/json' };
  const list = (await (await fetch(`${account.url}/ip_policies`, { headers })).json()) as {
    ip_policies: Array<{ id: string; description: string }>;
  };
  for (const p of list.ip_policies) {
    const i = Number(/policy (\d+)/.exec(p.description)?.[1]);
    if (Number.isNaN(i)) continue;
    const res = await fetch(`${account.url}/ip_policies/${p.id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ description: description(i) }),
    });
    expect(res.ok).toBe(true);
  }
}

interface Exported {
  ip_policies?: Record<string, { description: string }>;
}

const commands = [
  ['plan'],
  ['plan', '--output', 'markdown'],
  ['plan', '--output', 'json'],
  ['sync', '--dry-run'],
  ['export', '--scope', 'hostile'],
];

describe('hostile strings come out inert', { timeout: 240_000 }, () => {
  for (const github of [false, true]) {
    const env = github ? { GITHUB_ACTIONS: 'true', CI: 'true' } : {};
    const where = github ? 'under GitHub Actions' : 'on a terminal';

    it(`set live, as from the dashboard: every command's output ${where}`, async () => {
      await using account = await startCliAccount();
      await account.write('account/network.yaml', config(hostile.map((_, i) => `policy ${i}`)));
      expect((await account.acctsync(['sync'])).code).toBe(0);
      await setLive(account, (i) => hostile[i]!);
      for (const args of commands) {
        const run = await account.acctsync(args, env);
        expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
        expectInert(args.join(' '), run);
      }
      // The plan shows the live values it would overwrite: escaped, not dropped.
      const plan = await account.acctsync(['plan'], env);
      expect(plan.stdout).toContain('clear\\u001b[2J\\u001b[Hscreen');
      expect(plan.stdout).toContain('\\u009b31m');
      // The export stays exact: its YAML loads back to the very same values.
      const exported = await account.acctsync(['export', '--scope', 'hostile', '--out', 'exported/'], env);
      expect(exported.code, exported.stderr).toBe(0);
      const files = readdirSync(join(account.dir, 'exported'));
      const text = files.map((f) => readFileSync(join(account.dir, 'exported', f), 'utf8')).join('\n');
      expect(raw.exec(text)).toBeNull();
      const policies = files
        .map((f) => parse(readFileSync(join(account.dir, 'exported', f), 'utf8')) as Exported)
        .find((doc) => doc.ip_policies !== undefined)!.ip_policies!;
      expect(
        Object.values(policies)
          .map((p) => p.description)
          .sort(),
      ).toEqual([...hostile].sort());
    });

    it(`set in the config: plan, sync, apply's progress and validate ${where}`, async () => {
      await using account = await startCliAccount();
      await account.write('account/network.yaml', config(hostile));
      for (const args of [...commands.slice(0, 4), ['validate'], ['sync'], ['plan']]) {
        const run = await account.acctsync(args, env);
        expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
        expectInert(args.join(' '), run);
      }
    });

    it(`raw control characters in a config file: validate's code frame ${where}`, async () => {
      await using account = await startCliAccount();
      await account.write(
        'account/network.yaml',
        `version: 1\nscope: hostile\nip_policies:\n  p0:\n    descripton: "${hostile[1]!}"\n::warning::x\n`,
      );
      for (const args of [['validate'], ['plan']]) {
        const run = await account.acctsync(args, env);
        expect(run.code).toBe(1);
        expectInert(args.join(' '), run);
      }
    });
  }
});
