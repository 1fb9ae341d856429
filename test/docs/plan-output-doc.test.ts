/**
 * docs/plan-output.md's examples are real output: each `<!-- example: NAME -->` section syncs its
 * first YAML block into an account (the emulator over real HTTP), runs its `sh` blocks with bash, writes
 * its second YAML block over the first, and runs every `$ acctsync plan ...` console block with the
 * built CLI. The printed output, live ids and volatile fields replaced (see `normalizer`), must equal
 * the block's body, so the documentation cannot go stale. The JSON plans are also validated against
 * schemas/plan.schema.json.
 *
 * After a deliberate change of the output, `ACCTSYNC_WRITE_DOCS=1 npx vitest run
 * test/docs/plan-output-doc.test.ts` rewrites the console blocks; review the diff of the doc.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliShim, runBash } from '../support/cli.js';
import { startCliAccount, type CliAccount } from '../safety/support.js';
import { validatePlan } from '../support/plan-schema.js';

const docPath = 'docs/plan-output.md';
const doc = readFileSync(docPath, 'utf8');
const writeDocs = process.env.ACCTSYNC_WRITE_DOCS === '1';

interface Block {
  readonly lang: string;
  readonly body: string;
}

interface Example {
  readonly name: string;
  readonly blocks: readonly Block[];
}

const fence = /^(`{3,})(\w*)\n([\s\S]*?)\n\1$/gm;

function examplesOf(markdown: string): Example[] {
  const parts = markdown.split(/^<!-- example: ([\w-]+) -->$/m);
  const out: Example[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const section = (parts[i + 1] ?? '').split(/^## /m)[0] ?? '';
    const blocks = [...section.matchAll(fence)].map((m) => ({ lang: m[2] ?? '', body: m[3] ?? '' }));
    out.push({ name: parts[i] ?? '', blocks });
  }
  return out;
}

/** The words of a `$ acctsync ...` line (no quoting needed in the doc's commands). */
function argsOf(commandLine: string): string[] {
  return commandLine.replace(/^\$ acctsync /, '').split(/\s+/);
}

/**
 * Live ids become `<prefix>_` and a number, the same in every output of one example: numbered in
 * the order of the keys they belong to (ids themselves depend on the order the account created
 * objects in); times, fingerprints and marker metadata become `…`.
 */
function normalizer(jsonPlan: string): (text: string) => string {
  const plan = JSON.parse(jsonPlan) as {
    resolvedIds: Record<string, string>;
    operations: {
      key: string;
      liveId?: string;
      parentKey?: string;
      liveParentId?: string;
      cascade?: { objects: { id: string; key?: string }[] };
    }[];
    unmanaged?: { kind: string; id: string; name?: string }[];
  };
  const keyOf = new Map<string, string>(Object.entries(plan.resolvedIds).map(([key, id]) => [id, key]));
  for (const op of plan.operations) {
    if (op.liveId !== undefined) keyOf.set(op.liveId, op.key);
    for (const c of op.cascade?.objects ?? []) keyOf.set(c.id, c.key ?? `~${c.id}`);
  }
  for (const { liveParentId: id, parentKey } of plan.operations) {
    if (id !== undefined && !keyOf.has(id)) keyOf.set(id, parentKey ?? `~${id}`);
  }
  // Objects nobody manages (the emulator's bootstrap key), named by what they are, not their id.
  for (const u of plan.unmanaged ?? []) if (!keyOf.has(u.id)) keyOf.set(u.id, `~${u.kind}/${u.name ?? ''}`);
  const ids = [...keyOf].sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id]) => id);
  const counters = new Map<string, number>();
  const names = new Map<string, string>();
  for (const id of ids) {
    const prefix = id.replace(/_.*/, '');
    const n = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, n);
    names.set(id, `${prefix}_${String(n).padStart(11, '0')}`);
  }
  return (text) => {
    let out = text;
    for (const [id, name] of names) out = out.replaceAll(id, name);
    return out
      .replace(/"createdAt": "[^"]+"/g, '"createdAt": "…"')
      .replace(/"sha256:[0-9a-f]{64}"/g, '"sha256:…"')
      .replace(/"metadata": "(?:[^"\\]|\\.)*"/g, '"metadata": "…"');
  };
}

/** Runs an `sh` block in the account's directory, `acctsync` on PATH and the account's SVC_* set. */
async function runSetup(account: CliAccount, script: string): Promise<void> {
  await account.write('bin/acctsync', cliShim);
  const result = await runBash(`chmod +x bin/acctsync\n${script}`, {
    cwd: account.dir,
    env: { PATH: `${join(account.dir, 'bin')}:${process.env.PATH ?? ''}`, ...account.env },
  });
  expect(result.code, `${script}\n${result.stderr}`).toBe(0);
}

const written = new Map<string, Block[]>();

afterAll(() => {
  if (!writeDocs || written.size === 0) return;
  let text = doc;
  for (const [name, blocks] of written) {
    const start = text.indexOf(`<!-- example: ${name} -->`);
    const end = text.indexOf('\n## ', start) < 0 ? text.length : text.indexOf('\n## ', start);
    let i = 0;
    const section = text.slice(start, end).replace(fence, (whole, _ticks, lang: string) => {
      if (lang !== 'console') return whole;
      const b = blocks[i++];
      if (b === undefined) return whole;
      const ticks = b.body.includes('```') ? '````' : '```';
      return `${ticks}console\n${b.body}\n${ticks}`;
    });
    text = text.slice(0, start) + section + text.slice(end);
  }
  writeFileSync(docPath, text);
});

const examples = examplesOf(doc);

describe('docs/plan-output.md', () => {
  it('has an example of each change shape', () => {
    expect(examples.map((e) => e.name)).toEqual([
      'create',
      'nested-leaf',
      'modules',
      'lists',
      'references',
      'replace',
      'delete-cascade',
      'adoption',
      'rename',
    ]);
  });

  it('documents every reason_code of schemas/plan.schema.json', () => {
    const schema = JSON.parse(readFileSync('schemas/plan.schema.json', 'utf8')) as {
      $defs: { operation: { properties: { reason_code: { enum: string[] } } } };
    };
    const codes = schema.$defs.operation.properties.reason_code.enum;
    expect(codes.length).toBeGreaterThan(5);
    for (const code of codes) expect(doc).toMatch(new RegExp(`^\\| \`${code}\` +\\|`, 'm'));
  });

  it.each(examples)(
    'example $name is the real output of its commands',
    async ({ name, blocks }) => {
      const yaml = blocks.filter((b) => b.lang === 'yaml');
      const setup = blocks.filter((b) => b.lang === 'sh');
      const plans = blocks.filter((b) => b.lang === 'console');
      expect(yaml, `${name}: a synced and an edited YAML block`).toHaveLength(2);
      expect(plans.length, `${name}: text, markdown and JSON plans`).toBeGreaterThanOrEqual(3);
      const account = await startCliAccount();
      try {
        await account.write('account/docs.yaml', `${yaml[0]?.body ?? ''}\n`);
        const synced = await account.acctsync(['sync', 'account/']);
        expect(synced.code, synced.stderr).toBe(0);
        for (const b of setup) await runSetup(account, b.body);
        await account.write('account/docs.yaml', `${yaml[1]?.body ?? ''}\n`);

        const commands = plans.map((b) => b.body.split('\n')[0] ?? '');
        const jsonCommand = commands.find((c) => c.includes('--output json'));
        expect(jsonCommand, `${name}: a JSON plan`).toBeDefined();
        const json = await account.acctsync(argsOf(jsonCommand ?? ''));
        expect(json.code, json.stderr).toBe(0);
        expect(validatePlan(JSON.parse(json.stdout)), JSON.stringify(validatePlan.errors)).toBe(true);
        const normalize = normalizer(json.stdout);

        const actual: Block[] = [];
        for (const command of commands) {
          expect(command, `${name}: each console block starts with its command`).toMatch(
            /^\$ acctsync plan /,
          );
          const run = command === jsonCommand ? json : await account.acctsync(argsOf(command));
          expect(run.code, run.stderr).toBe(0);
          actual.push({ lang: 'console', body: `${command}\n${normalize(run.stdout).replace(/\n$/, '')}` });
        }
        if (writeDocs) written.set(name, actual);
        else expect(actual).toEqual(plans);
      } finally {
        await account.close();
      }
    },
    60_000,
  );
});
