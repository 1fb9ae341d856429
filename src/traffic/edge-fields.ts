/**
 * A TLS edge's modules as the evaluator reads them, from the edge's fields: as the config writes
 * them (`desired-edges.ts`) or as the service answers them (a plan's live side). The two shapes
 * agree but for references to IP policies (keys or ids, or `Ref`s), which the caller reads, and
 * where each rule is written, which only the config knows.
 */
import { isPlainObject } from '../plain-object.js';
import type { TrafficAction, TrafficEdge, TrafficLocation, TrafficRule } from './model.js';

interface EdgeReading {
  /** The IP policies `ip_restriction.ip_policies` names, as the evaluation's context knows them. */
  readonly ipPolicies: (refs: readonly unknown[]) => string[];
  /** Where the IP restriction module is written. */
  readonly restriction?: TrafficLocation;
  /** Where `policy.inbound[i]` is written. */
  readonly rule?: (index: number) => TrafficLocation;
}

function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return isPlainObject(value) ? value : undefined;
}

function listOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function strings(value: unknown): string[] {
  return listOf(value).filter((v): v is string => typeof v === 'string');
}

function inboundRules(policy: Readonly<Record<string, unknown>>, reading: EdgeReading): TrafficRule[] {
  return listOf(policy.inbound).map((raw, i): TrafficRule => {
    const rule = record(raw) ?? {};
    const name = typeof rule.name === 'string' && rule.name !== '' ? rule.name : `inbound[${i}]`;
    const actions = listOf(rule.actions).flatMap((a): TrafficAction[] => {
      const action = record(a);
      if (action === undefined || typeof action.type !== 'string') return [];
      const config = record(action.config);
      return [{ type: action.type, ...(config === undefined ? {} : { config }) }];
    });
    const location = reading.rule?.(i);
    return {
      name,
      expressions: strings(rule.expressions),
      actions,
      ...(location === undefined ? {} : { location }),
    };
  });
}

/** The edge `key` with `fields`. */
export function trafficEdgeOf(
  key: string,
  fields: Readonly<Record<string, unknown>>,
  reading: EdgeReading,
): TrafficEdge {
  const ipRestriction = record(fields.ip_restriction);
  const mutualTls = record(fields.mutual_tls);
  const policy = record(fields.policy);
  const { restriction } = reading;
  return {
    key,
    hostports: strings(fields.hostports),
    ...(ipRestriction === undefined
      ? {}
      : {
          ipRestriction: {
            enabled: ipRestriction.enabled !== false,
            ipPolicies: reading.ipPolicies(listOf(ipRestriction.ip_policies)),
            ...(restriction === undefined ? {} : { location: restriction }),
          },
        }),
    ...(mutualTls === undefined ? {} : { mutualTls: { enabled: mutualTls.enabled !== false } }),
    ...(policy === undefined
      ? {}
      : { policy: { enabled: policy.enabled !== false, inbound: inboundRules(policy, reading) } }),
  };
}
