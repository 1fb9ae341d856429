/**
 * What a reviewer reads when planning examples/ and edits of it, through the built CLI against the
 * emulator: in the change lines of the text and markdown plans, no live id (references show as the
 * config's names; an existing object's id is in its header line only), no nested value as a JSON
 * blob, and in text no truncated value.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { examplesDir } from '../support/cli.js';
import { startCliAccount, type CliAccount } from '../safety/support.js';
import { apiEnv } from '../support/account.js';

/** The emulator's ids: a kind prefix and 11 base32 digits (`edghts_0ab3…`). */
const liveId = /\b[a-z]+_[0-9a-hjkmnp-tv-z]{11}\b/;
/** A nested value printed as JSON rather than as a block. */
const jsonBlob = /\{"|\["|\[\{/;
/** What a shortened value looked like (`"log… (229 chars)`). */
const truncated = /…|\(\d+ chars\)/;

/** Header lines of the text plan: `  + key  Title [id]`; everything indented deeper is a change line. */
const textHeader = /^ {0,2}(\+|~|-|-\/\+|<=) \S/;
/** Change lines of the markdown plan's diff: the sign, then the body indented under the header. */
const markdownBody = /^[!+-] {5}/;

let account: CliAccount;
beforeEach(async () => {
  account = await startCliAccount();
  cpSync(examplesDir, join(account.dir, 'examples'), { recursive: true });
});
afterEach(async () => {
  await account.close();
});

/** Replaces `from` with `to` in an examples file, failing when `from` is not there. */
function edit(file: string, from: string | RegExp, to: string): void {
  const path = join(account.dir, 'examples', file);
  const text = readFileSync(path, 'utf8');
  const changed = text.replace(from, to);
  expect(changed, `${file}: ${String(from)}`).not.toBe(text);
  writeFileSync(path, changed);
}

async function plan(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ text: string; markdown: string }> {
  const text = await account.acctsync(['plan', ...args], env);
  expect(text.code, text.stderr).toBe(0);
  const markdown = await account.acctsync(['plan', ...args, '--output', 'markdown'], env);
  expect(markdown.code, markdown.stderr).toBe(0);
  return { text: text.stdout, markdown: markdown.stdout };
}

/** Checks what a reviewer reads; returns the number of change lines looked at. */
function expectReadable({ text, markdown }: { text: string; markdown: string }): number {
  const lines = text.split('\n');
  const textBody = lines.filter((l) => l.startsWith('      '));
  const markdownLines = markdown.split('\n').filter((l) => markdownBody.test(l));
  for (const line of [...textBody, ...markdownLines]) {
    expect(line, 'a live id in a change line').not.toMatch(liveId);
    expect(line, 'a JSON blob in a change line').not.toMatch(jsonBlob);
  }
  expect(text, 'a truncated value').not.toMatch(truncated);
  // Each existing object's id appears once, in its header line.
  const ids = lines.flatMap((l) => l.match(new RegExp(liveId.source, 'g')) ?? []);
  expect(new Set(ids).size).toBe(ids.length);
  for (const l of lines.filter((l) => liveId.test(l))) expect(l).toMatch(textHeader);
  return textBody.length;
}

/** Syncing the whole of examples/account takes seconds; on a loaded machine, more than the default. */
const slow = 60_000;

async function syncExamples(): Promise<void> {
  const synced = await account.acctsync(['sync', 'examples/account']);
  expect(synced.code, synced.stderr).toBe(0);
}

describe('plans of examples/ a reviewer can read', () => {
  it(
    'examples/account from empty',
    async () => {
      expect(expectReadable(await plan(['examples/account']))).toBeGreaterThan(100);
    },
    slow,
  );

  it(
    'examples/account after edits of every kind of change',
    async () => {
      await syncExamples();
      edit('account/edges.yaml', 'num_buckets: 10', 'num_buckets: 20');
      edit('account/edges.yaml', 'backend: { backend: web-main }', 'backend: { backend: web-split }');
      edit('account/edges.yaml', '{ level: info }', '{ level: debug }');
      edit('account/edges.yaml', '    mutual_tls: { certificate_authorities: [client-ca] }\n', '');
      edit(
        'account/edges.yaml',
        / {6}- match_type: path_prefix\n {8}match: \/partners\n[\s\S]*?(?= {6}- match_type)/,
        '',
      );
      edit('account/backends.yaml', '{ web: 95, web-canary: 5 }', '{ web: 100 }');
      edit(
        'account/network.yaml',
        '{ cidr: 203.0.113.0/24, action: allow',
        '{ cidr: 203.0.113.0/24, action: deny',
      );
      edit('account/network.yaml', 'ip_policies: [office, blocklist]', 'ip_policies: [office]');
      edit('account/access.yaml', '      - bind:app=web\n', '      - bind:app=web\n      - bind:app=api\n');
      edit('account/events.yaml', 'destinations: [audit-log, monitoring]', 'destinations: [audit-log]');
      edit('account/events.yaml', 'site: example.com', 'site: eu.example.com');
      const edited = await plan(['examples/account']);
      expect(edited.text).toMatch(/~ num_buckets: 10 -> 20/);
      expect(edited.text).toMatch(/~ backend: "backends\/web-main" -> "backends\/web-split"/);
      expect(edited.text).toMatch(/- "ip_policies\/blocklist"/);
      expect(edited.text).toMatch(/- mutual_tls \{/);
      expect(edited.text).toMatch(/-\/\+ ip_policies\/office\/rules\/203\.0\.113\.0\/24 /);
      expect(edited.text).toMatch(/- https_edges\/web\/routes\/path_prefix:\/partners /);
      expectReadable(edited);
    },
    slow,
  );

  it(
    'examples/account after removing the HTTPS edges (routes deleted with them)',
    async () => {
      await syncExamples();
      edit('account/edges.yaml', /\nhttps_edges:[\s\S]*$/, '\n');
      const removed = await plan(['examples/account']);
      expect(removed.text).toMatch(
        /- https_edges\/web +HTTPS edge \w+ +\(left the config, with 4 HTTPS edge routes\)/,
      );
      expectReadable(removed);
    },
    slow,
  );

  it.each(['staging', 'production'])(
    'examples/environments, environment %s, from empty and after an edit of the base',
    async (env) => {
      const vars = apiEnv(account, `${env.toUpperCase()}_`);
      const args = ['examples/environments', '--env', env];
      expect(expectReadable(await plan(args, vars))).toBeGreaterThan(10);
      const synced = await account.acctsync(['sync', ...args], vars);
      expect(synced.code, synced.stderr).toBe(0);
      edit(
        'environments/base/network.yaml',
        '\n\nip_restrictions:',
        '\n  vpn:\n    description: VPN exits\n\nip_restrictions:',
      );
      edit('environments/base/network.yaml', 'ip_policies: [office]', 'ip_policies: [office, vpn]');
      edit('environments/base/edges.yaml', 'backend: { backend: maintenance }', '');
      const edited = await plan(args, vars);
      expect(edited.text).toMatch(/\+ "ip_policies\/vpn"/);
      expectReadable(edited);
    },
    slow,
  );
});
