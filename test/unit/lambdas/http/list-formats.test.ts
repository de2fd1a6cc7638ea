/**
 * The wire bodies of list pages (lambdas/http/list-formats.ts) with their caches: per-row bytes and whole bodies of
 * recent pages. Whatever was answered before, a body is byte for byte `JSON.stringify(listBody(result))` (JSON) or
 * the CSV of its rows.
 */
import { FREE_PROVIDER_CSV_COLUMNS, flattenProvider, toCsv } from '../../../../data-contracts/csv';
import { identityRowsOf } from '../../../../data-contracts/identity-json';
import type { Provider } from '../../../../data-contracts/types';
import type { ListProvidersResult } from '../../../../lambdas/core/list-providers';
import { ListBodyCache, listBody, listCsvBytes, listJsonBytes } from '../../../../lambdas/http/list-formats';
import { FAKE_VERSION } from '../../../helpers/api-fake-deps';

/** Frozen views, as `core/present-provider.ts` shares them. */
const views = Array.from({ length: 300 }, (_, i) =>
  Object.freeze({
    entity_id: `e${i}`,
    slug: `clinic-${i}`,
    name: `Clinic "${i}", Inc.`,
    city: i % 2 === 0 ? 'Austin' : null,
    state: 'TX',
  }),
) as unknown as Provider[];

function page(data: Provider[], over: Partial<ListProvidersResult> = {}): ListProvidersResult {
  return {
    path: 'vertical',
    vertical: 'glp1',
    publishBoundary: 'verified',
    tier: 'free',
    plan: 'free',
    format: 'json',
    pagination: { total: views.length, limit: data.length, offset: 0, returned: data.length },
    filters: {},
    data,
    ...over,
  } as ListProvidersResult;
}

describe('list bodies', () => {
  const bodies = new ListBodyCache();

  it('are the JSON of the envelope for repeated pages, changed envelopes and changed pages', () => {
    const cases = [
      page(views.slice(0, 50)),
      page(views.slice(0, 50)),
      ...Array.from({ length: 6 }, (_, used) =>
        page(views.slice(0, 50), { usage: { used, quota: 100, resets_at: '2026-12-01T00:00:00Z' } } as never),
      ),
      page(views.slice(0, 50)),
      // Same first row, other rows; fewer rows; the same rows in another order.
      page([views[0] as Provider, ...views.slice(100, 149)]),
      page(views.slice(0, 10)),
      page([...views.slice(0, 50)].reverse()),
      page(views.slice(0, 50)),
      page([]),
    ];
    for (const result of cases) {
      expect(listJsonBytes(result, bodies, FAKE_VERSION).toString('utf8')).toBe(
        JSON.stringify(listBody(result, FAKE_VERSION)),
      );
    }
  });

  it('answer a repeated page of shared views with the same bytes without rebuilding them', () => {
    const result = page(views.slice(0, 200));
    const first = listJsonBytes(result, bodies, FAKE_VERSION);
    expect(listJsonBytes(page(views.slice(0, 200)), bodies, FAKE_VERSION)).toBe(first);
  });

  it('are the CSV of the rows for repeated and changed pages', () => {
    const expected = (data: Provider[]) => toCsv(FREE_PROVIDER_CSV_COLUMNS, data.map(flattenProvider));
    for (const data of [views.slice(0, 120), views.slice(0, 120), views.slice(1, 121), views.slice(0, 3)]) {
      expect(listCsvBytes(page(data, { format: 'csv' }), bodies).toString('utf8')).toBe(expected(data));
    }
  });

  it('are built again, byte for byte the same, once the cache is cleared', () => {
    const result = page(views.slice(0, 200));
    const first = listJsonBytes(result, bodies, FAKE_VERSION);
    bodies.clear();
    const rebuilt = listJsonBytes(result, bodies, FAKE_VERSION);
    expect(rebuilt).not.toBe(first);
    expect(rebuilt.equals(first)).toBe(true);
    expect(listJsonBytes(result, bodies, FAKE_VERSION)).toBe(rebuilt);
  });

  it('are not shared between two caches (two runtimes)', () => {
    const result = page(views.slice(0, 200));
    expect(listJsonBytes(result, new ListBodyCache(), FAKE_VERSION)).not.toBe(
      listJsonBytes(result, new ListBodyCache(), FAKE_VERSION),
    );
  });
});

describe('identity list bodies', () => {
  const bodies = new ListBodyCache();

  it('are byte for byte the JSON of the envelope with the masked identity providers', () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({
      npi: String(1000000000 + i),
      name: i % 7 === 0 ? 'MARÍA "LUZ" O\'NEIL' : `PROVIDER ${i}`,
      taxonomy_code: i % 2 ? '163W00000X' : '101Y00000X',
      taxonomy_display: i % 3 ? 'Registered Nurse' : null,
      classification_key: 'registered-nurse',
      is_primary: true,
      class_rep: true,
      city: i % 4 ? 'HOUSTON' : null,
      state: 'TX',
      checked_at: '2026-06-15',
      oig_excluded: i === 5,
      oig_type: i === 5 ? '1128a1' : null,
      oig_date: i === 5 ? '2019-05-20' : null,
      oig_checked_at: i === 5 ? '2026-10-03T00:00:00Z' : null,
      oig_candidate_count: 0,
    }));
    for (const over of [{}, { usage: { used: 3, quota: 5000 }, plan: 'builder' }, { notice: 'Free tier.' }]) {
      const result = {
        path: 'identity',
        taxonomy: 'nurse',
        tier: 'free',
        plan: 'free',
        format: 'json',
        pagination: { total: 90, limit: 30, offset: 0, returned: 30 },
        filters: { vertical: null, taxonomy: 'nurse', state: 'TX', city: null, business_mode: null },
        rows: identityRowsOf(rows),
        ...over,
      } as ListProvidersResult;
      expect(listJsonBytes(result, bodies, FAKE_VERSION).toString('utf8')).toBe(
        JSON.stringify(listBody(result, FAKE_VERSION)),
      );
    }
  });
});
