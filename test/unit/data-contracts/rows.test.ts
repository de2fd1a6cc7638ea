import fc from 'fast-check';
import { OIG_NO_MATCH_NOTE } from '../../../data-contracts/constants';
import { identityProvidersJson, identityRowsOf } from '../../../data-contracts/identity-json';
import { VERTICAL_TABLE } from '../../../data-contracts/layout';
import {
  type IdentityRow,
  identityProviderFromRow,
  LOCKED_FIELD,
  lockedField,
  oigFromRow,
  providerFromRow,
  type VerticalRow,
} from '../../../data-contracts/rows';
import { maskIdentityProvider } from '../../../lambdas/masking/tier-masking';

const baseRow = (): VerticalRow => {
  const row = Object.fromEntries(Object.keys(VERTICAL_TABLE).map((c) => [c, null])) as VerticalRow;
  return {
    ...row,
    entity_id: 'glp1-000007',
    slug: 'summit-glp1',
    vertical: 'glp1',
    publish_tier: 'internal_only',
    name: 'Summit GLP-1 Clinic',
    business_mode: 'online',
    oig_excluded: false,
  };
};

describe('oigFromRow', () => {
  it('gives the match shape with type, ISO date, source and checked_at when excluded', () => {
    expect(
      oigFromRow({
        oig_excluded: true,
        oig_type: '1128a1',
        oig_date: '2021-10-20',
        oig_checked_at: '2026-10-03T00:00:00Z',
      }),
    ).toEqual({
      excluded: true,
      type: '1128a1',
      date: '2021-10-20',
      source: 'oig_leie',
      checked_at: '2026-10-03T00:00:00Z',
    });
  });

  it.each([false, null])('gives the explicit no-match shape, never a clearance, when oig_excluded is %p', (flag) => {
    const oig = oigFromRow({ oig_excluded: flag, oig_type: null, oig_date: null, oig_checked_at: null });
    expect(oig).toEqual({ npi_match: 'none', note: OIG_NO_MATCH_NOTE });
    expect(Object.keys(oig).sort()).toEqual(['note', 'npi_match']);
  });
});

describe('providerFromRow', () => {
  it('defaults missing signals to unverified / not_screened, states_count 0 and an all-null price', () => {
    const p = providerFromRow(baseRow(), { withPublishTier: false });
    expect(p.certification).toEqual({ status: 'unverified', source: null, source_url: null, verified_at: null });
    expect(p.license).toEqual({
      status: 'unverified',
      source: null,
      source_url: null,
      verified_at: null,
      states_count: 0,
    });
    expect(p.fda).toMatchObject({ status: 'not_screened' });
    expect(p.price).toEqual({ range: null, monthly_min: null, monthly_max: null, source: null, verified_at: null });
    expect('publish_tier' in p).toBe(false);
  });

  it('carries publish_tier only when asked', () => {
    expect(providerFromRow(baseRow(), { withPublishTier: true }).publish_tier).toBe('internal_only');
  });

  it('maps numbers and signal columns field by field', () => {
    const p = providerFromRow(
      {
        ...baseRow(),
        latitude: 40.7,
        longitude: -74,
        license_status: 'flagged',
        license_states_count: 4,
        price_monthly_min: 99,
      },
      { withPublishTier: false },
    );
    expect(p.latitude).toBe(40.7);
    expect(p.longitude).toBe(-74);
    expect(p.license).toMatchObject({ status: 'flagged', states_count: 4 });
    expect(p.price).toMatchObject({ monthly_min: 99 });
  });
});

describe('identityProviderFromRow', () => {
  it('always locks the paid fields and tags the row as the NPPES identity layer', () => {
    const p = identityProviderFromRow({
      npi: '1255407482',
      name: 'BYRON WILLIAM KILGORE, MD',
      taxonomy_code: '2084P0800X',
      taxonomy_display: 'Psychiatry Physician',
      classification_key: 'psychiatry-neurology',
      is_primary: true,
      class_rep: true,
      city: 'BELVEDERE TIBURON',
      state: 'CA',
      checked_at: '2026-06-15',
      oig_excluded: true,
      oig_type: '1128b4',
      oig_date: '2013-12-19',
      oig_checked_at: '2026-10-03T00:00:00Z',
      oig_candidate_count: 2,
    });
    expect(p).toMatchObject({ layer: 'identity', source: 'NPPES', checked_at: '2026-06-15' });
    for (const f of ['certification', 'license', 'fda', 'price'] as const) expect(p[f]).toEqual(LOCKED_FIELD);
    expect(p.oig).toMatchObject({ excluded: true, type: '1128b4' });
    // The count right after `oig`: the members in wire order.
    expect(Object.keys(p).slice(9, 11)).toEqual(['oig', 'oig_candidate_count']);
    expect(p.oig_candidate_count).toBe(2);
  });

  it.each([null, 0, -1, undefined])('gives a count of 0 for a %p cell (rows written before candidates)', (cell) => {
    const row = { npi: '1255407482', name: 'A', oig_excluded: false, oig_candidate_count: cell } as IdentityRow;
    expect(identityProviderFromRow(row).oig_candidate_count).toBe(0);
  });

  it('hands out copies of the locked placeholder, so a caller cannot change the shared one', () => {
    const copy = lockedField();
    (copy as { unlock: string }).unlock = 'changed';
    expect(LOCKED_FIELD.unlock).not.toBe('changed');
    expect(LOCKED_FIELD.unlock).toMatch(/Builder.*Developer.*Enterprise.*https:\/\//);
  });
});

describe('identityProvidersJson', () => {
  const text = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.string({ unit: 'binary', maxLength: 8 }),
    fc.constantFrom('', 'O\'BRIEN "DOC"', 'a\\b', 'tab\there', 'SAN JOSÉ', '\ud800', 'line\nbreak', '</script>'),
  );
  const cell = fc.option(text, { nil: null });
  const identityRow = fc.record({
    npi: fc.oneof(fc.stringMatching(/^[0-9]{10}$/), text),
    name: cell,
    taxonomy_code: cell,
    taxonomy_display: cell,
    classification_key: cell,
    is_primary: fc.option(fc.boolean(), { nil: null }),
    class_rep: fc.option(fc.boolean(), { nil: null }),
    city: cell,
    state: cell,
    checked_at: cell,
    oig_excluded: fc.option(fc.boolean(), { nil: null }),
    oig_type: cell,
    oig_date: cell,
    oig_checked_at: cell,
    oig_candidate_count: fc.option(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 70_000 })), { nil: null }),
  }) as fc.Arbitrary<IdentityRow>;

  it('writes the bytes of JSON.stringify of the identity providers, masked, for any rows (with candidates or none)', () => {
    fc.assert(
      fc.property(fc.array(identityRow, { maxLength: 20 }), (rows) => {
        const want = JSON.stringify(rows.map((r) => maskIdentityProvider(identityProviderFromRow(r))));
        expect(identityProvidersJson(identityRowsOf(rows)).toString('utf8')).toBe(want);
      }),
      { numRuns: 500 },
    );
  });
});
