/**
 * Reads `--policy` files (a file, or a directory of them) into compiled rules. The format is
 * fixed (`version: 1`, `rules:` with name, on, kinds, expression, message, severity); a file that
 * does not parse, a member that is wrong and an expression that does not compile are each refused
 * at their own file:line:col, every one in one run.
 */
import { counted } from '../count.js';
import type { SideFileReport } from '../config/index.js';
import { ConfigError, locate, readSideFiles, type Diagnostic, type DocPath } from '../config/index.js';
import { didYouMean } from '../suggest.js';
import type { KindRegistry } from '../resources/index.js';
import { isPlainObject } from '../plain-object.js';
import { ruleEnvironment } from './environment.js';
import { patternProblem } from './patterns.js';
import type { PolicyRule } from './types.js';

/** Policy files that do not load: rendered as the config's problems are, with code frames. */
export class PolicyFileError extends ConfigError {
  constructor(diagnostics: readonly Diagnostic[]) {
    super(diagnostics);
    this.message = `the policy rules are invalid: ${counted(diagnostics.length, 'error', 'errors')}`;
  }
}

const ruleMembers = ['name', 'on', 'kinds', 'expression', 'message', 'severity'];

function stringMember(
  r: SideFileReport,
  rule: Record<string, unknown>,
  path: DocPath,
  key: string,
): string | undefined {
  const value = rule[key];
  if (typeof value === 'string' && value !== '') return value;
  r.error(value === undefined ? path : [...path, key], `${key} must be a non-empty string`);
  return undefined;
}

function kindsOf(
  r: SideFileReport,
  rule: Record<string, unknown>,
  path: DocPath,
  registry: KindRegistry,
): string[] | undefined {
  const kinds = rule.kinds;
  if (kinds === undefined) return undefined;
  const known = registry.all.map((d) => d.kind as string);
  if (!Array.isArray(kinds)) {
    r.error([...path, 'kinds'], 'kinds must be a list of kind names');
    return undefined;
  }
  kinds.forEach((k, i) => {
    if (typeof k !== 'string' || !known.includes(k)) {
      r.error(
        [...path, 'kinds', i],
        `unknown kind ${String(k)}`,
        didYouMean(String(k), known) ?? `the kinds are ${known.join(', ')}`,
      );
    }
  });
  return kinds.filter((k): k is string => typeof k === 'string');
}

interface LibraryError {
  readonly summary?: string;
  readonly message: string;
  readonly node?: { readonly pos?: number };
}

/** Whether `expression` compiles as an `on` rule; each reason it does not is reported at its offset. */
function compiles(r: SideFileReport, on: 'object' | 'change', expression: string, path: DocPath): boolean {
  const refuse = (e: LibraryError): false => {
    const vars = on === 'object' ? 'object, kind, name and env' : 'change';
    const message = `the expression does not compile: ${e.summary ?? e.message}`;
    r.error(path, message, `an ${on} rule sees ${vars}`, e.node?.pos ?? 0);
    return false;
  };
  let parsed: ReturnType<ReturnType<typeof ruleEnvironment>['parse']>;
  try {
    parsed = ruleEnvironment(on).parse(expression);
  } catch (error) {
    return refuse(error as LibraryError);
  }
  const checked = parsed.check();
  if (!checked.valid) return refuse(checked.error as LibraryError);
  if (checked.type !== 'bool' && checked.type !== 'dyn') {
    const type = String(checked.type);
    r.error(path, `the expression evaluates to ${type}; a policy rule's expression must be a bool`);
    return false;
  }
  const pattern = patternProblem(parsed.ast);
  if (pattern !== undefined) {
    r.error(path, pattern.message, pattern.hint, pattern.offset);
    return false;
  }
  return true;
}

/** What every rule of a load is checked against: the names taken so far, and the kinds there are. */
interface RuleContext {
  /** Rule names already used, with where. */
  readonly names: Map<string, string>;
  readonly kinds: KindRegistry;
}

function ruleAt(r: SideFileReport, rule: unknown, index: number, ctx: RuleContext): PolicyRule | undefined {
  const { names } = ctx;
  const path: DocPath = ['rules', index];
  if (!isPlainObject(rule)) {
    r.error(path, 'a rule is a map with name, on, expression and message');
    return undefined;
  }
  for (const key of Object.keys(rule)) {
    if (!ruleMembers.includes(key))
      r.atKey([...path, key], `unknown member ${key}`, didYouMean(key, ruleMembers));
  }
  const name = stringMember(r, rule, path, 'name');
  if (name !== undefined && names.has(name)) {
    r.error(
      [...path, 'name'],
      `rule name ${name} is already used at ${names.get(name)!}`,
      'rule names are unique',
    );
  } else if (name !== undefined) {
    const at = locate(r.source, path);
    names.set(name, `${r.source.file}:${at.line}:${at.column}`);
  }
  const on = rule.on;
  if (on !== 'object' && on !== 'change') r.error([...path, 'on'], 'on must be object or change');
  const severity = rule.severity ?? 'error';
  if (severity !== 'error' && severity !== 'warning')
    r.error([...path, 'severity'], 'severity must be error or warning');
  const kinds = kindsOf(r, rule, path, ctx.kinds);
  const expression = stringMember(r, rule, path, 'expression');
  const message = stringMember(r, rule, path, 'message');
  if (name === undefined || expression === undefined || message === undefined) return undefined;
  if ((on !== 'object' && on !== 'change') || (severity !== 'error' && severity !== 'warning'))
    return undefined;
  if (!compiles(r, on, expression, [...path, 'expression'])) return undefined;
  const location = { file: r.source.file, ...locate(r.source, path) };
  return {
    name,
    on,
    ...(kinds === undefined ? {} : { kinds }),
    expression,
    message,
    severity,
    location,
  };
}

function rulesOf(r: SideFileReport, ctx: RuleContext): PolicyRule[] {
  const doc = r.source.value;
  if (!isPlainObject(doc)) {
    r.error([], 'a policy file is a map with version: 1 and rules');
    return [];
  }
  if (doc.version !== 1)
    r.error(doc.version === undefined ? [] : ['version'], 'a policy file starts with version: 1');
  for (const key of Object.keys(doc)) {
    if (key !== 'version' && key !== 'rules')
      r.error([key], `unknown member ${key}`, didYouMean(key, ['version', 'rules']));
  }
  if (!Array.isArray(doc.rules)) {
    r.error(doc.rules === undefined ? [] : ['rules'], 'rules must be a list');
    return [];
  }
  return doc.rules.flatMap((rule, i) => ruleAt(r, rule, i, ctx) ?? []);
}

/**
 * The rules of every policy file under `paths`, their `kinds:` names of `kinds`; refuses them all
 * with every problem found.
 */
export async function loadPolicies(
  paths: readonly string[],
  kinds: KindRegistry,
  cwd = process.cwd(),
): Promise<PolicyRule[]> {
  if (paths.length === 0) return [];
  const ctx: RuleContext = { names: new Map(), kinds };
  const { items: rules, diagnostics } = await readSideFiles(paths, cwd, 'policy file', (r) =>
    rulesOf(r, ctx),
  );
  if (diagnostics.length > 0) throw new PolicyFileError(diagnostics);
  return rules;
}
