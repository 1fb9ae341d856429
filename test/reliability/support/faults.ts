/**
 * The fault-injection scenario shared by the fast suite and the soak suite: sync `examples/` through
 * a faulty API and check that it converges within 3 runs, with no duplicate and nothing lost.
 */
import { join } from 'node:path';
import { loadDesiredState } from '../../../src/config/index.js';
import type { FaultOptions } from '../../../src/emulator/index.js';
import { startAccount } from '../../support/account.js';
import { checkAccount, describeError, syncOnce, syncUntilConverged } from './account.js';
import { examplesDir } from '../../support/cli.js';
import type { Rng } from './prng.js';
import { startProxy, type ProxyFault } from './proxy.js';

export const examplesAccount = join(examplesDir, 'account');

export interface FaultCase {
  readonly name: string;
  readonly emulator?: FaultOptions;
  readonly proxy?: Partial<Record<ProxyFault, number>>;
}

/** One case per fault kind at 20%, plus mixes. */
export const faultCases: readonly FaultCase[] = [
  { name: 'emulator 500 at 20%', emulator: { error500: 0.2 } },
  { name: 'emulator 503 (Retry-After) at 20%', emulator: { error503: 0.2 } },
  { name: 'emulator 429 (Retry-After) at 20%', emulator: { error429: 0.2 } },
  { name: 'emulator latency 40 ms', emulator: { latencyMs: 40 } },
  { name: 'emulator drops the connection after a committed write at 20%', emulator: { dropAfterWrite: 0.2 } },
  {
    name: 'emulator mix of every fault',
    emulator: { error500: 0.07, error503: 0.07, error429: 0.07, dropAfterWrite: 0.07, latencyMs: 5 },
  },
  {
    name: 'proxy connection reset before the server sees the request at 20%',
    proxy: { 'reset-before': 0.2 },
  },
  { name: 'proxy response lost after the server committed at 20%', proxy: { 'reset-after-commit': 0.2 } },
  { name: 'proxy body cut short at 20%', proxy: { 'truncate-body': 0.2 } },
  { name: 'proxy slow body at 30%', proxy: { 'slow-body': 0.3 } },
  { name: 'proxy latency at 50%', proxy: { latency: 0.5 } },
  {
    name: 'proxy mix of every fault',
    proxy: {
      'reset-before': 0.06,
      'reset-after-commit': 0.06,
      'truncate-body': 0.06,
      'slow-body': 0.06,
      latency: 0.1,
    },
  },
];

export interface FaultOutcome {
  readonly runs: number | undefined;
  readonly log: string[];
  readonly duplicateMarkers: string[];
  readonly duplicateNaturalKeys: string[];
  /** Logical keys of the config missing from the account, and managed keys not in the config. */
  readonly missingKeys: string[];
  readonly extraKeys: string[];
  /** Objects that existed before and must still exist with the same id (managed or not). */
  readonly lost: string[];
  readonly injected: number;
}

async function desiredKeys(): Promise<string[]> {
  const loaded = await loadDesiredState([examplesAccount], { env: {} });
  if (!loaded.ok) throw new Error(`examples do not load: ${JSON.stringify(loaded.diagnostics)}`);
  return loaded.state.objects.map((o) => o.key).sort();
}

/** Scenarios tried per case before concluding that its faults never fire. */
const maxScenarios = 3;

/**
 * Runs one case: part of the examples is synced cleanly first and an unmanaged object is made by
 * hand; then the whole examples directory is synced through the faults. A sync makes only a few
 * dozen requests (about 18 writes), so a 20% fault misses all of them now and then (0.8^18 is 2%);
 * such a scenario proves nothing, and the case is run again with the next dice, up to
 * `maxScenarios` times. A fault that never fires in any of them is a failure of the case.
 */
export async function runFaultCase(c: FaultCase, rng: Rng): Promise<FaultOutcome> {
  const log: string[] = [];
  for (let scenario = 1; ; scenario++) {
    const outcome = await runFaultScenario(c, rng);
    log.push(...outcome.log.map((line) => (scenario === 1 ? line : `scenario ${scenario}: ${line}`)));
    if (outcome.injected > 0 || scenario === maxScenarios) return { ...outcome, log };
    log.push(`scenario ${scenario}: no fault fired; again with the next dice`);
  }
}

async function runFaultScenario(c: FaultCase, rng: Rng): Promise<FaultOutcome> {
  const account = await startAccount();
  const { emulator, client: clean } = account;
  const proxy =
    c.proxy === undefined ? undefined : await startProxy({ upstream: emulator.url, rng, faults: c.proxy });
  const faulty = account.newClient({ baseUrl: proxy?.url ?? emulator.url, timeoutMs: 3_000 });
  try {
    // Before: a part of the config already managed, and an object acctsync does not manage.
    const first = await syncOnce(clean, [
      join(examplesAccount, 'network.yaml'),
      join(examplesAccount, 'backends.yaml'),
    ]);
    if (first.status !== 'succeeded')
      throw new Error(`the clean partial sync failed: ${describeError(first.error)}`);
    const handMade = await clean.post<{ id: string }>('/ip_policies', { description: 'made by hand' });
    const before = await checkAccount(clean, 'example');
    const mustStay = [...before.managed.values(), handMade.body.id];

    // The emulator's dice come from the case's seed too, so a failure replays exactly. Each run
    // rolls its own dice: the same dice every run would fail every run at the same request.
    const diceSeed = rng.int(2 ** 31);
    const faultsOn = (run: number): void => {
      if (c.emulator) emulator.setFaults({ ...c.emulator, seed: diceSeed + run });
    };
    const faultsOff = (): void => emulator.setFaults({});
    const { runs, log } = await syncUntilConverged(faulty, clean, [examplesAccount], 3, {
      faultsOn,
      faultsOff,
    });
    faultsOff();

    const after = await checkAccount(clean, 'example');
    const keys = await desiredKeys();
    return {
      runs,
      log,
      duplicateMarkers: after.duplicateMarkers,
      duplicateNaturalKeys: after.duplicateNaturalKeys,
      missingKeys: keys.filter((k) => !after.managed.has(k)),
      extraKeys: [...after.managed.keys()].filter((k) => !keys.includes(k)),
      lost: mustStay.filter((id) => !after.ids.has(id)),
      injected:
        [...(proxy?.injected.values() ?? [])].reduce((a, b) => a + b, 0) +
        emulator
          .stats()
          .routes.filter((r) => [500, 503, 429, 'dropped'].includes(r.status))
          .reduce((a, r) => a + r.count, 0),
    };
  } finally {
    await account.close();
    await proxy?.close();
  }
}
