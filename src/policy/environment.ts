/**
 * The CEL environments policy rules are compiled in: an `object` rule sees `object`, `kind`,
 * `name` and `env`; a `change` rule sees `change`. Values are JSON-like, so maps are `dyn` maps.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { celLibrary } from '../cel-library.js';

/** What a rule sees, by `on`: declared here once, for the checker and for the worker that runs rules. */
export const ruleVariables = {
  object: { object: 'map', kind: 'string', name: 'string', env: 'string' },
  change: { change: 'map' },
} as const satisfies Readonly<Record<'object' | 'change', Readonly<Record<string, string>>>>;

function build(on: 'object' | 'change'): Environment {
  const { Environment } = celLibrary();
  const env = new Environment({ homogeneousAggregateLiterals: false });
  for (const [name, type] of Object.entries(ruleVariables[on])) env.registerVariable(name, type);
  return env;
}

const built: { object?: Environment; change?: Environment } = {};

export function ruleEnvironment(on: 'object' | 'change'): Environment {
  return (built[on] ??= build(on));
}

/** A JSON value as CEL sees it: whole numbers are CEL ints (bigint), other numbers doubles. */
export function celValue(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(celValue);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, celValue(v)]));
  }
  return value;
}
