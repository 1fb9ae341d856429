/**
 * Rules' `matches()` patterns run on RE2's linear-time engine (`rule-worker-source.ts`), which has
 * no backreferences or lookaround: a pattern written in the expression is compiled here, so that one
 * RE2 refuses is reported at its place in the rule file, before anything runs.
 */
import { createRequire } from 'node:module';
import type * as Re2 from 're2js';

/** A `matches` pattern RE2 refuses, at its offset in the expression. */
interface PatternProblem {
  readonly offset: number;
  readonly message: string;
  readonly hint: string;
}

interface Node {
  readonly op: string;
  readonly args: unknown;
  readonly pos: number;
}

// Loaded when a rule file is, not with every command that could take `--policy`.
const require = createRequire(import.meta.url);

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { op?: unknown }).op === 'string';
}

/** The literal pattern of a `matches` call (`s.matches('x')`, `matches(s, 'x')`), if it has one. */
function literalPattern(node: Node): Node | undefined {
  if (!Array.isArray(node.args) || node.args[0] !== 'matches') return undefined;
  const args: unknown = node.op === 'rcall' ? node.args[2] : node.op === 'call' ? node.args[1] : undefined;
  const pattern: unknown = Array.isArray(args) ? args.at(-1) : undefined;
  return isNode(pattern) && pattern.op === 'value' && typeof pattern.args === 'string' ? pattern : undefined;
}

function* nodes(value: unknown): Generator<Node> {
  if (Array.isArray(value)) for (const v of value) yield* nodes(v);
  else if (isNode(value)) {
    yield value;
    yield* nodes(value.args);
  }
}

export function patternProblem(ast: unknown): PatternProblem | undefined {
  for (const node of nodes(ast)) {
    const pattern = literalPattern(node);
    if (pattern === undefined) continue;
    try {
      (require('re2js') as typeof Re2).RE2JS.compile(pattern.args as string);
    } catch (error) {
      return {
        offset: pattern.pos,
        message: `the pattern does not compile as RE2: ${(error as Error).message}`,
        hint: 'matches() runs in linear time (RE2): no backreferences or lookaround',
      };
    }
  }
  return undefined;
}
