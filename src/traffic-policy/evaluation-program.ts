/**
 * What the evaluation worker (`evaluation-worker-source.ts`) is started with: the checker's
 * environment as data (variables under their flat aliases, types, the macros' signatures), so the
 * worker evaluates exactly what `compile.ts` checked.
 */
import { createRequire } from 'node:module';
import { flatAlias } from './environment.js';
import { evaluationWorkerSource } from './evaluation-worker-source.js';
import { functionName, globalFunctions, methods, namespacedFunctions } from './functions.js';
import { policyTypes, policyVariables } from './variables.js';

const require = createRequire(import.meta.url);

/**
 * The worker's program and data, in the shape `src/policy/sandbox.ts` starts a worker with;
 * `maxRangeLength` is the longest list `lists.range` makes offline.
 */
export function evaluationProgram(maxRangeLength: number): {
  source: string;
  data: Readonly<Record<string, unknown>>;
} {
  return {
    source: evaluationWorkerSource,
    data: {
      maxRangeLength,
      celLibrary: require.resolve('@marcbachmann/cel-js'),
      re2js: require.resolve('re2js'),
      types: policyTypes,
      variables: policyVariables.map((v) => [flatAlias(v.name), v.type]),
      // Each signature as the environment declares it, with the name a message shows.
      functions: [
        ...namespacedFunctions.map((s) => [
          flatAlias(functionName(s)) + s.slice(s.indexOf('(')),
          functionName(s),
        ]),
        ...[...globalFunctions, ...methods].map((s) => [s, functionName(s)]),
      ],
    },
  };
}

const byAlias: ReadonlyMap<string, string> = new Map(policyVariables.map((v) => [flatAlias(v.name), v.name]));

/** `conn_client_ip` → `conn.client_ip`: the variable a worker's `missing` alias stands for. */
export function variableOfAlias(alias: string): string {
  return byAlias.get(alias) ?? alias;
}
