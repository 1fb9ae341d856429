/**
 * Runs policy rules: `object` rules over each desired object, `change` rules over each planned
 * operation. A rule is broken when its expression is not true (false, another value, or an error
 * while evaluating it, such as a member the object does not have).
 */
import type { Operation, Plan } from '../plan/index.js';
import type { DesiredObject, DesiredState } from '../resources/index.js';
import { celValue } from './environment.js';
import type { PolicyFinding } from '../plan/index.js';
import type { PolicyRule } from './types.js';

/** What a masked secret looks like to a rule. */
const secretMask = '********';

/** The object's fields with every value at a sensitive path masked. */
function masked(o: DesiredObject): Record<string, unknown> {
  const copy = structuredClone(o.fields) as Record<string, unknown>;
  for (const path of o.sensitive) {
    let at: unknown = copy;
    for (const seg of path.slice(0, -1)) at = (at as Record<string | number, unknown> | undefined)?.[seg];
    const last = path.at(-1);
    if (typeof at === 'object' && at !== null && last !== undefined && String(last) in at) {
      (at as Record<string, unknown>)[String(last)] = secretMask;
    }
  }
  return copy;
}

function applies(rule: PolicyRule, kind: string): boolean {
  return rule.kinds === undefined || rule.kinds.includes(kind);
}

/** Why the rule is broken for these variables, or undefined when it holds. */
function brokenBecause(rule: PolicyRule, variables: Readonly<Record<string, unknown>>): string | undefined {
  try {
    const result = rule.evaluate(variables);
    if (result === true) return undefined;
    if (result === false) return rule.message;
    return `${rule.message} (the expression gave ${String(result)}, not true)`;
  } catch (error) {
    const e = error as { summary?: string; message: string };
    return `${rule.message} (the expression failed: ${e.summary ?? e.message})`;
  }
}

/** Findings of the `object` rules over every desired object. */
export function objectFindings(
  rules: readonly PolicyRule[],
  state: DesiredState,
  env: string,
): PolicyFinding[] {
  const out: PolicyFinding[] = [];
  for (const rule of rules.filter((r) => r.on === 'object')) {
    for (const o of state.objects.filter((x) => applies(rule, x.kind))) {
      const variables = { object: celValue(masked(o)), kind: o.kind, name: o.name, env };
      const message = brokenBecause(rule, variables);
      if (message === undefined) continue;
      out.push({ rule: rule.name, severity: rule.severity, object: o.key, message, location: o.source });
    }
  }
  return out;
}

/** A planned operation as a `change` rule sees it. */
function changeOf(op: Operation, desired: DesiredObject | undefined): Record<string, unknown> {
  const before = Object.fromEntries(
    op.changes
      .filter((c) => c.path.length === 1)
      .map((c) => [String(c.path[0]), c.sensitive === true ? secretMask : (c.before ?? null)]),
  );
  const name = desired?.name ?? op.key.split('/').at(-1) ?? op.key;
  return {
    action: op.action,
    kind: op.kind,
    name,
    key: op.key,
    before,
    after: op.action === 'delete' || desired === undefined ? null : masked(desired),
  };
}

/** Findings of the `change` rules over every operation of the plan. */
export function changeFindings(
  rules: readonly PolicyRule[],
  plan: Plan,
  state: DesiredState,
): PolicyFinding[] {
  const byKey = new Map(state.objects.map((o) => [o.key, o]));
  const out: PolicyFinding[] = [];
  for (const rule of rules.filter((r) => r.on === 'change')) {
    for (const op of plan.operations.filter((o) => applies(rule, o.kind))) {
      const desired = byKey.get(op.key);
      const message = brokenBecause(rule, { change: celValue(changeOf(op, desired)) });
      if (message === undefined) continue;
      out.push({
        rule: rule.name,
        severity: rule.severity,
        object: op.key,
        message,
        ...(desired === undefined ? {} : { location: desired.source }),
      });
    }
  }
  return out;
}

export function hasPolicyErrors(findings: readonly PolicyFinding[]): boolean {
  return findings.some((f) => f.severity === 'error');
}
