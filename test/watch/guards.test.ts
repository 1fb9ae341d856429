/**
 * The daemon's guards come from the config's reviewed `guards:`, as `sync`'s do (read again on each
 * reconcile), and `--max-delete-percent`/`--max-delete-min-managed` override them as for `sync`.
 */
import { describe, expect, it, type TestContext } from 'vitest';
import { policyFile, startReady, waitFor, type WatchedDaemon } from './daemon-harness.js';

const twelve = Array.from({ length: 12 }, (_, i) => `policy ${i}`);
const withGuards = (descriptions: readonly string[], guards: string): string =>
  `${policyFile(...descriptions)}guards:\n${guards}`;

describe('watch reads guards: from the config', { timeout: 60_000 }, () => {
  /** A daemon on twelve policies, once its first reconcile has applied them. */
  async function startOnTwelve(context: TestContext, files: Record<string, string>, args: string[] = []) {
    const d = await startReady(context, { files, args });
    expect(await d.policies()).toHaveLength(12);
    return d;
  }

  const lastReconcile = (d: WatchedDaemon) => d.reconciles().at(-1);

  it("applies a deletion the config's guards allow, and an emptied config with allow_empty", async (context) => {
    const d = await startOnTwelve(context, {
      'policies.yaml': withGuards(twelve, '  max_delete_percent: 60\n'),
    });
    // 6 of 12 (50%) is over the default 30% but within the config's 60%.
    await d.writeConfig('policies.yaml', withGuards(twelve.slice(0, 6), '  max_delete_percent: 60\n'));
    await waitFor('the deletes to reach the account', async () => (await d.policies()).length === 6, 20_000);
    await waitFor('the reconcile to be logged', () => d.reconciles().length === 2, 20_000);
    expect(lastReconcile(d)).toMatchObject({ trigger: 'change', status: 'success' });

    await d.writeConfig('policies.yaml', 'version: 1\nscope: watch-test\nguards:\n  allow_empty: true\n');
    await waitFor('the config to empty the account', async () => (await d.policies()).length === 0, 20_000);
  });

  it("refuses with the flag's limit when --max-delete-percent overrides the config's", async (context) => {
    const d = await startOnTwelve(
      context,
      { 'policies.yaml': withGuards(twelve, '  max_delete_percent: 60\n') },
      ['--max-delete-percent', '30'],
    );
    await d.writeConfig('policies.yaml', withGuards(twelve.slice(0, 6), '  max_delete_percent: 60\n'));
    const refused = await waitFor(
      'the reconcile to be refused',
      () => d.reconciles().find((r) => r.status === 'refused'),
      20_000,
    );
    expect(refused.reason).toBe(
      'refusing to sync: the plan deletes or replaces 6 of 12 managed objects (50%, the limit is 30%)',
    );
    expect(await d.policies()).toHaveLength(12);
    expect(d.requests('DELETE', '/ip_policies')).toBe(0);
  });
});
