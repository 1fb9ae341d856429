/**
 * Test support for the planner: the suites' account options and a deliberately naive
 * executor of plans (sequential, no retries) used to seed the emulator through the API and to check
 * that a plan, once applied, leaves nothing to do. The real applier lives in `src/apply/`.
 */
import type { ApiClient } from '../../src/api/index.js';
import {
  descriptorOf,
  isObjectKey,
  mapReferences,
  toRequestBody,
  type DesiredObject,
  type DesiredState,
  type KindDescriptor,
} from '../../src/resources/index.js';
import type { Plan } from '../../src/plan/index.js';
import { loadDesiredState } from '../../src/config/index.js';
import type { AccountOptions } from '../support/account.js';

/** The desired state of `examples/account`, loaded as the CLI would (no environment needed). */
export async function loadExamples(): Promise<DesiredState> {
  const loaded = await loadDesiredState(['examples/account'], { env: {} });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics, null, 2));
  return loaded.state;
}

/**
 * The plan suites' account: their client never retries, so the requests a plan makes are exactly
 * the ones counted.
 */
export const planAccount: AccountOptions = { client: { retry: { attempts: 1 } } };

function itemPath(d: KindDescriptor, id: string, parentId: string | undefined): string {
  return `${d.path.replace(/\{[a-z_]+\}/, parentId ?? '')}/${id}`;
}

/** Executes `plan` against the API one operation at a time; returns the ids by key afterwards. */
export async function applyPlan(
  client: ApiClient,
  plan: Plan,
  desired: DesiredState,
): Promise<Map<string, string>> {
  const ids = new Map(Object.entries(plan.resolvedIds));
  const byKey = new Map<string, DesiredObject>(desired.objects.map((o) => [o.key, o]));
  const resolve = (ref: string) => (isObjectKey(ref) ? (ids.get(ref) ?? ref) : ref);
  const parentOf = (o: DesiredObject | undefined) =>
    o?.parentKey === undefined ? undefined : resolve(o.parentKey);
  for (const op of plan.operations) {
    const d = descriptorOf(op.kind);
    const o = byKey.get(op.key);
    if (op.action === 'delete') {
      await client.request('DELETE', itemPath(d, op.liveId ?? '', op.liveParentId));
      continue;
    }
    if (o === undefined) throw new Error(`no desired object ${op.key}`);
    const values = mapReferences(d.fields, { ...o.fields }, (ref) => resolve(ref));
    if (op.metadata !== undefined) values.metadata = op.metadata;
    if (op.action === 'create') {
      const createValues = Object.fromEntries(
        Object.entries(values).filter(([name]) => d.fields[name]?.write !== 'update-only'),
      );
      const later = Object.fromEntries(
        Object.entries(values).filter(([name]) => d.fields[name]?.write === 'update-only'),
      );
      const parentId = parentOf(o);
      const collection = d.path.replace(/\{[a-z_]+\}/, parentId ?? '');
      const created = await client.request<{ id: string }>('POST', collection, {
        body: toRequestBody(d.fields, createValues),
      });
      ids.set(op.key, created.body.id);
      if (Object.keys(later).length > 0) {
        await client.request('PATCH', `${collection}/${created.body.id}`, {
          body: toRequestBody(d.fields, later),
        });
      }
      continue;
    }
    const path = itemPath(d, op.liveId ?? '', op.liveParentId);
    const moduleNames = new Set((op.modules ?? []).map((m) => m.name));
    for (const m of op.modules ?? []) {
      const f = d.fields[m.name];
      if (f?.type.type !== 'module') continue;
      const modulePath = `${path}/${f.type.module.name}`;
      if (m.action === 'delete') await client.request('DELETE', modulePath);
      else
        await client.request('PUT', modulePath, {
          body: toRequestBody(f.type.module.fields, values[m.name] as Record<string, unknown>),
        });
    }
    const patch: Record<string, unknown> = {};
    for (const c of op.changes) {
      const name = String(c.path[0]);
      if (!moduleNames.has(name)) patch[name] = values[name] ?? d.fields[name]?.default ?? null;
    }
    if (op.metadata !== undefined) patch.metadata = op.metadata;
    if (Object.keys(patch).length > 0) {
      await client.request('PATCH', path, { body: toRequestBody(d.fields, patch) });
    }
  }
  return ids;
}
