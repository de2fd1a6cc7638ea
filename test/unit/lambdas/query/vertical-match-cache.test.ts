import { VerticalMatchCache } from '../../../../lambdas/query/provider-queries';
import type { VerticalLayer } from '../../../../lambdas/query/snapshot-tables';
import type { VerticalListQuery } from '../../../../lambdas/query/types';

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
