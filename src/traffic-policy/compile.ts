/**
 * Checks one traffic-policy expression offline: parses it with the CEL library, resolves the
 * platform's qualified names (`conn.tls.version`, `base64.decode`) itself, refusing an unknown one
 * with a did-you-mean, then type-checks the expression in the platform's environment. Positions
 * are offsets into the expression as written.
 */
import { firstOf } from '../count.js';
import { didYouMean } from '../suggest.js';
import {
  aliases,
  flatAlias,
  knownFunctionNames,
  policyEnvironment,
  variableNames,
  variablePrefixes,
  variableRoots,
} from './environment.js';
import { functionName, functionNamespaces, namespacedFunctions } from './functions.js';

/** Why an expression does not compile, at an offset (UTF-16, 0-based) into its text. */
interface CelProblem {
  readonly offset: number;
  readonly message: string;
  readonly hint?: string;
}

/** The CEL library's AST node, as far as this module reads it. */
interface Node {
  readonly op: string;
  readonly args: unknown;
  readonly pos: number;
  readonly start: number;
  readonly end: number;
}

interface Rename {
  readonly start: number;
  readonly end: number;
  readonly alias: string;
}

/** What walking the AST found: names to rewrite, or the first unknown one. */
interface Resolution {
  readonly renames: Rename[];
  problem?: CelProblem;
}

const qualifiedFunctions: ReadonlySet<string> = new Set(namespacedFunctions.map(functionName));

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { op?: unknown }).op === 'string';
}

/** `a.b.c` as its segments with their nodes, when the chain starts at an identifier. */
function selectChain(node: Node): { name: string; node: Node }[] | undefined {
  if (node.op === 'id' && typeof node.args === 'string') return [{ name: node.args, node }];
  if (node.op !== '.' || !Array.isArray(node.args)) return undefined;
  const [target, member] = node.args as [unknown, unknown];
  if (!isNode(target) || typeof member !== 'string') return undefined;
  const chain = selectChain(target);
  return chain === undefined ? undefined : [...chain, { name: member, node }];
}

/** The names one level below `prefix` (`conn.tls` → `conn.tls.version`, `conn.tls.sni`, ...). */
function childrenOf(prefix: string): string[] {
  const depth = prefix.split('.').length + 1;
  return [...variableNames, ...variablePrefixes].filter(
    (n) => n.startsWith(`${prefix}.`) && n.split('.').length === depth,
  );
}

/**
 * The one wording of an unknown name, whatever found it (this module or the CEL library): `unknown
 * variable X` (or function), and a did-you-mean, else the names there are to choose from.
 */
function unknown(what: 'variable' | 'function', name: string, candidates: Iterable<string>, offset: number) {
  const known = [...candidates];
  const hint =
    didYouMean(name, known) ?? (known.length === 0 ? undefined : `known here: ${firstOf(known, 6)}`);
  return { offset, message: `unknown ${what} ${name}`, ...(hint === undefined ? {} : { hint }) };
}

function unknownName(segments: readonly string[], at: Node): CelProblem {
  return unknown('variable', segments.join('.'), childrenOf(segments.slice(0, -1).join('.')), at.pos);
}

function notAValue(name: string, at: Node): CelProblem {
  const members = childrenOf(name);
  return {
    offset: at.pos,
    message: `${name} is a namespace, not a value`,
    hint: `use one of its members: ${firstOf(members, 6)}`,
  };
}

/** Resolves a `conn.…` chain to its longest declared variable, or says what is wrong with it. */
function resolveChain(chain: readonly { name: string; node: Node }[], out: Resolution): void {
  const names = chain.map((c) => c.name);
  let longest = -1;
  for (let i = 0; i < names.length; i++) {
    const name = names.slice(0, i + 1).join('.');
    if (variableNames.has(name)) longest = i;
    else if (!variablePrefixes.has(name)) {
      // Past a declared leaf without members, the member access is the type checker's to judge.
      if (longest === i - 1 && longest >= 0 && childrenOf(names.slice(0, i).join('.')).length === 0) break;
      out.problem = unknownName(names.slice(0, i + 1), chain[i]!.node);
      return;
    }
  }
  const last = chain[chain.length - 1]!;
  if (longest < 0 || (longest < names.length - 1 && variablePrefixes.has(names.join('.')))) {
    out.problem = notAValue(names.join('.'), last.node);
    return;
  }
  const qualified = names.slice(0, longest + 1).join('.');
  out.renames.push({
    start: chain[0]!.node.start,
    end: chain[longest]!.node.end,
    alias: flatAlias(qualified),
  });
}

/** `base64.decode(...)`: the namespace's identifier node and the method name. */
function resolveNamespaced(text: string, method: string, receiver: Node, out: Resolution): void {
  const qualified = `${String(receiver.args)}.${method}`;
  const tail = new RegExp(`\\s*\\.\\s*${method}`, 'y');
  tail.lastIndex = receiver.end;
  if (!qualifiedFunctions.has(qualified) || !tail.test(text)) {
    out.problem = unknown('function', qualified, qualifiedFunctions, receiver.start);
    return;
  }
  out.renames.push({ start: receiver.start, end: tail.lastIndex, alias: flatAlias(qualified) });
}

function walk(text: string, value: unknown, out: Resolution): void {
  if (out.problem !== undefined) return;
  if (Array.isArray(value)) {
    for (const v of value) walk(text, v, out);
    return;
  }
  if (!isNode(value)) return;
  const node = value;
  if (node.op === '.' || node.op === 'id') {
    const chain = selectChain(node);
    if (chain !== undefined && variableRoots.has(chain[0]!.name)) return resolveChain(chain, out);
    if (node.op === 'id' && aliases.has(String(node.args))) {
      out.problem = unknown('variable', String(node.args), variableNames, node.pos);
      return;
    }
  }
  if (node.op === 'rcall') {
    const [method, receiver, args] = node.args as [string, unknown, unknown];
    if (isNode(receiver) && receiver.op === 'id' && functionNamespaces.has(String(receiver.args))) {
      resolveNamespaced(text, method, receiver, out);
      return walk(text, args, out);
    }
  }
  walk(text, node.args, out);
}

/** The text with each resolved name replaced by its alias, padded to the same length. */
function rewrite(text: string, renames: readonly Rename[]): string {
  let out = '';
  let at = 0;
  for (const r of [...renames].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, r.start) + r.alias.padEnd(r.end - r.start, ' ');
    at = r.end;
  }
  return out + text.slice(at);
}

interface LibraryError {
  readonly summary?: string;
  readonly message: string;
  readonly code?: string;
  readonly node?: { readonly pos?: number; readonly op?: string; readonly args?: unknown };
  readonly range?: { readonly start: number };
}

/** A hint for a call the library found no overload for: a misspelt name, or the overloads there are. */
function overloadHint(error: LibraryError): string | undefined {
  const { op, args } = error.node ?? {};
  if ((op !== 'call' && op !== 'rcall') || !Array.isArray(args)) return undefined;
  const name = String(args[0]);
  const signatures = policyEnvironment()
    .getDefinitions()
    .functions.filter((f) => f.name === name && (op === 'rcall') === (f.receiverType !== null))
    .map((f) => f.signature);
  return signatures.length === 0 ? undefined : `${name} takes: ${signatures.slice(0, 4).join('; ')}`;
}

const binaryOperators = new Set(['==', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', 'in']);

/**
 * Where the offending token is: the library places an operator's or a method call's error at the
 * start of the whole expression; the operator itself, or the method's name, is what is wrong.
 */
function offendingOffset(text: string, e: LibraryError): number {
  const node = e.node as Partial<Node> | undefined;
  const start = node?.pos ?? e.range?.start ?? 0;
  if (node === undefined || !Array.isArray(node.args)) return start;
  const [first, second] = node.args as unknown[];
  if (binaryOperators.has(String(node.op)) && isNode(first) && isNode(second)) {
    const at = text.slice(first.end, second.start).indexOf(String(node.op));
    return at < 0 ? start : first.end + at;
  }
  if (node.op === '&&' || node.op === '||') {
    // The operand that is not a bool; the library has typed each operand by now.
    const operand = [first, second].find(
      (a) =>
        isNode(a) &&
        !['bool', 'dyn'].includes(String((a as { checkedType?: { name?: string } }).checkedType?.name)),
    );
    return isNode(operand) ? operand.start : start;
  }
  if (node.op === 'rcall' && isNode(second)) {
    const at = text.slice(second.end).indexOf(String(first));
    return at < 0 ? start : second.end + at;
  }
  return start;
}

/** `tme.now` from the offset of its first segment: the dotted name as written, up to a call. */
function dottedNameAt(text: string, offset: number): string {
  const match = /[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*/y;
  match.lastIndex = offset;
  const segments = (match.exec(text)?.[0] ?? '').split('.');
  if (text.slice(match.lastIndex).trimStart().startsWith('(')) segments.pop();
  return segments.join('.');
}

/** A name the CEL library does not know: a variable with no root of ours, or a function. */
function unknownToLibrary(text: string, e: LibraryError, offset: number): CelProblem | undefined {
  if (e.code === 'unknown_variable') {
    const name = dottedNameAt(text, offset) || String(e.node?.args);
    const candidates = [...variableNames, ...variablePrefixes];
    const problem = unknown('variable', name, candidates, offset);
    return problem.hint?.startsWith('did you mean') === true
      ? problem
      : { ...problem, hint: `variables start with ${[...variableRoots].map((r) => `${r}.`).join(', ')}` };
  }
  const { op, args } = e.node ?? {};
  if (e.code !== 'no_matching_overload' || (op !== 'call' && op !== 'rcall') || !Array.isArray(args))
    return undefined;
  const name = String(args[0]);
  const known = knownFunctionNames();
  return known.has(name) ? undefined : unknown('function', name, known, offset);
}

function fromLibrary(text: string, error: unknown): CelProblem {
  const e = error as LibraryError;
  const offset = offendingOffset(text, e);
  const unknownName = unknownToLibrary(text, e, offset);
  if (unknownName !== undefined) return unknownName;
  const message = (e.summary ?? e.message).replace(/\s+/g, ' ');
  const hint = e.code === 'no_matching_overload' ? overloadHint(e) : undefined;
  return { offset, message, ...(hint === undefined ? {} : { hint }) };
}

/**
 * How much an expression can cost to evaluate, counted on its AST: its nodes, and how deep its
 * comprehensions (`all`, `exists`, `exists_one`, `map`, `filter`) nest, each level multiplying the
 * work of the one inside by a list's length.
 */
interface ExpressionSize {
  readonly nodes: number;
  readonly comprehensionDepth: number;
}

/**
 * An expression compiled for evaluation: its text with every qualified name replaced by the flat
 * alias the environment declares it under (`conn.client_ip` → `conn_client_ip`) and its size, or
 * why it does not compile.
 */
type CompiledExpression =
  | { readonly ok: true; readonly text: string; readonly size: ExpressionSize }
  | { readonly ok: false; readonly problem: CelProblem };

const comprehensions: ReadonlySet<string> = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

/** Walked without recursion: a chain of thousands of `||` is a tree that deep. */
function sizeOf(ast: unknown): ExpressionSize {
  let nodes = 0;
  let comprehensionDepth = 0;
  const pending: { value: unknown; depth: number }[] = [{ value: ast, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, depth } = next;
    if (Array.isArray(value)) {
      for (const v of value as unknown[]) pending.push({ value: v, depth });
      continue;
    }
    if (!isNode(value)) continue;
    nodes++;
    const inside =
      value.op === 'rcall' && comprehensions.has(String((value.args as unknown[])[0])) ? depth + 1 : depth;
    comprehensionDepth = Math.max(comprehensionDepth, inside);
    pending.push({ value: value.args, depth: inside });
  }
  return { nodes, comprehensionDepth };
}

/** Compiles `text` as a TLS edge's traffic-policy expression: the checker's one compilation. */
export function compilePolicyExpression(text: string): CompiledExpression {
  const env = policyEnvironment();
  let ast: unknown;
  try {
    ast = env.parse(text).ast;
  } catch (error) {
    return { ok: false, problem: fromLibrary(text, error) };
  }
  const resolution: Resolution = { renames: [] };
  walk(text, ast, resolution);
  if (resolution.problem !== undefined) return { ok: false, problem: resolution.problem };
  const rewritten = rewrite(text, resolution.renames);
  const result = env.check(rewritten);
  if (!result.valid) return { ok: false, problem: fromLibrary(text, result.error) };
  if (result.type === 'bool' || result.type === 'dyn')
    return { ok: true, text: rewritten, size: sizeOf(ast) };
  return {
    ok: false,
    problem: {
      offset: 0,
      message: `the expression evaluates to ${String(result.type)}; a rule's expression must be a bool`,
    },
  };
}

/** The first reason `text` does not compile as a TLS edge's traffic-policy expression, if any. */
export function checkPolicyExpression(text: string): CelProblem | undefined {
  const compiled = compilePolicyExpression(text);
  return compiled.ok ? undefined : compiled.problem;
}
