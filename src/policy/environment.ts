/**
 * The CEL environments policy rules are compiled in: an `object` rule sees `object`, `kind`,
 * `name` and `env`; a `change` rule sees `change`. Values are JSON-like, so maps are `dyn` maps.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { celLibrary } from '../cel-library.js';

function objectEnvironment(): Environment {
  const { Environment } = celLibrary();
  return new Environment({ homogeneousAggregateLiterals: false })
    .registerVariable('object', 'map')
    .registerVariable('kind', 'string')
    .registerVariable('name', 'string')
    .registerVariable('env', 'string');
}

function changeEnvironment(): Environment {
  const { Environment } = celLibrary();
  return new Environment({ homogeneousAggregateLiterals: false }).registerVariable('change', 'map');
}

const built: { object?: Environment; change?: Environment } = {};

export function ruleEnvironment(on: 'object' | 'change'): Environment {
  if (on === 'object') return (built.object ??= objectEnvironment());
  return (built.change ??= changeEnvironment());
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
