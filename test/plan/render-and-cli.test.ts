import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownLimit, renderMarkdown, renderText, type Plan } from '../../src/plan-format/index.js';
import { planFor } from '../../src/pipeline/index.js';
import type { DesiredObject, DesiredState } from '../../src/resources/index.js';
import { useAccount } from '../support/use-account.js';
import { applyPlan, planAccount } from './helpers.js';

const h = useAccount(planAccount);

const at = { file: 'a.yaml', line: 1, column: 1 };
function obj(
  kind: DesiredObject['kind'],
  key: string,
  fields: Record<string, unknown>,
  extra: Partial<DesiredObject> = {},
): DesiredObject {
  return { kind, key, name: key.split('/').pop() ?? key, fields, sensitive: [], source: at, ...extra };
}
const state = (...objects: DesiredObject[]): DesiredState => ({ scope: 'test', objects });

/** Ids and times vary run to run: replace them for snapshots. */
function normalized(text: string): string {
  return text.replace(/\b(ipp|ipr)_[A-Za-z0-9]{10,}\b/g, '$1_ID');
}

describe('renderers', () => {
  it('renders create, update, replace and delete as text, with the summary line', async () => {
    const before = state(
      obj('ip_policies', 'ip_policies/office', { description: 'Office' }),
      obj('ip_policies', 'ip_policies/old', { description: 'Old' }),
      obj(
        'ip_policy_rules',
        'ip_policies/office/rules/10.0.0.0/8',
        { cidr: '10.0.0.0/8', action: 'allow', ip_policy: 'ip_policies/office' },
        { parentKey: 'ip_policies/office' },
      ),
    );
    await applyPlan(h.client, (await planFor(before, h.client)).plan, before);
    const after = state(
      obj('ip_policies', 'ip_policies/office', { description: 'Office networks' }),
      obj(
        'ip_policies',
        'ip_policies/new',
        { description: 'New', metadata: 'secret-ish' },
        { sensitive: [['metadata']] },
      ),
      obj(
        'ip_policy_rules',
        'ip_policies/office/rules/10.0.0.0/8',
        { cidr: '10.0.0.0/8', action: 'deny', ip_policy: 'ip_policies/office' },
        { parentKey: 'ip_policies/office' },
      ),
    );
    const { plan } = await planFor(after, h.client);
    expect(normalized(renderText(plan, { color: false }))).toMatchInlineSnapshot(`
      "acctsync plan for scope test

        + ip_policies/new  IP policy
            + description: "New"
            + metadata: (sensitive)
        ~ ip_policies/office  IP policy ipp_ID
            ~ description: "Office" -> "Office networks"
            # (1 unchanged attribute hidden)
      -/+ ip_policies/office/rules/10.0.0.0/8  IP policy rule ipr_ID  (action cannot change in place)
            ~ action: "allow" -> "deny"  # forces replacement
            # (4 unchanged attributes hidden)
        - ip_policies/old  IP policy ipp_ID  (left the config)

      Unmanaged: 1 API key (no scope manages it; the JSON plan lists it). To manage one, add its entry with its \`id:\` (\`acctsync export\` writes it) and sync with \`--adopt\`.

      Plan: 1 to create, 1 to update, 1 to replace, 1 to delete, 0 to adopt; 0 unchanged.
      "
    `);
    // Colour codes only when asked for.
    expect(renderText(plan, { color: true })).toContain('\u001b[');
    expect(renderText(plan, { color: false })).not.toContain('\u001b[');
    expect(renderMarkdown(plan)).not.toContain('secret-ish');
    // A rule whose key would collide is deleted before its replacement is created.
    const ruleOps = plan.operations.filter((op) => op.kind === 'ip_policy_rules');
    expect(ruleOps.map((op) => op.action)).toEqual(['delete', 'create']);
    expect(ruleOps[1]?.dependsOn).toEqual([ruleOps[0]?.id]);
  });

  it('keeps markdown under the limit with a note when truncated', async () => {
    const many = state(
      ...Array.from({ length: 1200 }, (_, i) =>
        obj('ip_policies', `ip_policies/p${i}`, { description: 'x'.repeat(200) }),
      ),
    );
    const { plan } = await planFor(many, h.client);
    const full = renderMarkdown(plan, 10_000_000);
    expect(full.length).toBeGreaterThan(markdownLimit);
    const md = renderMarkdown(plan);
    expect(md.length).toBeLessThanOrEqual(markdownLimit);
    expect(md).toContain('_Truncated:');
    expect(md.indexOf('Plan: 1200 to create')).toBeLessThan(md.indexOf('#### All changes'));
  });
});

describe('acctsync plan (built CLI)', () => {
  // Asynchronous: the emulator answering the CLI runs in this very process.
  function cli(args: string[], env: Record<string, string>) {
    return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['dist/cli/main.js', 'plan', ...args],
        { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env }, maxBuffer: 1 << 26 },
        (err, stdout, stderr) =>
          resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
      );
    });
  }

  it('exits 2 with changes under --detailed-exitcode, printing the JSON in full first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acctsync-plan-'));
    const summary = join(dir, 'summary.md');
    const out = join(dir, 'plan.json');
    const env = { ...h.env, GITHUB_STEP_SUMMARY: summary };
    const r = await cli(['examples/account', '--output', 'json', '--detailed-exitcode', '--out', out], env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    const plan = JSON.parse(r.stdout) as Plan;
    expect(plan.summary.create).toBeGreaterThan(10);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(plan);
    expect(readFileSync(summary, 'utf8')).toContain('### acctsync plan');
    expect((await cli(['examples/account'], env)).status).toBe(0);
  });

  it('exits 0 without changes and 1 on a config error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acctsync-plan-'));
    const env = h.env;
    const empty = join(dir, 'acctsync.yaml');
    writeFileSync(empty, 'version: 1\nscope: empty\n');
    expect((await cli([empty, '--detailed-exitcode'], env)).status).toBe(0);
    expect((await cli([join(dir, 'missing.yaml'), '--detailed-exitcode'], env)).status).toBe(1);
  });
});
