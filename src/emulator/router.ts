/**
 * Path matching over a segment trie: literal segments before parameters, so `/edges/https/{id}/routes`
 * and `/edges/https/{id}/mutual_tls` coexist. Cost is the path's length, not the number of routes.
 */
import type { Handler } from './call.js';

/** One operation. `query` lists the parameters it accepts; any other is refused (gaps.md, 231). */
export interface Route {
  readonly method: string;
  /** `/ip_policies/{id}`: also the key of request statistics. */
  readonly pattern: string;
  readonly handler: Handler;
  readonly query?: readonly string[];
  /** Changes state: a dropped-connection fault applies after it commits. */
  readonly write: boolean;
  /** Part of the API (rate limit and faults apply), not the emulator's control surface. */
  readonly api: boolean;
}

/** An operation of the account API; every method but GET changes state. */
export function apiRoute(
  method: string,
  pattern: string,
  handler: Handler,
  query: readonly string[] = [],
): Route {
  return { method, pattern, handler, query, write: method !== 'GET', api: true };
}

interface Node {
  readonly literals: Map<string, Node>;
  param?: Node;
  /** Parameter names of the pattern ending here, by position among the parameters. */
  names?: readonly string[];
  readonly methods: Map<string, Route>;
}

function node(): Node {
  return { literals: new Map(), methods: new Map() };
}

type Match =
  | { readonly kind: 'found'; readonly route: Route; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: 'method-not-allowed'; readonly allowed: readonly string[] }
  | { readonly kind: 'not-found' };

/** The parameters of a path without any: shared, so it must never be written to. */
const noParams: Readonly<Record<string, string>> = Object.freeze({});

export class Router {
  readonly #root = node();
  /**
   * Patterns without parameters (`/ip_policies`), by path exactly as written there: most requests
   * name a collection, which then needs no walk. Any other spelling of the path takes the walk.
   */
  readonly #fixed = new Map<string, Map<string, Match>>();

  add(route: Route): void {
    this.#fixed.clear();
    let at = this.#root;
    const names: string[] = [];
    for (const segment of route.pattern.split('/').filter((s) => s !== '')) {
      const param = /^\{(\w+)\}$/.exec(segment)?.[1];
      if (param !== undefined) {
        names.push(param);
        at = at.param ??= node();
      } else {
        let next = at.literals.get(segment);
        if (next === undefined) at.literals.set(segment, (next = node()));
        at = next;
      }
    }
    if (at.names !== undefined && at.names.join() !== names.join()) {
      throw new Error(`${route.pattern} names its parameters unlike a route of the same shape`);
    }
    at.names = names;
    at.methods.set(route.method, route);
  }

  match(method: string, path: string): Match {
    const fixed = this.#fixed.get(path)?.get(method);
    if (fixed !== undefined) return fixed;
    const match = this.#walkPath(method, path);
    if (match.kind === 'found' && !match.route.pattern.includes('{') && path === match.route.pattern) {
      let byMethod = this.#fixed.get(path);
      if (byMethod === undefined) this.#fixed.set(path, (byMethod = new Map<string, Match>()));
      byMethod.set(method, { kind: 'found', route: match.route, params: noParams });
    }
    return match;
  }

  #walkPath(method: string, path: string): Match {
    const values: string[] = [];
    const found = this.#walk(
      this.#root,
      path.split('/').filter((s) => s !== ''),
      0,
      values,
    );
    if (found === undefined) return { kind: 'not-found' };
    const route = found.methods.get(method);
    if (route === undefined) return { kind: 'method-not-allowed', allowed: [...found.methods.keys()] };
    const params: Record<string, string> = {};
    (found.names ?? []).forEach((name, i) => {
      params[name] = values[i] ?? '';
    });
    return { kind: 'found', route, params };
  }

  #walk(at: Node, segments: readonly string[], i: number, values: string[]): Node | undefined {
    if (i === segments.length) return at.methods.size > 0 ? at : undefined;
    const segment = segments[i] ?? '';
    const literal = at.literals.get(segment);
    if (literal !== undefined) {
      const found = this.#walk(literal, segments, i + 1, values);
      if (found !== undefined) return found;
    }
    if (at.param === undefined) return undefined;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return undefined;
    }
    values.push(decoded);
    const found = this.#walk(at.param, segments, i + 1, values);
    if (found === undefined) values.pop();
    return found;
  }
}
