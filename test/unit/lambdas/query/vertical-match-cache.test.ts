import { VerticalMatchCache } from '../../../../lambdas/query/provider-queries';
import type { VerticalLayer } from '../../../../lambdas/query/snapshot-tables';
import type { NearCircle, VerticalListQuery } from '../../../../lambdas/query/types';
import { milesBetween, unitVector } from '../../../../platform/geo/distance';

/** A layer of the filter columns only: the cache reads nothing else. */
function layer(rows: { vertical: string; state: string | null; city: string | null; mode: string }[]): VerticalLayer {
  return {
    rows: rows as never,
    vertical: rows.map((r) => r.vertical),
    state: rows.map((r) => r.state),
    cityLower: rows.map((r) => r.city?.toLowerCase() ?? null),
    businessMode: rows.map((r) => r.mode),
    latitude: new Float64Array(rows.length).fill(Number.NaN),
    longitude: new Float64Array(rows.length).fill(Number.NaN),
    vectors: { x: new Float64Array(rows.length), y: new Float64Array(rows.length), z: new Float64Array(rows.length) },
    byEntityId: new Map(),
    bySlug: new Map(),
  };
}

const query = (over: Partial<VerticalListQuery> = {}): VerticalListQuery => ({
  vertical: 'glp1',
  state: null,
  city: null,
  businessMode: null,
  boundary: 'verified',
  limit: 100,
  offset: 0,
  ...over,
});

const LAYER = layer([
  { vertical: 'glp1', state: 'TX', city: 'Austin', mode: 'telehealth' },
  { vertical: 'dental', state: 'TX', city: 'Austin', mode: 'in_person' },
  { vertical: 'glp1', state: 'CA', city: 'Fresno', mode: 'in_person' },
  { vertical: 'glp1', state: 'TX', city: 'AUSTIN', mode: 'in_person' },
]);

describe('VerticalMatchCache', () => {
  it('finds the rows of every filter, the city case-insensitively', () => {
    const cache = new VerticalMatchCache();
    expect([...cache.matches(LAYER, query())]).toEqual([0, 2, 3]);
    expect([...cache.matches(LAYER, query({ state: 'TX', city: 'austin' }))]).toEqual([0, 3]);
    expect([...cache.matches(LAYER, query({ businessMode: 'in_person' as never }))]).toEqual([2, 3]);
    expect([...cache.matches(LAYER, query({ vertical: 'dental' as never }))]).toEqual([1]);
  });

  it('answers a repeated filter with the remembered matches until cleared', () => {
    const cache = new VerticalMatchCache();
    const first = cache.matches(LAYER, query({ state: 'TX' }));
    expect(cache.matches(LAYER, query({ state: 'TX', offset: 50 }))).toBe(first);
    cache.clear();
    const again = cache.matches(LAYER, query({ state: 'TX' }));
    expect(again).not.toBe(first);
    expect([...again]).toEqual([...first]);
  });

  it('keeps layers apart', () => {
    const cache = new VerticalMatchCache();
    const other = layer([{ vertical: 'glp1', state: 'TX', city: null, mode: 'telehealth' }]);
    expect([...cache.matches(LAYER, query({ state: 'TX' }))]).toEqual([0, 3]);
    expect([...cache.matches(other, query({ state: 'TX' }))]).toEqual([0]);
  });
});

/** A glp1 layer placed at `points` (null: not placed), entity ids as given. */
function placedLayer(points: { id: string; at: [number, number] | null }[]): VerticalLayer {
  const base = layer(points.map(() => ({ vertical: 'glp1', state: 'NY', city: null, mode: 'in_person' })));
  const n = points.length;
  const lat = new Float64Array(n).fill(Number.NaN);
  const lon = new Float64Array(n).fill(Number.NaN);
  const vectors = {
    x: new Float64Array(n).fill(Number.NaN),
    y: new Float64Array(n).fill(Number.NaN),
    z: new Float64Array(n).fill(Number.NaN),
  };
  points.forEach((p, i) => {
    if (p.at === null) return;
    [lat[i], lon[i]] = p.at;
    [vectors.x[i], vectors.y[i], vectors.z[i]] = unitVector(p.at[0], p.at[1]);
  });
  return { ...base, rows: points.map((p) => ({ entity_id: p.id })) as never, latitude: lat, longitude: lon, vectors };
}

const circle = (latitude: number, longitude: number, radiusMiles: number): NearCircle => ({
  latitude,
  longitude,
  zip: null,
  radiusMiles,
  zips: () => {
    throw new Error('the vertical path reads no ZIPs');
  },
  zipCodes: () => [],
  states: () => [],
});

describe('VerticalMatchCache.near', () => {
  // Manhattan; Brooklyn (twice, at one place: a tie); Philadelphia (about 80 miles); unplaced.
  const NEAR = placedLayer([
    { id: 'p-philly', at: [39.9526, -75.1652] },
    { id: 'p-b', at: [40.6782, -73.9442] },
    { id: 'p-unplaced', at: null },
    { id: 'p-a', at: [40.6782, -73.9442] },
    { id: 'p-manhattan', at: [40.7831, -73.9712] },
  ]);
  const centre = circle(40.7831, -73.9712, 25);

  it('keeps the placed rows within the radius, nearest first, ties by entity_id', () => {
    const cache = new VerticalMatchCache();
    const found = cache.near(NEAR, query(), centre);
    expect([...found.indexes].map((i) => (NEAR.rows[i] as { entity_id: string }).entity_id)).toEqual([
      'p-manhattan',
      'p-a',
      'p-b',
    ]);
    const brooklyn = milesBetween(40.7831, -73.9712, 40.6782, -73.9442);
    expect([...found.miles]).toEqual([0, brooklyn, brooklyn]);
    const wide = cache.near(NEAR, query(), circle(40.7831, -73.9712, 100));
    expect(wide.indexes.length).toBe(4);
    expect(wide.miles[3]).toBeGreaterThan(75);
  });

  it('applies the filter before the circle', () => {
    const cache = new VerticalMatchCache();
    expect(cache.near(NEAR, query({ state: 'TX' }), centre).indexes.length).toBe(0);
    expect(cache.near(NEAR, query({ businessMode: 'in_person' as never }), centre).indexes.length).toBe(3);
  });

  it('remembers an answer per filter and circle until cleared', () => {
    const cache = new VerticalMatchCache();
    const first = cache.near(NEAR, query(), centre);
    expect(cache.near(NEAR, query({ offset: 2 }), circle(40.7831, -73.9712, 25))).toBe(first);
    expect(cache.near(NEAR, query(), circle(40.7831, -73.9712, 24))).not.toBe(first);
    cache.clear();
    const again = cache.near(NEAR, query(), centre);
    expect(again).not.toBe(first);
    expect([...again.indexes]).toEqual([...first.indexes]);
  });
});
