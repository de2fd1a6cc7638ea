/**
 * A small seeded pseudo-random source for the data generators. Every generated file must be reproducible byte for
 * byte from its seed, so nothing here reads `Math.random` or the clock.
 */
import { lowerBound } from '../../platform/binary/binary-search';

/** A seeded random source with the few draws the generators need. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** A new array with the items in a random order (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[];
}

/**
 * Creates a mulberry32 generator: 32 bits of state, fast, and good enough for test data (not for anything secret).
 * @see https://github.com/bryc/code/blob/master/jshash/PRNGs.md#mulberry32
 * @example const rng = createRandom(42); rng.int(1, 6);
 */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error('pick from an empty array');
      return items[Math.floor(next() * items.length)] as T;
    },
    shuffle<T>(items: readonly T[]): T[] {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        const tmp = out[i] as T;
        out[i] = out[j] as T;
        out[j] = tmp;
      }
      return out;
    },
  };
}

/** A pre-computed weighted choice: O(log n) per draw, for tables drawn from millions of times. */
export interface WeightedPicker<T> {
  pick(rng: Random): T;
}

/**
 * Builds a weighted picker from `[item, weight]` pairs (weights need not sum to anything in particular).
 * @example createWeightedPicker([['online', 3], ['physical', 7]]).pick(rng)
 */
export function createWeightedPicker<T>(entries: readonly (readonly [T, number])[]): WeightedPicker<T> {
  const items: T[] = [];
  const cumulative: number[] = [];
  let total = 0;
  for (const [item, weight] of entries) {
    if (!(weight > 0)) continue;
    total += weight;
    items.push(item);
    cumulative.push(total);
  }
  if (items.length === 0) throw new Error('weighted picker needs at least one positive weight');
  return {
    pick(rng: Random): T {
      const target = rng.next() * total;
      // The first item whose cumulative weight passes the target (the last one when rounding leaves none).
      return items[lowerBound(0, cumulative.length - 1, (i) => (cumulative[i] as number) <= target)] as T;
    },
  };
}
