import { identityRowList, identityRowsOf } from '../../../../data-contracts/identity-json';
import type { NpiActiveLine } from '../../../../data-contracts/layout';
import type { IdentityRow } from '../../../../data-contracts/rows';
import { identityRowOf, orderedCodes, searchIdentityNear } from '../../../../lambdas/query/identity-search';
import type { NearCircle } from '../../../../lambdas/query/types';
import type { SearchQuery } from '../../../../platform/search-index/reader';

const CLASS: Record<string, string> = { A1: 'a', A2: 'a', B1: 'b', B2: 'b', C1: 'c' };
const classOf = (code: string) => CLASS[code] as string;

function line(taxonomies: [string, boolean][]): NpiActiveLine {
  return {
    npi: '1003633876',
    status: 'active',
    entity_type: 'individual',
    name: 'KYLEE FAWCETT',
    organization_name: null,
    last_name: 'FAWCETT',
    first_name: 'KYLEE',
    taxonomies: taxonomies.map(([code, primary]) => ({
      code,
      display: `${code} display`,
      primary,
      license_number: null,
      license_state: null,
    })),
    city: 'PHOENIX',
    state: 'AZ',
    postal_code: '85001',
    enumeration_date: '2010-01-01',
    last_update_date: '2024-02-03',
    oig_excluded: false,
    oig_type: null,
    oig_date: null,
    oig_checked_at: null,
  };
}

describe('orderedCodes (the search index order, etl/sources/identity-search.ts)', () => {
  it('puts the primary first, then one representative per classification by code, then the rest', () => {
    // Slots: B2, A2, A1 (primary), B1, C1. Class reps: a -> A1 (primary), b -> B2 (first slot), c -> C1.
    expect(
      orderedCodes(
        line([
          ['B2', false],
          ['A2', false],
          ['A1', true],
          ['B1', false],
          ['C1', false],
        ]),
        classOf,
      ),
    ).toEqual(['A1', 'B2', 'C1', 'A2', 'B1']);
  });

  it('without a primary, represents each classification by its first slot; a repeated code counts once', () => {
    expect(
      orderedCodes(
        line([
          ['A2', false],
          ['A1', false],
          ['A2', false],
          ['C1', false],
        ]),
        classOf,
      ),
    ).toEqual(['A2', 'C1', 'A1']);
  });
});

describe('identityRowOf', () => {
  it('shows the line with the chosen taxonomy, its display and primary flag, and the NPPES update date', () => {
    expect(
      identityRowOf(
        line([
          ['A1', true],
          ['B1', false],
        ]),
        'B1',
      ),
    ).toMatchObject({
      npi: '1003633876',
      name: 'KYLEE FAWCETT',
      taxonomy_code: 'B1',
      taxonomy_display: 'B1 display',
      is_primary: false,
      city: 'PHOENIX',
      state: 'AZ',
      checked_at: '2024-02-03',
      oig_excluded: false,
    });
  });
});

describe('searchIdentityNear (a name within a circle, over every state the circle touches)', () => {
  // Three ZIPs at two distances (two share one: ties, as every row of one ZIP has); rows in two states' results.
  const ZIPS = ['10001', '10002', '07001'];
  const MILES = [1.5, 4, 4];
  const circle: NearCircle = {
    latitude: 40.75,
    longitude: -73.99,
    zip: '10001',
    radiusMiles: 5,
    zips: () => ({ ranks: new Uint32Array(3), miles: Float64Array.from(MILES) }) as never,
    zipCodes: () => ZIPS,
    states: () => ['NJ', 'NY'],
  };
  const rowsOf = (state: string, npis: string[], zip: string) =>
    npis.map((npi) => ({ row: { npi, name: `${state} ${npi}` } as unknown as IdentityRow, zip }));
  const BY_STATE: Record<string, { row: IdentityRow; zip: string }[]> = {
    NY: [
      ...rowsOf('NY', ['1000000009', '1000000003', '1000000007'], '10002'),
      ...rowsOf('NY', ['1000000008', '1000000001'], '10001'),
    ],
    NJ: [
      ...rowsOf('NJ', ['1000000005', '1000000002', '1000000006'], '07001'),
      ...rowsOf('NJ', ['1000000004'], '10001'),
    ],
  };
  const asked: SearchQuery[] = [];
  const searchState = async (state: string, q: SearchQuery) => {
    asked.push(q);
    const found = BY_STATE[state] ?? [];
    return {
      total: found.length,
      rows: identityRowsOf(found.map((f) => f.row)),
      miles: Float64Array.from(found, (f) => q.near?.get(f.zip) as number),
    };
  };
  // Brute force: every row with its ZIP's distance, ordered by distance, then NPI.
  const all = Object.values(BY_STATE)
    .flat()
    .map((f) => ({ npi: String(f.row.npi), miles: MILES[ZIPS.indexOf(f.zip)] as number }))
    .sort((a, b) => a.miles - b.miles || (a.npi < b.npi ? -1 : 1));

  it('pages the merged rows by distance, then NPI, at every offset and limit', async () => {
    for (let limit = 1; limit <= all.length + 1; limit += 1) {
      for (let offset = 0; offset <= all.length + 1; offset += 1) {
        const page = await searchIdentityNear(
          { taxonomy: null, name: 'smi', entityType: null, circle, limit, offset },
          null,
          searchState,
        );
        const want = all.slice(offset, offset + limit);
        expect(page.total).toBe(all.length);
        expect(identityRowList(page.rows).map((r) => r.npi)).toEqual(want.map((w) => w.npi));
        expect([...page.miles]).toEqual(want.map((w) => w.miles));
      }
    }
    // Each state was asked for every match within the circle's ZIPs, the name and no state filter.
    expect(asked.every((q) => q.name === 'smi' && q.offset === 0 && q.near?.get('07001') === 4)).toBe(true);
  });
});
