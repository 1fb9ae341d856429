/**
 * The desired state as the evaluator reads it: each TLS edge's modules and inbound rules (with the
 * file:line each rule is written at), and each IP policy's rules, referenced by key
 * (`ip_policies/office`) and, for a policy pinned with `id:`, by that id too (what a restrict-ips
 * action names).
 */
import { resolve } from 'node:path';
import { locate, readSource, type SourceFile } from '../config/index.js';
import { newObjectPin, type DesiredObject, type DesiredState } from '../resources/index.js';
import { trafficEdgeOf } from './edge-fields.js';
import type { TrafficEdge, TrafficIpPolicy, TrafficLocation } from './model.js';

interface TrafficModel {
  /** By key: `tls_edges/db`. */
  readonly edges: ReadonlyMap<string, TrafficEdge>;
  readonly ipPolicies: ReadonlyMap<string, TrafficIpPolicy>;
}

/** The value at `path` of a parsed document, when it is written there. */
function written(doc: unknown, path: readonly (string | number)[]): boolean {
  let at: unknown = doc;
  for (const seg of path) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, seg)) return false;
    at = (at as Record<string | number, unknown>)[seg];
  }
  return true;
}

/** Where the edge's `inbound[i]` is written: in the edge's own file, else the edge's entry. */
function ruleLocation(edge: DesiredObject, file: SourceFile | undefined, index: number): TrafficLocation {
  const path = [edge.kind, edge.name, 'policy', 'inbound', index];
  if (file === undefined || !written(file.value, path)) return edge.source;
  return { file: edge.source.file, ...locate(file, path) };
}

function edgeOf(edge: DesiredObject, file: SourceFile | undefined): TrafficEdge {
  return trafficEdgeOf(edge.key, edge.fields, {
    ipPolicies: (refs) => refs.filter((p): p is string => typeof p === 'string'),
    restriction: edge.source,
    rule: (i) => ruleLocation(edge, file, i),
  });
}

/** The TLS edges and IP policies of `state`; rule locations are read from the files under `cwd`. */
export async function desiredTrafficModel(state: DesiredState, cwd = process.cwd()): Promise<TrafficModel> {
  const files = new Map<string, SourceFile | undefined>();
  const fileOf = async (name: string): Promise<SourceFile | undefined> => {
    if (!files.has(name)) {
      const read = await readSource(name, resolve(cwd, name));
      files.set(name, read.ok ? read.source : undefined);
    }
    return files.get(name);
  };
  const edges = new Map<string, TrafficEdge>();
  for (const o of state.objects.filter((x) => x.kind === 'tls_edges'))
    edges.set(o.key, edgeOf(o, await fileOf(o.source.file)));
  const ipPolicies = new Map<string, TrafficIpPolicy>();
  for (const p of state.objects.filter((x) => x.kind === 'ip_policies')) {
    const rules = state.objects
      .filter((r) => r.kind === 'ip_policy_rules' && r.parentKey === p.key)
      .flatMap((r) => {
        const { cidr, action } = r.fields;
        if (typeof cidr !== 'string' || (action !== 'allow' && action !== 'deny')) return [];
        return [{ cidr, action, location: r.source }] as const;
      });
    const policy: TrafficIpPolicy = { name: p.name, rules };
    ipPolicies.set(p.key, policy);
    if (p.pin !== undefined && p.pin !== newObjectPin) ipPolicies.set(p.pin, policy);
  }
  return { edges, ipPolicies };
}
