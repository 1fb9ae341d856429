/**
 * A plan that sync would refuse is red before the merge: `plan --detailed-exitcode` exits 1 and
 * its text and markdown say why and how to proceed; the config's reviewed `guards:` is the way
 * through, for plan and sync alike, with no --force in a workflow.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCliAccount } from '../safety/support.js';
import { validatePlan } from '../support/plan-schema.js';

function policies(n: number, extra = ''): string {
  const body = Array.from({ length: n }, (_, i) => `  p${i}:\n    description: policy ${i}\n`).join('');
  return `version: 1\nscope: guarded\nip_policies:\n${body}${extra}`;
}

describe('plan shows what sync would refuse', { timeout: 180_000 }, () => {
  it('a mass delete: plan exits 1 with the reason; a reviewed guards setting lets plan and sync through', async () => {
    await using account = await startCliAccount();
    await account.write('account/network.yaml', policies(12));
    expect((await account.acctsync(['sync'])).code).toBe(0);

    await account.write('account/network.yaml', policies(6));
    const text = await account.acctsync(['plan', '--detailed-exitcode']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('Plan: 0 to create, 0 to update, 0 to replace, 6 to delete');
    expect(text.stdout).toContain(
      'sync would refuse this: the plan deletes or replaces 6 of 12 managed objects (50%, the limit is 30%)',
    );
    expect(text.stdout).toContain("raise 'guards: { max_delete_percent: 50 }' in the config");

    const markdown = await account.acctsync(['plan', '--output', 'markdown', '--detailed-exitcode']);
    expect(markdown.code).toBe(1);
    expect(markdown.stdout).toMatch(
      /^> \*\*sync would refuse this:\*\* the plan deletes or replaces 6 of 12/,
    );
    const dryRun = await account.acctsync(['sync', '--dry-run', '--detailed-exitcode']);
    expect(dryRun.code).toBe(1);
    expect(account.writes()).toBe(12);

    // Without --detailed-exitcode, plan reports and succeeds, as a command that changed nothing.
    expect((await account.acctsync(['plan'])).code).toBe(0);

    await account.write('account/network.yaml', policies(6, 'guards:\n  max_delete_percent: 50\n'));
    const allowed = await account.acctsync(['plan', '--detailed-exitcode']);
    expect(allowed.code).toBe(2);
    expect(allowed.stdout).not.toContain('sync would refuse this');
    const sync = await account.acctsync(['sync']);
    expect(sync.code, sync.stderr).toBe(0);
  });

  it('an empty config: plan exits 1 naming the guard; guards.allow_empty is the reviewed way through', async () => {
    await using account = await startCliAccount();
    await account.write('account/network.yaml', policies(2));
    expect((await account.acctsync(['sync'])).code).toBe(0);
    await account.write('account/network.yaml', 'version: 1\nscope: guarded\n');
    const plan = await account.acctsync(['plan', '--output', 'markdown', '--detailed-exitcode']);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain('**sync would refuse this:** the config is empty but 2 objects');
    expect((await account.acctsync(['sync'])).code).toBe(1);

    await account.write('account/network.yaml', 'version: 1\nscope: guarded\nguards:\n  allow_empty: true\n');
    expect((await account.acctsync(['plan', '--detailed-exitcode'])).code).toBe(2);
    expect((await account.acctsync(['sync'])).code).toBe(0);
  });

  it('the JSON plan carries the refusal, printed and saved alike, and valid against the schema', async () => {
    await using account = await startCliAccount();
    await account.write('account/network.yaml', policies(12));
    expect((await account.acctsync(['sync'])).code).toBe(0);
    await account.write('account/network.yaml', policies(4));

    const run = await account.acctsync([
      'plan',
      '--output',
      'json',
      '--out',
      'plan.json',
      '--detailed-exitcode',
    ]);
    expect(run.code, run.stderr).toBe(1);
    const printed = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(validatePlan(printed), JSON.stringify(validatePlan.errors)).toBe(true);
    expect(printed.syncRefusal).toEqual({
      guard: 'mass_delete',
      reason: 'the plan deletes or replaces 8 of 12 managed objects (67%, the limit is 30%)',
      details: [
        'Objects that would be deleted:',
        // Listed in the plan's order: by key.
        ...[10, 11, 4, 5, 6, 7, 8, 9].map(
          (n): unknown =>
            expect.stringMatching(new RegExp(`^  - ip_policies/p${n} \\(ipp_\\w+\\)$`)) as unknown,
        ),
      ],
      howToProceed: expect.stringContaining(
        "raise 'guards: { max_delete_percent: 67 }' in the config, reviewed with this change",
      ) as unknown,
    });
    const saved = JSON.parse(await readFile(join(account.dir, 'plan.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(saved.syncRefusal).toEqual(printed.syncRefusal);

    await account.write('account/network.yaml', 'version: 1\nscope: guarded\n');
    const empty = await account.acctsync(['sync', '--dry-run', '--output', 'json']);
    expect(empty.code, empty.stderr).toBe(0);
    const emptyPlan = JSON.parse(empty.stdout) as { syncRefusal?: { guard: string; reason: string } };
    expect(validatePlan(emptyPlan), JSON.stringify(validatePlan.errors)).toBe(true);
    expect(emptyPlan.syncRefusal).toMatchObject({
      guard: 'empty_config',
      reason: "the config is empty but 12 objects in scope 'guarded' are managed by it",
    });

    await account.write('account/network.yaml', policies(4, 'guards:\n  max_delete_percent: 70\n'));
    const allowed = await account.acctsync(['plan', '--output', 'json', '--detailed-exitcode']);
    expect(allowed.code, allowed.stderr).toBe(2);
    expect(JSON.parse(allowed.stdout)).not.toHaveProperty('syncRefusal');
  });

  it('a guards setting out of range is a config error at its line', async () => {
    await using account = await startCliAccount();
    await account.write('account/network.yaml', policies(1, 'guards:\n  max_delete_percent: 150\n'));
    const run = await account.acctsync(['validate']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /account\/network\.yaml:7:\d+: error: must be between 0 and 100.*guards\.max_delete_percent/,
    );
  });
});
