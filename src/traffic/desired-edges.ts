/**
 * The desired state as the evaluator reads it: each TLS edge's modules and inbound rules (with the
 * file:line each rule is written at), and each IP policy's rules, referenced by key
 * (`ip_policies/office`) and, for a policy pinned with `id:`, by that id too (what a restrict-ips
 * action names).
 */
import { resolve } from 'node:path';
import { locate, readSource, type SourceFile } from '../config/index.js';
import { isPlainObject } from '../plain-object.js';
import { newObjectPin, type DesiredObject, type DesiredState } from '../resources/index.js';
import type { TrafficAction, TrafficEdge, TrafficIpPolicy, TrafficLocation, TrafficRule } from './model.js';

interface TrafficModel {
  /** By key: `tls_edges/db`. */
  readonly edges: ReadonlyMap<string, TrafficEdge>;
  readonly ipPolicies: ReadonlyMap<string, TrafficIpPolicy>;
}

function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return isPlainObject(value) ? value : undefined;
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

function inboundRules(edge: DesiredObject, file: SourceFile | undefined): TrafficRule[] {
  const inbound = record(edge.fields.policy)?.inbound;
  if (!Array.isArray(inbound)) return [];
  return inbound.map((raw, i): TrafficRule => {
    const rule = record(raw) ?? {};
    const name = typeof rule.name === 'string' && rule.name !== '' ? rule.name : `inbound[${i}]`;
    const actions = (Array.isArray(rule.actions) ? rule.actions : []).flatMap((a): TrafficAction[] => {
      const action = record(a);
      if (action === undefined || typeof action.type !== 'string') return [];
      const config = record(action.config);
      return [{ type: action.type, ...(config === undefined ? {} : { config }) }];
    });
    const expressions = Array.isArray(rule.expressions)
      ? rule.expressions.filter((e): e is string => typeof e === 'string')
      : [];
    return { name, expressions, actions, location: ruleLocation(edge, file, i) };
  });
}

function edgeOf(edge: DesiredObject, file: SourceFile | undefined): TrafficEdge {
  const { fields } = edge;
  const ipRestriction = record(fields.ip_restriction);
  const mutualTls = record(fields.mutual_tls);
  const policy = record(fields.policy);
  return {
    key: edge.key,
    hostports: Array.isArray(fields.hostports) ? fields.hostports.filter((h) => typeof h === 'string') : [],
    ...(ipRestriction === undefined
      ? {}
      : {
          ipRestriction: {
            enabled: ipRestriction.enabled !== false,
            ipPolicies: Array.isArray(ipRestriction.ip_policies)
              ? ipRestriction.ip_policies.filter((p): p is string => typeof p === 'string')
              : [],
            location: edge.source,
          },
        }),
    ...(mutualTls === undefined ? {} : { mutualTls: { enabled: mutualTls.enabled !== false } }),
    ...(policy === undefined
      ? {}
      : { policy: { enabled: policy.enabled !== false, inbound: inboundRules(edge, file) } }),
  };
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
