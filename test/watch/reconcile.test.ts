import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeaseLostError } from '../../src/lease/lease.js';
import { useAccount } from '../support/use-account.js';
import { policyFile } from './daemon-harness.js';
import { reconcileStep } from './reconcile-harness.js';

describe('the reconcile step', () => {
  const account = useAccount({}, 'file');
  let dir: string;
  let run: ReturnType<typeof reconcileStep>;
  const file = (): string => join(dir, 'policies.yaml');
  const policyCount = async (): Promise<number> => {
    let n = 0;
    for await (const _ of account.client.list('/ip_policies', 'ip_policies')) n++;
    return n;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'acctsync-step-'));
    run = reconcileStep(account.client, { paths: [dir], cwd: dir });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const twelve = Array.from({ length: 12 }, (_, i) => `policy ${i}`);

  it('applies a config and reports the operations by kind and action', async () => {
    await writeFile(file(), policyFile(...twelve));
    const result = await run();
    expect(result).toMatchObject({ status: 'success', planned: 12 });
    expect(result.applied).toHaveLength(12);
    expect(result.applied[0]).toEqual({ kind: 'ip_policies', key: 'ip_policies/p0', action: 'create' });
    // What the status page shows: the config's objects and the operations in the applier's order.
    expect(result.plan?.objects).toHaveLength(12);
    expect(result.plan?.changes[0]).toEqual({
      id: 'create ip_policies/p0',
      action: 'create',
      kind: 'ip_policies',
      key: 'ip_policies/p0',
      after: [],
    });
    const again = await run();
    expect(again).toMatchObject({ status: 'success', planned: 0, applied: [] });
    expect(again.plan).toMatchObject({ scope: 'watch-test', changes: [] });
  });

  it('refuses a mass delete with the guard of sync, deleting nothing', async () => {
    await writeFile(file(), policyFile(...twelve.slice(0, 6)));
    const result = await run();
    expect(result).toMatchObject({ status: 'refused', planned: 6, applied: [] });
    expect(result.reason).toMatch(/refusing to sync: the plan deletes or replaces 6 of 12 managed objects/);
    expect(await policyCount()).toBe(12);
  });

  it('refuses an empty desired state while objects are managed', async () => {
    await writeFile(file(), 'version: 1\nscope: watch-test\n');
    const result = await run();
    expect(result).toMatchObject({ status: 'refused', applied: [] });
    expect(result.reason).toMatch(/the config is empty but 12 objects/);
    expect(await policyCount()).toBe(12);
  });

  it('changes nothing when the tree fails to load, and says what it keeps', async () => {
    await writeFile(file(), 'version: 1\nip_policies: [\n');
    const result = await run();
    expect(result).toMatchObject({ status: 'invalid_config', planned: 0, applied: [] });
    expect(result.reason).toMatch(
      /nothing was changed, keeping the desired state last applied at .* \(12 objects\)/,
    );
    expect(result.details?.[0]).toMatch(/policies\.yaml:\d+:\d+: error/);
    expect(await policyCount()).toBe(12);
  });

  it('applies nothing once the daemon is stopping', async () => {
    await writeFile(file(), policyFile(...twelve, 'one more'));
    const stopping = new AbortController();
    stopping.abort();
    const result = await run({ signal: stopping.signal });
    // A stop is no failure: nothing to notify, and the next start finishes the work.
    expect(result.status).toBe('stopped');
    expect(result.applied).toEqual([]);
    expect(await policyCount()).toBe(12);
  });

  it("fails with the lease's reason, applying nothing, when the lease is lost while planning", async () => {
    await writeFile(file(), policyFile(...twelve, 'one more'));
    const lease = new AbortController();
    const lost = new LeaseLostError('lost the lease on scope watch-test: someone broke it (acctsync unlock)');
    // Lost as the plan's first answer comes back: the rest of its requests are still to come.
    const client = account.newClient({ onResponse: () => lease.abort(lost) });
    const leased = reconcileStep(
      client,
      { paths: [dir], cwd: dir },
      {
        hold: () =>
          Promise.resolve({
            held: true,
            signal: lease.signal,
            check: () => lease.signal.throwIfAborted(),
            writing: () => Promise.resolve(),
            idle: () => undefined,
          }),
      },
    );
    // A lost lease is a failure, not a stop: it is reported and retried.
    expect(await leased()).toEqual({
      status: 'failed',
      planned: 0,
      applied: [],
      reason: 'lost the lease on scope watch-test: someone broke it (acctsync unlock); nothing was applied',
    });
    expect(await policyCount()).toBe(12);
  });
});
