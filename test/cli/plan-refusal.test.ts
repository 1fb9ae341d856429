/**
 * A plan that sync would refuse is red before the merge: `plan --detailed-exitcode` exits 1 and
 * its text and markdown say why and how to proceed; the config's reviewed `guards:` is the way
 * through, for plan and sync alike, with no --force in a workflow.
 */
import { describe, expect, it } from 'vitest';
import { startCliAccount } from '../safety/support.js';

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
