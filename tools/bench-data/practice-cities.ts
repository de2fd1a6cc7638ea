/**
 * Practice cities for the synthetic NPPES file: each state's real cities (tools/demo/us-geography.ts) and a long
 * tail of synthetic town names, drawn with a Zipf-like skew, so that the number of distinct (state, city) pairs
 * grows with the row count as it does in CMS's file (about 30,000 distinct practice cities nationally, a few big
 * cities holding many providers and a long tail of small towns).
 *
 * Within a state the places are ranked: the real cities first, then the synthetic towns. A draw takes rank r with
 * probability proportional to 1 / (r (r + 1)) (a Zipf law of exponent 2, sampled by inverting a bounded Pareto:
 * O(1) per draw, no table), and a rank among the real cities is replaced by a uniform pick of one of them, so the
 * real cities share their weight evenly. With 2-5 real cities a state's real cities take m / (m + 1) of its rows
 * (67-83%); the towns have what is left, the first few hundred rows each at 9,000,000 rows, the last a handful.
 * Expected distinct (state, city) pairs: about 4,800 at 200,000 rows, 10,000 at 1,000,000, 17,000 at 3,000,000
 * and 25,000 at 9,000,000.
 *
 * Town names depend only on the state and the rank (a town exists whatever the seed); which towns a file uses
 * depends on the seed. Memory is the name table, fixed (about 50,000 short strings), whatever the row count.
 */
import type { Random } from '../demo/random';
import type { UsState } from '../demo/us-geography';

/** Synthetic towns over all states, shared out by population. */
export const SYNTHETIC_TOWN_POOL = 50_000;
/** The fewest synthetic towns a state or territory gets. */
export const MIN_TOWNS_PER_STATE = 100;

const PREFIXES = ['', 'NORTH ', 'SOUTH ', 'EAST ', 'WEST ', 'NEW ', 'PORT ', 'MOUNT ', 'LAKE ', 'FORT '] as const;
const STEMS = [
  'OAK',
  'MAPLE',
  'CEDAR',
  'PINE',
  'ELM',
  'ASH',
  'WILLOW',
  'BIRCH',
  'SPRING',
  'RIVER',
  'ROCK',
  'CLEAR',
  'RED',
  'WHITE',
  'BLACK',
  'SILVER',
  'GOLD',
  'GREEN',
  'FAIR',
  'MILL',
  'BRIDGE',
  'STONE',
  'BEAR',
  'EAGLE',
  'FOX',
  'DEER',
  'WOLF',
  'HAWK',
  'GLEN',
  'HIGH',
  'LONG',
  'PLEASANT',
  'SUN',
  'CLAY',
  'SAND',
  'IRON',
  'COPPER',
  'SALT',
  'HOLLY',
  'LAUREL',
  'HAZEL',
  'ROSE',
  'LIN',
  'MARL',
  'HARROW',
  'ELLIS',
  'CARTER',
  'MARION',
  'WARREN',
  'CLINTON',
  'HAMIL',
  'BROOKS',
  'ASHER',
  'WINDS',
  'BELL',
  'KINGS',
  'QUEENS',
  'MORGAN',
  'DAYTON',
  'LEXING',
] as const;
const SUFFIXES = [
  'VILLE',
  'TON',
  'FIELD',
  'WOOD',
  'DALE',
  'BURG',
  'PORT',
  'FORD',
  'VIEW',
  'LAND',
  'RIDGE',
  'CREST',
  'HAVEN',
  'BROOK',
  'MONT',
  'STEAD',
  'HAM',
  'BY',
  'WICK',
  'BURY',
  'SIDE',
  'VALE',
  'TOWN',
  'LEY',
] as const;
const TAILS = ['', ' SPRINGS', ' FALLS', ' HEIGHTS', ' CITY', ' HILLS', ' JUNCTION', ' CENTER'] as const;
const NAME_SPACE = PREFIXES.length * STEMS.length * SUFFIXES.length * TAILS.length;
/** A stride coprime with {@link NAME_SPACE}: walking the name space with it visits every name once. */
const STRIDE = 104_729;

/** Draws a practice city for a state. */
export interface CityPicker {
  /** An upper-case city name of `state` (one of the states the picker was built with). */
  pick(rng: Random, state: UsState): string;
}

interface StatePlaces {
  real: readonly string[];
  towns: readonly string[];
  /** 1 - 1 / (ranks + 1): the bounded Pareto's normaliser over ranks 1..real+towns. */
  span: number;
}

/**
 * Builds the picker for `states`: the real cities and the synthetic towns of each, upper-case as NPPES writes them.
 * @example const cities = createCityPicker(US_STATES); cities.pick(rng, texas) // 'HOUSTON', or 'NEW OAKFIELD'...
 */
export function createCityPicker(states: readonly UsState[]): CityPicker {
  const places = placesOf(states);
  return {
    pick(rng, state) {
      const p = places.get(state);
      if (p === undefined) throw new Error(`no practice cities for state ${state.code}`);
      // Inverse CDF of the density 1 / x^2 on [1, ranks + 1): rank r = floor(x) has weight 1 / (r (r + 1)).
      const rank = Math.floor(1 / (1 - rng.next() * p.span));
      if (rank <= p.real.length) return rng.pick(p.real);
      return p.towns[Math.min(rank - p.real.length, p.towns.length) - 1] as string;
    },
  };
}

/**
 * The expected number of distinct (state, city) pairs among `rows` places drawn as the NPPES generator draws them
 * (a state by population, then {@link createCityPicker}'s city): the sum over every place of the chance that it
 * comes up at least once.
 * @example expectedDistinctCities(US_STATES, 9_000_000) // about 25,000
 */
export function expectedDistinctCities(states: readonly UsState[], rows: number): number {
  const population = states.reduce((sum, s) => sum + s.population, 0);
  let expected = 0;
  for (const [state, p] of placesOf(states)) {
    const draws = (rows * state.population) / population;
    const seen = (chance: number) => 1 - Math.exp(-draws * chance);
    const real = p.real.length;
    expected += real * seen((1 - 1 / (real + 1)) / p.span / real);
    for (let rank = real + 1; rank <= real + p.towns.length; rank++) {
      expected += seen((1 / rank - 1 / (rank + 1)) / p.span);
    }
  }
  return expected;
}

function placesOf(states: readonly UsState[]): Map<UsState, StatePlaces> {
  if (gcd(STRIDE, NAME_SPACE) !== 1) throw new Error('the town-name stride must be coprime with the name space');
  const population = states.reduce((sum, s) => sum + s.population, 0);
  const places = new Map<UsState, StatePlaces>();
  states.forEach((state, index) => {
    const real = state.cities.map((c) => c.name.toUpperCase());
    const count = Math.max(MIN_TOWNS_PER_STATE, Math.round((SYNTHETIC_TOWN_POOL * state.population) / population));
    const towns = syntheticTownNames(index, count, new Set(real));
    places.set(state, { real, towns, span: 1 - 1 / (real.length + towns.length + 1) });
  });
  return places;
}

/**
 * `count` distinct town names for the state at `stateIndex`, none equal to one of its real cities: a walk through
 * the prefix x stem x suffix x tail space with a fixed stride from a per-state start.
 */
export function syntheticTownNames(stateIndex: number, count: number, exclude: ReadonlySet<string>): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  let at = (stateIndex * 7_919) % NAME_SPACE;
  for (let step = 0; names.length < count; step++) {
    if (step >= NAME_SPACE) throw new Error(`cannot make ${count} distinct town names`);
    at = (at + STRIDE) % NAME_SPACE;
    let rest = at;
    const tail = TAILS[rest % TAILS.length];
    rest = Math.floor(rest / TAILS.length);
    const suffix = SUFFIXES[rest % SUFFIXES.length];
    rest = Math.floor(rest / SUFFIXES.length);
    const stem = STEMS[rest % STEMS.length];
    rest = Math.floor(rest / STEMS.length);
    const name = `${PREFIXES[rest] ?? ''}${stem}${suffix}${tail}`;
    if (seen.has(name) || exclude.has(name)) continue;
    seen.add(name);
    names.push(name);
  }
  return names;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
