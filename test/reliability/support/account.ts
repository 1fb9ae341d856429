/**
 * Looking at an emulator's whole account over HTTP: every collection listed, managed objects by
 * their ownership marker, natural keys, and an in-process `sync` (plan + apply).
 */
import type { ApiClient } from '../../../src/api/index.js';
import { applyPlan } from '../../../src/apply/index.js';
import { parseMetadata } from '../../../src/plan/index.js';
import { computePlan } from '../../../src/pipeline/index.js';
import { builtinKinds, managedDescriptors, type KindDescriptor } from '../../../src/resources/index.js';

export type Json = Record<string, unknown>;

/** Collections with a top-level list endpoint. */
export const listable: readonly KindDescriptor[] = builtinKinds.all.filter(
  (d) => d.operations.list && d.listMember !== undefined && !d.path.includes('{'),
);

/** Every record of every listable collection, embedded children (routes) included, by kind. */
export async function listEverything(client: ApiClient): Promise<Map<string, Json[]>> {
  const out = new Map<string, Json[]>();
  const add = (kind: string, record: Json): void => {
    const list = out.get(kind) ?? [];
    list.push(record);
    out.set(kind, list);
  };
  for (const d of listable) {
    out.set(d.kind, out.get(d.kind) ?? []);
    for (const record of await client.listAll<Json>(d.path, d.listMember ?? '')) {
      add(d.kind, record);
      for (const child of managedDescriptors()) {
        const embedded = child.parent?.embeddedAs;
        if (child.parent?.kind === d.kind && embedded !== undefined && Array.isArray(record[embedded])) {
          for (const c of record[embedded] as Json[]) add(child.kind, c);
        }
      }
    }
  }
  return out;
}

export interface AccountCheck {
  /** Marker keys (of `scope`) carried by more than one live object. */
  readonly duplicateMarkers: string[];
  /** Natural keys (kind, parent, values) carried by more than one live object. */
  readonly duplicateNaturalKeys: string[];
  /** Marker key → live id, for the objects of `scope`. */
  readonly managed: Map<string, string>;
  /** Every live id. */
  readonly ids: Set<string>;
}

/** Lists the account and finds duplicates, by marker and by natural key. */
export async function checkAccount(client: ApiClient, scope: string): Promise<AccountCheck> {
  const all = await listEverything(client);
  const markers = new Map<string, string[]>();
  const natural = new Map<string, number>();
  const ids = new Set<string>();
  for (const [kind, records] of all) {
    const d = builtinKinds.all.find((x) => x.kind === kind);
    for (const record of records) {
      if (typeof record.id === 'string') ids.add(record.id);
      const marker = parseMetadata(typeof record.metadata === 'string' ? record.metadata : undefined).marker;
      if (marker?.scope === scope)
        markers.set(marker.key, [...(markers.get(marker.key) ?? []), String(record.id)]);
      if (d?.naturalKey !== undefined) {
        const parent =
          d.naturalKey.perParent === true && d.parent ? JSON.stringify(record[d.parent.field]) : '';
        const values = d.naturalKey.fields.map((f) => JSON.stringify(record[f] ?? null)).join('|');
        const key = `${kind} ${parent} ${values}`;
        natural.set(key, (natural.get(key) ?? 0) + 1);
      }
    }
  }
  return {
    duplicateMarkers: [...markers]
      .filter(([, list]) => list.length > 1)
      .map(([k, list]) => `${k}: ${list.join(', ')}`),
    duplicateNaturalKeys: [...natural].filter(([, n]) => n > 1).map(([k, n]) => `${k} x${n}`),
    managed: new Map([...markers].map(([k, list]) => [k, list[0] ?? ''])),
    ids,
  };
}

/** A thrown value as one line. */
export function describeError(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : JSON.stringify(err);
}

/** Plans `paths` and applies the plan once; a thrown error (API, network) is returned, not thrown. */
export async function syncOnce(
  client: ApiClient,
  paths: readonly string[],
): Promise<{ status: 'succeeded' | 'failed' | 'error'; error?: unknown; operations: number }> {
  try {
    const { plan, desired } = await computePlan({ paths, client, env: {} });
    const result = await applyPlan(plan, desired, client, { parallelism: 4 });
    return { status: result.status, operations: plan.operations.length };
  } catch (error) {
    return { status: 'error', error, operations: -1 };
  }
}

/** The number of operations a fresh plan of `paths` has (0: converged). */
export async function pendingOperations(client: ApiClient, paths: readonly string[]): Promise<number> {
  const { plan } = await computePlan({ paths, client, env: {} });
  return plan.operations.length;
}

/**
 * Syncs through `faulty` at most `maxRuns` times, checking with `clean` after each run whether the
 * account equals the config. Resolves with the runs it took, or `undefined` if it never converged.
 */
export async function syncUntilConverged(
  faulty: ApiClient,
  clean: ApiClient,
  paths: readonly string[],
  maxRuns = 3,
  hooks: { faultsOn?: (run: number) => void; faultsOff?: () => void } = {},
): Promise<{ runs: number | undefined; log: string[] }> {
  const log: string[] = [];
  for (let run = 1; run <= maxRuns; run++) {
    hooks.faultsOn?.(run);
    const outcome = await syncOnce(faulty, paths);
    hooks.faultsOff?.();
    const pending = await pendingOperations(clean, paths);
    log.push(
      `run ${run}: ${outcome.status}${outcome.error === undefined ? '' : ` (${describeError(outcome.error)})`}, ${pending} pending`,
    );
    if (pending === 0) return { runs: run, log };
  }
  return { runs: undefined, log };
}
