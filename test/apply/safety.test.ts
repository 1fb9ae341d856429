/**
 * What must hold before and around the first write: the guards refuse without a single request,
 * tokens go only to the token file (0600), and a failure stops the run and says what was left.
 */
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPlan, fileTokenSink } from '../../src/apply/index.js';
import { UserError } from '../../src/errors.js';
import { planFor } from '../../src/pipeline/index.js';
import type { DesiredState } from '../../src/resources/index.js';
import { examplesState, startHarness, syncState, type Harness } from './harness.js';

describe('guards', () => {
  let h: Harness;
  let base: DesiredState;
  beforeEach(async () => {
    h = await startHarness();
    base = await examplesState();
    await syncState(h, base);
  });
  afterEach(async () => {
    await h.close();
  });

  async function refusal(desired: DesiredState): Promise<UserError> {
    const before = h.writes().length;
    const error = await syncState(h, desired).then(
      () => undefined,
      (err: unknown) => err,
    );
    // Not a single write: the guard judges the plan before the first.
    expect(h.writes().length).toBe(before);
    expect(error).toBeInstanceOf(UserError);
    return error as UserError;
  }

  it('refuses an empty config while managed objects exist', async () => {
    const err = await refusal({ ...base, objects: [] });
    expect(err.message).toMatch(
      /^refusing to sync: the config is empty but \d+ objects in scope 'example' are managed by it$/,
    );
    expect(err.details.join('\n')).toContain('--force');
  });

  /** 13 of the 31 managed objects gone (42%), none of them inside an edge. */
  const removedKinds = new Set([
    'event_subscriptions',
    'event_destinations',
    'ip_restrictions',
    'reserved_addrs',
    'reserved_domains',
    'agent_ingresses',
    'tls_certificates',
    'api_keys',
    'credentials',
    'ssh_credentials',
  ]);
  const shrunk = (): DesiredState => ({
    ...base,
    objects: base.objects.filter((o) => !removedKinds.has(o.kind)),
  });

  it('refuses to delete more than 30% of the managed objects, listing them', async () => {
    const err = await refusal(shrunk());
    expect(err.message).toBe(
      'refusing to sync: the plan deletes or replaces 13 of 31 managed objects (42%, the limit is 30%)',
    );
    expect(err.details).toContainEqual(expect.stringMatching(/^ {2}- api_keys\/ci-deploy \(ak_\w+\)$/));
    expect(err.details.at(-1)).toMatch(
      /guards: \{ max_delete_percent: \d+ \}.*--max-delete-percent or --force.*--no-delete/,
    );
  });

  it('lets a refused plan through with --force or a higher threshold', async () => {
    const desired = shrunk();
    const { result } = await syncState(h, desired, { guards: { maxDeletePercent: 50 } });
    expect(result.status).toBe('succeeded');
    expect((await planFor(desired, h.client)).plan.operations).toEqual([]);
  });

  it('lets --force through, and applies the percentage only from the minimum of managed objects', async () => {
    const desired = shrunk();
    const { result: forced } = await syncState(h, desired, {
      guards: { force: true },
      continueOnError: true,
    });
    expect(forced.counts.done).toBe(13);
    const other = await startHarness();
    try {
      await syncState(other, base);
      const { result } = await syncState(other, desired, { guards: { maxDeleteMinManaged: 32 } });
      expect(result.status).toBe('succeeded');
    } finally {
      await other.close();
    }
  });
});

describe('tokens and failures', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('writes created tokens to the token file only, mode 0600, one entry per key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'acctsync-tokens-'));
    const file = join(dir, 'tokens.json');
    const desired = await examplesState();
    const { plan } = await planFor(desired, h.client);
    const result = await applyPlan(plan, desired, h.client, { tokens: await fileTokenSink(file) });
    expect(result.tokensSaved.toSorted()).toEqual(['api_keys/ci-deploy', 'credentials/web-agents']);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(file, 'utf8')) as Record<string, { token: string }>;
    expect(Object.keys(saved).toSorted()).toEqual(['api_keys/ci-deploy', 'credentials/web-agents']);
    expect(saved['api_keys/ci-deploy']).toMatchObject({
      kind: 'api_keys',
      id: expect.stringMatching(/^ak_/) as unknown,
      token: expect.any(String) as unknown,
    });
    const token = saved['api_keys/ci-deploy']?.token ?? '';
    // The token is real: it authenticates against the API...
    const res = await fetch(`${h.emulator.url}/ip_policies`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    // ...and appears nowhere in the result.
    expect(JSON.stringify(result)).not.toContain(token);
  });

  it('stops at the first failure, reports the API error and what was not attempted', async () => {
    const desired = await examplesState();
    const publicKey = desired.objects.find((o) => o.key === 'ssh_credentials/ops-laptop')?.fields.public_key;
    // The same public key registered by hand (not managed, not adopted): the emulator refuses the
    // create with 409 (609), mid-run.
    const registerByHand = (on: Harness) => on.client.post('/ssh_credentials', { public_key: publicKey });
    await registerByHand(h);
    const { plan } = await planFor(desired, h.client, { noDelete: true });
    const result = await applyPlan(plan, desired, h.client, { parallelism: 1 });
    expect(result.status).toBe('failed');
    expect(result.operations.filter((r) => r.status === 'failed')).toEqual([
      expect.objectContaining({
        key: 'ssh_credentials/ops-laptop',
        failure: expect.objectContaining({ errorCode: 'ERR_SVC_609', status: 409 }) as unknown,
      }),
    ]);
    expect(result.counts.notAttempted).toBeGreaterThan(0);

    // The same run with --continue-on-error, on a fresh account: only the failed create is missing.
    const other = await startHarness();
    try {
      await registerByHand(other);
      const again = await planFor(desired, other.client, { noDelete: true });
      const more = await applyPlan(again.plan, desired, other.client, {
        parallelism: 1,
        continueOnError: true,
      });
      expect(more.counts).toEqual({ done: again.plan.operations.length - 1, failed: 1, notAttempted: 0 });
    } finally {
      await other.close();
    }
  });
});
