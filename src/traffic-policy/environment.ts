/**
 * The CEL environment a TLS edge's expressions are checked in: the platform's variables and macros
 * (`variables.ts`, `functions.ts`) declared to the CEL library. The library has no qualified
 * variable names (`conn.client_ip` next to `conn.client_ip.categories`, as the platform declares
 * them), so each qualified name is declared under a flat alias of the same length
 * (`conn_client_ip`), and `compile.ts` rewrites the names it resolved before type checking: every
 * position in the library's errors still points into the text as written.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { celLibrary } from '../cel-library.js';
import { functionName, globalFunctions, methods, namespacedFunctions, sortByMacro } from './functions.js';
import { policyTypes, policyVariables } from './variables.js';

/** `conn.client_ip` → `conn_client_ip`: an identifier as long as the qualified name. */
export function flatAlias(qualified: string): string {
  return qualified.replaceAll('.', '_');
}

/** Expressions are checked here, never run: the platform evaluates them. */
function notEvaluated(): never {
  throw new Error('traffic-policy macros are type-checked by acctsync, not evaluated');
}

/** The CEL library's view of a macro call, as far as `sortBy` reads it. */
interface MacroCall {
  readonly args: readonly { readonly op: string; readonly args: unknown }[];
  readonly receiver: unknown;
}
interface MacroChecker {
  check(ast: unknown, ctx: MacroContext): unknown;
  getType(name: string): unknown;
}
interface MacroContext {
  forkWithVariable(name: string, type: unknown): MacroContext;
}

/**
 * The platform's `list.sortBy(x, keyExpr)` macro (the CEL library has none): the key expression is
 * checked with `x` bound, the result has the list's type.
 */
function sortBy({ args, receiver }: MacroCall) {
  const [binding, key] = args;
  return {
    typeCheck(checker: MacroChecker, _macro: unknown, ctx: MacroContext): unknown {
      if (binding?.op !== 'id' || typeof binding.args !== 'string')
        throw new Error('sortBy(x, keyExpr): x must be a name');
      checker.check(key, ctx.forkWithVariable(binding.args, checker.getType('dyn')));
      return checker.check(receiver, ctx);
    },
    evaluate: notEvaluated,
  };
}

function build(): Environment {
  const { Environment } = celLibrary();
  const env = new Environment({ homogeneousAggregateLiterals: false });
  for (const [name, fields] of Object.entries(policyTypes)) env.registerType(name, { fields: { ...fields } });
  for (const v of policyVariables) env.registerVariable(flatAlias(v.name), v.type);
  for (const s of namespacedFunctions)
    env.registerFunction(flatAlias(functionName(s)) + s.slice(s.indexOf('(')), notEvaluated);
  for (const s of [...globalFunctions, ...methods]) env.registerFunction(s, notEvaluated);
  env.registerFunction(sortByMacro, sortBy);
  return env;
}

let built: Environment | undefined;

/** The environment, built on first use (a config without a policy never pays for it). */
export function policyEnvironment(): Environment {
  built ??= build();
  return built;
}

/** Qualified variable names, and every prefix of one (`conn`, `conn.tls`, ...). */
export const variableNames: ReadonlySet<string> = new Set(policyVariables.map((v) => v.name));
export const variablePrefixes: ReadonlySet<string> = new Set(
  policyVariables.flatMap((v) => {
    const parts = v.name.split('.');
    return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('.'));
  }),
);
/** The first segment of every variable (`conn`, `endpoint`, `time`, ...). */
export const variableRoots: ReadonlySet<string> = new Set(policyVariables.map((v) => v.name.split('.')[0]!));
/** The flat aliases, which an expression may not name itself. */
export const aliases: ReadonlySet<string> = new Set(policyVariables.map((v) => flatAlias(v.name)));

/** Function and method names known to the environment (the library's and the platform's). */
export function knownFunctionNames(): ReadonlySet<string> {
  return new Set(
    policyEnvironment()
      .getDefinitions()
      .functions.map((f) => f.name),
  );
}
