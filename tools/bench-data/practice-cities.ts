/**
 * Practice city names for the synthetic NPPES file (./practice-places.ts): each ZIP of the centroid table gets one
 * city name, and nearby ZIPs share it, as in CMS's file, where a ZIP is written with one city (rarely a few) and a
 * city spans the ZIPs around its centre.
 *
 * - A ZIP within {@link REAL_CITY_MILES} of one of its state's real cities (tools/demo/us-geography.ts, 2-5 per
 *   state, with their coordinates) takes the nearest one's name: the big cities hold their downtown ZIPs. A real
 *   city with no centroid that close (a rural ZCTA's centroid can lie miles out of town) takes its nearest ZIP.
 * - The other ZIPs are grouped into towns: taken densest first, a ZIP not yet named founds a town, and every unnamed
 *   ZIP of the state within {@link TOWN_MILES} of it joins that town. A town's name is synthetic (a prefix x stem x
 *   suffix x tail walk, {@link syntheticTownNames}), so a dense suburb spans a few ZIPs and a rural ZIP is a town.
 *
 * The names depend only on the ZIP table and the state, never on the seed: a ZIP has the same city in every file.
 * Over the 56 states and territories the table's 33,791 ZIPs make 28,691 (state, city) pairs (about 30,000 practice
 * cities in CMS's file); the distinct pairs a file uses grow with its rows (./practice-places.ts gives the figures).
 */
import { milesBetween } from '../../platform/geo/distance';
import type { UsState } from '../demo/us-geography';

/** A ZIP within this many miles of a real city of its state is that city's (the nearest one's). */
export const REAL_CITY_MILES = 7;
/** The ZIPs within this many miles of a town's founding ZIP (and not named yet) belong to that town. */
export const TOWN_MILES = 2.5;
/** A real city with no ZIP within {@link REAL_CITY_MILES} takes its nearest unnamed ZIP within this many miles. */
export const REAL_CITY_REACH_MILES = 30;
/** Miles per degree of latitude (a little under), to skip far ZIPs before computing a distance. */
const MILES_PER_DEGREE = 69;

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

/** A ZIP's centroid, in decimal degrees. */
export interface ZipPoint {
  readonly latitude: number;
  readonly longitude: number;
}

/**
 * The upper-case city name of each of a state's ZIPs (`zips`, all of the state), as NPPES writes them: the nearest
 * real city within {@link REAL_CITY_MILES}, else the synthetic town the ZIP is grouped into. `foundingOrder` lists
 * the ZIPs' indexes in the order they may found towns (densest first).
 * @example nameZipCities(texas, 43, zips, order) // ['HOUSTON', 'HOUSTON', 'NEW OAKFIELD', ...], one per ZIP
 */
export function nameZipCities(
  state: UsState,
  stateIndex: number,
  zips: readonly ZipPoint[],
  foundingOrder: readonly number[],
): string[] {
  const real = state.cities.map((c) => ({ name: c.name.toUpperCase(), latitude: c.lat, longitude: c.lon }));
  const names: (string | undefined)[] = zips.map((z) => {
    let nearest: string | undefined;
    let best = REAL_CITY_MILES;
    for (const c of real) {
      const dLat = z.latitude - c.latitude;
      if (dLat > REAL_CITY_MILES / MILES_PER_DEGREE || dLat < -REAL_CITY_MILES / MILES_PER_DEGREE) continue;
      const d = milesBetween(z.latitude, z.longitude, c.latitude, c.longitude);
      if (d <= best) {
        best = d;
        nearest = c.name;
      }
    }
    return nearest;
  });
  // A city whose centre is far from every centroid (large rural ZCTAs put them miles out) still gets its nearest ZIP.
  for (const c of real) {
    if (names.includes(c.name)) continue;
    let nearest = -1;
    let best = REAL_CITY_REACH_MILES;
    zips.forEach((z, i) => {
      const d = milesBetween(z.latitude, z.longitude, c.latitude, c.longitude);
      if (names[i] === undefined && d <= best) {
        best = d;
        nearest = i;
      }
    });
    if (nearest >= 0) names[nearest] = c.name;
  }
  const town = new Int32Array(zips.length).fill(-1);
  let towns = 0;
  const latitudeSpan = TOWN_MILES / MILES_PER_DEGREE;
  for (const founder of foundingOrder) {
    if (names[founder] !== undefined || (town[founder] as number) >= 0) continue;
    const f = zips[founder] as ZipPoint;
    const longitudeSpan =
      latitudeSpan / Math.max(0.01, Math.cos(((Math.abs(f.latitude) + latitudeSpan) * Math.PI) / 180));
    for (let j = 0; j < zips.length; j++) {
      const z = zips[j] as ZipPoint;
      if (names[j] !== undefined || (town[j] as number) >= 0) continue;
      // No Math call before the box test: the loop runs millions of times, and jest's vm context makes each slow.
      const dLat = z.latitude - f.latitude;
      const dLon = z.longitude - f.longitude;
      if (dLat > latitudeSpan || dLat < -latitudeSpan || dLon > longitudeSpan || dLon < -longitudeSpan) continue;
      if (milesBetween(f.latitude, f.longitude, z.latitude, z.longitude) <= TOWN_MILES) town[j] = towns;
    }
    towns++;
  }
  const townNames = syntheticTownNames(stateIndex, towns, new Set(real.map((c) => c.name)));
  return names.map((name, i) => name ?? (townNames[town[i] as number] as string));
}

/**
 * `count` distinct town names for the state at `stateIndex`, none equal to one of its real cities: a walk through
 * the prefix x stem x suffix x tail space with a fixed stride from a per-state start.
 */
export function syntheticTownNames(stateIndex: number, count: number, exclude: ReadonlySet<string>): string[] {
  if (gcd(STRIDE, NAME_SPACE) !== 1) throw new Error('the town-name stride must be coprime with the name space');
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
