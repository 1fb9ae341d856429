/**
 * Runs policy rules: `object` rules over each desired object, `change` rules over each planned
 * operation, in a bounded sandbox (`sandbox.ts`). A rule is broken when its expression is not true
 * (false, another value, or an error while evaluating it, such as a member the object does not
 * have); a rule that passes a bound is an error whatever its severity: it vouched for nothing.
 */
import type { Operation, Plan } from '../plan-format/index.js';
import type { DesiredObject, DesiredState, KindRegistry } from '../resources/index.js';
import { celValue } from './environment.js';
import type { PolicyFinding } from '../plan-format/index.js';
import { secretStars } from '../sensitive-mask.js';
import { RuleSandbox, type RuleOutcome } from './sandbox.js';
import type { PolicyRule } from './types.js';

/** The object's fields with every value at a sensitive path masked. */
function masked(o: DesiredObject): Record<string, unknown> {
  const copy = structuredClone(o.fields) as Record<string, unknown>;
  for (const path of o.sensitive) {
    let at: unknown = copy;
    for (const seg of path.slice(0, -1)) at = (at as Record<string | number, unknown> | undefined)?.[seg];
    const last = path.at(-1);
    if (typeof at === 'object' && at !== null && last !== undefined && String(last) in at) {
      (at as Record<string, unknown>)[String(last)] = secretStars;
    }
  }
  return copy;
}

function applies(rule: PolicyRule, kind: string): boolean {
  return rule.kinds === undefined || rule.kinds.includes(kind);
}

/** Why the rule is broken, with the severity to report it at, or undefined when it holds. */
function brokenBecause(
  rule: PolicyRule,
  outcome: RuleOutcome,
): { severity: PolicyFinding['severity']; message: string } | undefined {
  switch (outcome.kind) {
    case 'value':
      if (outcome.value === true) return undefined;
      if (outcome.value === false) return { severity: rule.severity, message: rule.message };
      return {
        severity: rule.severity,
        message: `${rule.message} (the expression gave ${outcome.value}, not true)`,
      };
    case 'error':
      return {
        severity: rule.severity,
        message: `${rule.message} (the expression failed: ${outcome.message})`,
      };
    case 'exceeded':
      return { severity: 'error', message: `the rule was ${outcome.message}` };
  }
}

/**
 * The object as written: its fields, and its nested items under the member the config writes them
 * in (`rules` of an IP policy, `routes` of an HTTPS edge), each as its own fields, in file order.
 */
function asWritten(
  o: DesiredObject,
  children: ReadonlyMap<string, readonly DesiredObject[]>,
  kinds: KindRegistry,
): Record<string, unknown> {
  const value = masked(o);
  for (const child of children.get(o.key) ?? []) {
    const member = kinds.descriptorOf(child.kind).config?.nestedIn?.member;
    if (member === undefined) continue;
    const items = (value[member] ??= []) as unknown[];
    if (Array.isArray(items)) items.push(masked(child));
  }
  return value;
}

/** Nested items by their parent's key. */
function childrenByParent(state: DesiredState, kinds: KindRegistry): Map<string, DesiredObject[]> {
  const out = new Map<string, DesiredObject[]>();
  for (const o of state.objects) {
    if (o.parentKey === undefined || kinds.descriptorOf(o.kind).config?.nestedIn === undefined) continue;
    const list = out.get(o.parentKey) ?? [];
    list.push(o);
    out.set(o.parentKey, list);
  }
  return out;
}

/** What a `change` rule reads of the what-if: `change.traffic` and `change.trafficNotEvaluated`. */
interface OperationTraffic {
  /** The sample connections whose outcome changes at the edges the operation changes. */
  readonly traffic: Record<string, unknown>[];
  /** The edges it changes that the what-if did not evaluate (past the plan's limit). */
  readonly trafficNotEvaluated: string[];
}

/** Each operation's `OperationTraffic`, by operation id. */
function trafficByOperation(plan: Plan): Map<string, OperationTraffic> {
  const out = new Map<string, OperationTraffic>();
  for (const edge of plan.trafficChanges ?? []) {
    const changes = edge.changes.map((c) => ({ edge: edge.edge, ...c }));
    for (const id of edge.operations) {
      const seen = out.get(id) ?? { traffic: [], trafficNotEvaluated: [] };
      seen.traffic.push(...changes);
      if (edge.notEvaluated !== undefined) seen.trafficNotEvaluated.push(edge.edge);
      out.set(id, seen);
    }
  }
  return out;
}

/** A planned operation as a `change` rule sees it. */
function changeOf(
  op: Operation,
  desired: DesiredObject | undefined,
  traffic: OperationTraffic,
): Record<string, unknown> {
  const before = Object.fromEntries(
    op.changes
      .filter((c) => c.path.length === 1)
      .map((c) => [String(c.path[0]), c.sensitive === true ? secretStars : (c.before ?? null)]),
  );
  const name = desired?.name ?? op.key.split('/').at(-1) ?? op.key;
  return {
    action: op.action,
    kind: op.kind,
    name,
    key: op.key,
    before,
    after: op.action === 'delete' || desired === undefined ? null : masked(desired),
    ...traffic,
  };
}

/** What the rules judge: the desired state (`object` rules) and, given a plan, its operations. */
interface PolicySubject {
  readonly state: DesiredState;
  /** The environment's name, `''` without one. */
  readonly env: string;
  readonly plan?: Plan;
  /** The kinds the state holds: a nested item's kind says the member its parent writes it under. */
  readonly kinds: KindRegistry;
}

/** One evaluation to run: the rule, the object it is about, and what it sees. */
interface Evaluation {
  readonly rule: PolicyRule;
  readonly object: string;
  readonly location: PolicyFinding['location'];
  readonly variables: Readonly<Record<string, unknown>>;
}

function evaluations(rules: readonly PolicyRule[], subject: PolicySubject): Evaluation[] {
  const { state, env, plan, kinds } = subject;
  const out: Evaluation[] = [];
  const objectRules = rules.filter((r) => r.on === 'object');
  const children =
    objectRules.length === 0 ? new Map<string, DesiredObject[]>() : childrenByParent(state, kinds);
  for (const rule of objectRules) {
    for (const o of state.objects.filter((x) => applies(rule, x.kind))) {
      const variables = { object: celValue(asWritten(o, children, kinds)), kind: o.kind, name: o.name, env };
      out.push({ rule, object: o.key, location: o.source, variables });
    }
  }
  if (plan === undefined) return out;
  const byKey = new Map(state.objects.map((o) => [o.key, o]));
  const traffic = trafficByOperation(plan);
  for (const rule of rules.filter((r) => r.on === 'change')) {
    for (const op of plan.operations.filter((o) => applies(rule, o.kind))) {
      const desired = byKey.get(op.key);
      const seen = traffic.get(op.id) ?? { traffic: [], trafficNotEvaluated: [] };
      const variables = { change: celValue(changeOf(op, desired, seen)) };
      out.push({ rule, object: op.key, location: desired?.source, variables });
    }
  }
  return out;
}

/**
 * The findings of the `object` rules over every desired object and, given a plan, of the `change`
 * rules over every operation, in that order.
 */
export async function policyFindings(
  rules: readonly PolicyRule[],
  subject: PolicySubject,
): Promise<PolicyFinding[]> {
  const work = evaluations(rules, subject);
  if (work.length === 0) return [];
  const sandbox = new RuleSandbox();
  const out: PolicyFinding[] = [];
  try {
    for (const { rule, object, location, variables } of work) {
      const broken = brokenBecause(rule, await sandbox.evaluate(rule, variables));
      if (broken === undefined) continue;
      out.push({ rule: rule.name, ...broken, object, ...(location === undefined ? {} : { location }) });
    }
  } finally {
    await sandbox.close();
  }
  return out;
}

export function hasPolicyErrors(findings: readonly PolicyFinding[]): boolean {
  return findings.some((f) => f.severity === 'error');
}
