/**
 * Evaluates a TLS edge offline for one sample connection: the IP restriction module (its IP
 * policies' allow and deny rules), then the traffic policy's inbound rules in order, each rule's
 * expressions evaluated with the checker's CEL environment and its actions given their documented
 * effect. The outcome says whether the connection is let in, what decided it (with the rule's
 * file:line where known) and the actions that ran; where it depends on something the sample does
 * not say, it is `unknown` and names that, never a guess. Semantics: docs/traffic-policy.md
 * ("Evaluating an edge offline").
 */
import { inCidr } from './cidr.js';
import { celVariables, connectionDefaults, type Connection } from './connection.js';
import type { ExpressionEvaluator } from './expressions.js';
import type { TrafficAction, TrafficEdge, TrafficIpPolicy, TrafficLocation, TrafficRule } from './model.js';

type Verdict = 'allow' | 'deny' | 'unknown';

/** What decided the outcome (for `unknown`: what could not be decided). */
export interface Decision {
  /** A module of the edge, a rule of its traffic policy, or nothing refusing the connection. */
  readonly by: 'ip_restriction' | 'rule' | 'default';
  /** `ip_restriction`, the rule's name, or `default`. */
  readonly name: string;
  /** For the IP restriction module: the IP policy whose rule decided. */
  readonly ipPolicy?: string;
  /** In words: `203.0.113.7 is in 203.0.113.0/24 (allow) of office`. */
  readonly detail: string;
  readonly location?: TrafficLocation;
}

/** An action of a rule that applied, and what it did. */
interface ActionRun {
  readonly rule: string;
  readonly type: string;
  readonly effect: string;
}

export interface Outcome {
  readonly verdict: Verdict;
  readonly decision: Decision;
  /** For `unknown`: the variable the outcome depends on (when it is one) and why. */
  readonly unknown?: { readonly variable?: string; readonly reason: string };
  /** In order. */
  readonly actions: readonly ActionRun[];
  /** What was not evaluated and could matter (a module acctsync does not model). */
  readonly notes: readonly string[];
}

interface EvaluationContext {
  /** The IP policies the edge and its restrict-ips actions may name, by reference. */
  readonly ipPolicies: ReadonlyMap<string, TrafficIpPolicy>;
  readonly expressions: ExpressionEvaluator;
}

/** A CIDR with the policy (or list) it comes from. */
interface Cidr {
  readonly cidr: string;
  readonly from: string;
  readonly location?: TrafficLocation;
}

type IpDecision =
  | {
      readonly kind: 'allow' | 'deny';
      readonly detail: string;
      readonly matched?: Cidr;
      readonly variable?: never;
    }
  | {
      readonly kind: 'unknown';
      readonly variable?: string;
      readonly detail: string;
      readonly matched?: never;
    };

/**
 * The documented rule for an IP restriction and for restrict-ips alike: a connection is allowed
 * only if its address is in at least one allowed CIDR and in no denied one.
 */
function ipDecision(
  ip: unknown,
  allow: readonly Cidr[],
  deny: readonly Cidr[],
  unresolved: readonly string[],
): IpDecision {
  if (typeof ip !== 'string')
    return {
      kind: 'unknown',
      variable: 'conn.client_ip',
      detail: 'the connection does not set conn.client_ip',
    };
  const denied = deny.find((c) => inCidr(ip, c.cidr));
  if (denied !== undefined)
    return { kind: 'deny', matched: denied, detail: `${ip} is in ${denied.cidr} (deny) of ${denied.from}` };
  if (unresolved.length > 0)
    return {
      kind: 'unknown',
      detail: `the rules of IP policy ${unresolved.join(', ')} are not known offline`,
    };
  const allowed = allow.find((c) => inCidr(ip, c.cidr));
  if (allowed !== undefined)
    return {
      kind: 'allow',
      matched: allowed,
      detail: `${ip} is in ${allowed.cidr} (allow) of ${allowed.from}`,
    };
  return { kind: 'deny', detail: `${ip} is in no allowed CIDR` };
}

/** The allow and deny CIDRs of the named IP policies, and the names not known. */
function policyCidrs(refs: readonly string[], known: ReadonlyMap<string, TrafficIpPolicy>) {
  const allow: Cidr[] = [];
  const deny: Cidr[] = [];
  const unresolved: string[] = [];
  for (const ref of refs) {
    const policy = known.get(ref);
    if (policy === undefined) {
      unresolved.push(ref);
      continue;
    }
    for (const rule of policy.rules) {
      const cidr = {
        cidr: rule.cidr,
        from: policy.name,
        ...(rule.location ? { location: rule.location } : {}),
      };
      (rule.action === 'allow' ? allow : deny).push(cidr);
    }
  }
  return { allow, deny, unresolved };
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The mutable state of one evaluation. */
class Run {
  readonly actions: ActionRun[] = [];
  readonly notes: string[] = [];
  /** The last gate the connection passed: what "allowed by" names. */
  admittedBy: Decision = { by: 'default', name: 'default', detail: 'no module or rule refused it' };
  /** `vars` as set-vars actions left it; a name set to a value acctsync cannot know is absent. */
  readonly vars: Record<string, unknown> = {};
  readonly values: Record<string, unknown>;

  constructor(
    readonly edge: TrafficEdge,
    connection: Connection,
    readonly context: EvaluationContext,
  ) {
    this.values = { ...connectionDefaults(edge, connection), ...connection };
    if (typeof this.values.vars === 'object' && this.values.vars !== null)
      Object.assign(this.vars, this.values.vars);
  }

  outcome(verdict: Verdict, decision: Decision, unknown?: Outcome['unknown']): Outcome {
    return {
      verdict,
      decision,
      ...(unknown === undefined ? {} : { unknown }),
      actions: this.actions,
      notes: this.notes,
    };
  }

  variables(): Record<string, unknown> {
    return celVariables({ ...this.values, vars: this.vars });
  }
}

function ruleDecision(rule: TrafficRule, detail: string): Decision {
  return { by: 'rule', name: rule.name, detail, ...(rule.location ? { location: rule.location } : {}) };
}

function ipRestriction(run: Run): Outcome | undefined {
  const module = run.edge.ipRestriction;
  if (module === undefined || !module.enabled) return undefined;
  const { allow, deny, unresolved } = policyCidrs(module.ipPolicies, run.context.ipPolicies);
  const decided = ipDecision(run.values['conn.client_ip'], allow, deny, unresolved);
  const decision = (d: IpDecision): Decision => {
    const matched = d.matched;
    const location = matched?.location ?? module.location;
    return {
      by: 'ip_restriction',
      name: 'ip_restriction',
      ...(matched === undefined ? {} : { ipPolicy: matched.from }),
      detail: `IP restriction: ${d.detail}`,
      ...(location === undefined ? {} : { location }),
    };
  };
  if (decided.kind === 'allow') {
    run.admittedBy = decision(decided);
    return undefined;
  }
  if (decided.kind === 'deny') return run.outcome('deny', decision(decided));
  return run.outcome('unknown', decision(decided), {
    ...(decided.variable === undefined ? {} : { variable: decided.variable }),
    reason: decided.detail,
  });
}

/** Whether a rule applies: every expression true; `unknown` with the first that cannot be decided. */
async function applies(
  run: Run,
  rule: TrafficRule,
): Promise<boolean | { variable?: string; reason: string }> {
  let undecided: { variable?: string; reason: string } | undefined;
  const at = rule.location === undefined ? '' : ` (${rule.location.file}:${rule.location.line})`;
  for (const [i, expression] of rule.expressions.entries()) {
    const where = `expression ${i + 1} of rule ${rule.name} on ${run.edge.key}${at}`;
    const result = await run.context.expressions.evaluate(expression, run.variables(), where);
    if (result.kind === 'value') {
      if (!result.value) return false;
      continue;
    }
    undecided ??= {
      ...(result.variable === undefined ? {} : { variable: result.variable }),
      reason: `expression ${i + 1} of rule ${rule.name} cannot be decided: ${result.reason}`,
    };
  }
  return undecided ?? true;
}

/** The action types that can decide whether the connection is let in. */
const deciding = new Set(['deny', 'close-connection', 'restrict-ips', 'forward-internal']);

/** Runs one action of an applying rule: an outcome ends the evaluation. */
function runAction(run: Run, rule: TrafficRule, action: TrafficAction): Outcome | undefined {
  const config = action.config ?? {};
  const ran = (effect: string): void => void run.actions.push({ rule: rule.name, type: action.type, effect });
  switch (action.type) {
    case 'deny':
    case 'close-connection':
      ran('closed the connection');
      return run.outcome('deny', ruleDecision(rule, `rule ${rule.name}: ${action.type}`));
    case 'log':
      run.values['actions.ngrok.log.metadata'] = config.metadata ?? {};
      ran('logged');
      return undefined;
    case 'set-vars': {
      const names: string[] = [];
      for (const entry of Array.isArray(config.vars) ? (config.vars as unknown[]) : []) {
        for (const [name, value] of Object.entries(entry as Record<string, unknown>)) {
          names.push(name);
          // A value interpolating CEL (`${...}`) is not evaluated: the variable is then unknown.
          if (typeof value === 'string' && value.includes('${')) delete run.vars[name];
          else run.vars[name] = value;
        }
      }
      ran(`set vars ${names.join(', ')}`);
      return undefined;
    }
    case 'terminate-tls':
      ran('terminates TLS (not modelled)');
      return undefined;
    case 'forward-internal':
      ran(`forwarded to ${String(config.url)}`);
      return run.outcome(
        'allow',
        ruleDecision(rule, `rule ${rule.name}: forwarded to ${String(config.url)}`),
      );
    case 'restrict-ips':
      return restrictIps(run, rule, config);
    default:
      ran('not modelled');
      return run.outcome('unknown', ruleDecision(rule, `rule ${rule.name}: ${action.type}`), {
        reason: `the action ${action.type} is not modelled offline`,
      });
  }
}

function restrictIps(
  run: Run,
  rule: TrafficRule,
  config: Readonly<Record<string, unknown>>,
): Outcome | undefined {
  const fromPolicies = policyCidrs(strings(config.ip_policies), run.context.ipPolicies);
  const list = (cidrs: unknown): Cidr[] =>
    strings(cidrs).map((cidr) => ({ cidr, from: `rule ${rule.name}` }));
  const decided = ipDecision(
    run.values['conn.client_ip'],
    [...list(config.allow), ...fromPolicies.allow],
    [...list(config.deny), ...fromPolicies.deny],
    fromPolicies.unresolved,
  );
  const enforce = config.enforce !== false;
  if (decided.kind === 'unknown') {
    run.actions.push({ rule: rule.name, type: 'restrict-ips', effect: 'cannot be decided' });
    return run.outcome('unknown', ruleDecision(rule, `rule ${rule.name}: restrict-ips: ${decided.detail}`), {
      ...(decided.variable === undefined ? {} : { variable: decided.variable }),
      reason: decided.detail,
    });
  }
  run.values['actions.ngrok.restrict_ips.action'] = decided.kind;
  if (decided.matched !== undefined)
    run.values['actions.ngrok.restrict_ips.matched_cidr'] = decided.matched.cidr;
  const detail = `rule ${rule.name}: restrict-ips: ${decided.detail}`;
  if (decided.kind === 'allow') {
    run.actions.push({ rule: rule.name, type: 'restrict-ips', effect: `allowed: ${decided.detail}` });
    run.admittedBy = ruleDecision(rule, detail);
    return undefined;
  }
  if (!enforce) {
    run.actions.push({
      rule: rule.name,
      type: 'restrict-ips',
      effect: `not permitted, not enforced: ${decided.detail}`,
    });
    return undefined;
  }
  run.actions.push({ rule: rule.name, type: 'restrict-ips', effect: `refused: ${decided.detail}` });
  return run.outcome('deny', ruleDecision(rule, detail));
}

async function inboundRules(run: Run): Promise<Outcome | undefined> {
  const policy = run.edge.policy;
  if (policy === undefined || !policy.enabled) return undefined;
  for (const rule of policy.inbound) {
    const applied = await applies(run, rule);
    if (applied === false) continue;
    if (applied !== true) {
      if (rule.actions.some((a) => deciding.has(a.type)))
        return run.outcome('unknown', ruleDecision(rule, applied.reason), applied);
      run.notes.push(`rule ${rule.name} may have run: ${applied.reason}`);
      for (const a of rule.actions) {
        if (a.type !== 'set-vars') continue;
        const entries = Array.isArray(a.config?.vars) ? (a.config.vars as Record<string, unknown>[]) : [];
        for (const entry of entries) for (const name of Object.keys(entry)) delete run.vars[name];
      }
      continue;
    }
    for (const action of rule.actions) {
      const ended = runAction(run, rule, action);
      if (ended !== undefined) return ended;
    }
  }
  return undefined;
}

/**
 * The outcome of `connection` reaching `edge`: the IP restriction module, then the traffic
 * policy's inbound rules in order.
 */
export async function evaluateEdge(
  edge: TrafficEdge,
  connection: Connection,
  context: EvaluationContext,
): Promise<Outcome> {
  const run = new Run(edge, connection, context);
  if (edge.mutualTls?.enabled === true)
    run.notes.push(
      'mutual TLS is not evaluated: a client without a certificate the CAs accept is refused before any rule',
    );
  const decided = ipRestriction(run) ?? (await inboundRules(run));
  return decided ?? run.outcome('allow', run.admittedBy);
}
