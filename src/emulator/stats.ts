/** Request counts by method, route pattern and status: tests count requests with these. */

export interface RouteCount {
  readonly method: string;
  /** The route pattern (`/ip_policies/{id}`), or `(unmatched)`. */
  readonly route: string;
  /** The status answered, or `'dropped'` when the connection was dropped by a fault. */
  readonly status: number | 'dropped';
  readonly count: number;
}

export interface EmulatorStats {
  readonly total: number;
  readonly routes: readonly RouteCount[];
}

export class RequestStats {
  readonly #counts = new Map<
    string,
    { method: string; route: string; status: number | 'dropped'; count: number }
  >();
  #total = 0;

  record(method: string, route: string, status: number | 'dropped'): void {
    this.#total++;
    const key = `${method} ${route} ${status}`;
    const entry = this.#counts.get(key);
    if (entry) entry.count++;
    else this.#counts.set(key, { method, route, status, count: 1 });
  }

  snapshot(): EmulatorStats {
    return { total: this.#total, routes: [...this.#counts.values()].map((e) => ({ ...e })) };
  }

  reset(): void {
    this.#counts.clear();
    this.#total = 0;
  }
}
