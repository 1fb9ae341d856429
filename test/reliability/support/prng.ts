/**
 * A small seeded PRNG (mulberry32) so every random choice of a fuzz or fault test can be replayed:
 * each suite prints its seed, and `RELIABILITY_SEED=<n>` runs it again with the same choices.
 */
export interface Rng {
  readonly seed: number;
  /** In [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    seed,
    next,
    int: (n) => Math.floor(next() * n),
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as T;
    },
    chance: (p) => next() < p,
  };
}

/** The seed from `RELIABILITY_SEED`, else a fresh one; printed so a failure can be replayed. */
export function suiteSeed(suite: string): number {
  const fromEnv = process.env.RELIABILITY_SEED;
  const seed =
    fromEnv !== undefined && /^\d+$/.test(fromEnv) ? Number(fromEnv) : Math.floor(Math.random() * 2 ** 31);
  console.log(`[${suite}] seed ${seed} (replay with RELIABILITY_SEED=${seed})`);
  return seed;
}
