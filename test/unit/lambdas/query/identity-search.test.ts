import type { NpiActiveLine } from '../../../../data-contracts/layout';
import { identityRowOf, orderedCodes } from '../../../../lambdas/query/identity-search';

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
