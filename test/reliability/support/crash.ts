/**
 * Crash scenarios shared by the fast and soak suites: a `sync` process SIGKILLed in the middle of an
 * apply, and `acctsync serve --data FILE` SIGKILLed in the middle of writes.
 */
import { spawn } from 'node:child_process';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { loadSnapshot, type Snapshot } from '../../../src/emulator/persistence.js';
import { apiEnv, startAccount } from '../../support/account.js';
import { checkAccount, pendingOperations, syncOnce } from './account.js';
import { childEnv, cliPath, collect, startServe } from '../../support/cli.js';
import { examplesAccount } from './faults.js';
import type { Rng } from './prng.js';
import { startProxy } from './proxy.js';

export interface KillSyncOutcome {
  readonly label: string;
  readonly killed: boolean;
  /** How the process ended, with the end of its output, when it was not killed. */
  readonly exit: string;
  /** Writes the killed process had sent. */
  readonly writesBeforeKill: number;
  readonly rerunStatus: string;
  readonly pendingAfterRerun: number;
  readonly duplicateMarkers: string[];
  readonly duplicateNaturalKeys: string[];
}

/**
 * Spawns `acctsync sync examples/account` against an in-process emulator (through a pass-through
 * proxy that counts writes) and SIGKILLs it at the `killAt`-th write: before the write reaches the
 * emulator, or after the emulator committed it but before the answer arrives. Then one in-process
 * re-run must converge.
 */
export async function killSyncTrial(rng: Rng): Promise<KillSyncOutcome> {
  const account = await startAccount();
  const { emulator, client: clean } = account;
  const cwd = await mkdtemp(join(tmpdir(), 'acctsync-kill-'));
  // examples/ from empty is 31 writes; stay below so the kill lands inside the apply.
  const killAt = 1 + rng.int(28);
  const afterCommit = rng.chance(0.5);
  let writes = 0;
  /** The proxy's number of the request at which to kill. */
  let killSeq = -1;
  let kill: () => void = () => undefined;
  const proxy = await startProxy({
    upstream: emulator.url,
    rng,
    faults: {},
    onRequest: (method, _path, seq) => {
      if (method === 'GET') return;
      writes++;
      if (writes === killAt) killSeq = seq;
      if (writes === killAt && !afterCommit) kill();
    },
    onUpstreamResponse: (_method, _path, seq) => {
      if (seq === killSeq && afterCommit) kill();
    },
  });
  const label = `kill at write ${killAt} ${afterCommit ? 'after the commit' : 'before it reached the server'}`;
  try {
    const child = spawn(
      process.execPath,
      [cliPath, 'sync', examplesAccount, '--parallelism', String(1 + rng.int(4))],
      {
        cwd,
        env: childEnv(apiEnv({ url: proxy.url, token: account.token })),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let writesBeforeKill = 0;
    kill = () => {
      writesBeforeKill = writes;
      child.kill('SIGKILL');
    };
    const result = await collect(child, 60_000);
    const rerun = await syncOnce(clean, [examplesAccount]);
    const pendingAfterRerun = await pendingOperations(clean, [examplesAccount]);
    const check = await checkAccount(clean, 'example');
    return {
      label,
      killed: result.signal === 'SIGKILL',
      exit: `code ${result.code} signal ${result.signal} writes ${writes}: ${(result.stdout + result.stderr).slice(-1500)}`,
      writesBeforeKill,
      rerunStatus: rerun.status,
      pendingAfterRerun,
      duplicateMarkers: check.duplicateMarkers,
      duplicateNaturalKeys: check.duplicateNaturalKeys,
    };
  } finally {
    await account.close();
    await proxy.close();
    await rm(cwd, { recursive: true, force: true });
  }
}

export interface KillServeOutcome {
  readonly label: string;
  /** Creates the server acknowledged before it was killed. */
  readonly acknowledged: number;
  /** Why the data file did not load, if it did not. */
  readonly loadError: string | undefined;
  /** IP policies in the reloaded state. */
  readonly reloaded: number;
}

/**
 * Starts `acctsync serve --data FILE`, keeps it busy with creates, updates and deletes from several
 * concurrent writers, SIGKILLs it at a random moment, and loads the data file.
 */
export async function killServeTrial(rng: Rng): Promise<KillServeOutcome> {
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-serve-kill-'));
  const file = join(dir, 'state.json');
  const token = 'serve-kill-token';
  const serve = await startServe(['--token', token, '--data', file], dir);
  const afterMs = 50 + rng.int(600);
  let acknowledged = 0;
  let stop = false;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const writer = async (n: number): Promise<void> => {
    for (let i = 0; !stop; i++) {
      try {
        const res = await fetch(`${serve.url}/ip_policies`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ description: `writer ${n} #${i} ${'x'.repeat(rng.int(200))}` }),
        });
        if (res.status !== 201) continue;
        acknowledged++;
        const { id } = (await res.json()) as { id: string };
        await fetch(`${serve.url}/ip_policies/${id}`, {
          method: 'PATCH',
          headers,
          body: '{"description":"patched"}',
        });
        if (i % 3 === 0) await fetch(`${serve.url}/ip_policies/${id}`, { method: 'DELETE', headers });
      } catch {
        return; // the server is gone
      }
    }
  };
  try {
    // The first save happens at start: the file must exist before the kill for "always loads" to mean anything.
    for (let i = 0; i < 100; i++) {
      if (
        await access(file).then(
          () => true,
          () => false,
        )
      )
        break;
      await delay(20);
    }
    const writers = [1, 2, 3, 4].map((n) => writer(n));
    await delay(afterMs);
    await serve.stop('SIGKILL');
    stop = true;
    await Promise.all(writers);
    let loadError: string | undefined;
    let reloaded = 0;
    let state: Snapshot | undefined;
    try {
      state = await loadSnapshot(file);
      if (state === undefined) loadError = 'the data file does not exist';
      // And the emulator starts from it (restore checks every record's kind).
      await using again = await startAccount({ token, dataFile: file });
      reloaded = (await again.client.listAll('/ip_policies', 'ip_policies')).length;
    } catch (err) {
      loadError = err instanceof Error ? err.message : String(err);
    }
    return { label: `killed after ${afterMs} ms`, acknowledged, loadError, reloaded };
  } finally {
    await serve.stop('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}
