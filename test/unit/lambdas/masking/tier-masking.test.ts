import fc from 'fast-check';
import { SIGNAL_STATUSES, type Tier } from '../../../../data-contracts/constants';
import { FREE_PROVIDER_CSV_COLUMNS } from '../../../../data-contracts/csv';
import { LOCKED_FIELD, providerFromRow, type VerticalRow } from '../../../../data-contracts/rows';
import { listProviders } from '../../../../lambdas/core/list-providers';
import { ListBodyCache, listBody, listCsv } from '../../../../lambdas/http/list-formats';
import { carriesPublishTier, resolveBoundary } from '../../../../lambdas/masking/publication-boundary';
import { maskIdentityProvider, maskProvider } from '../../../../lambdas/masking/tier-masking';
import { FAKE_KEYS, FAKE_VERSION, fakeDeps } from '../../../helpers/api-fake-deps';

/** Paid text values carry a marker, paid numbers a range no free field uses, so a leak is visible in any output. */
const PAID = 'PAID\u00a7';
const paidText = fc.option(
  fc.string({ maxLength: 12 }).map((s) => `${PAID}${s}`),
  { nil: null },
);
const paidNumber = fc.option(
  fc.integer({ min: 7_000_001, max: 7_999_999 }).map((n) => n + 0.25),
  { nil: null },
);
const text = fc.option(fc.string({ maxLength: 20 }), { nil: null });

const verticalRow: fc.Arbitrary<VerticalRow> = fc.record({
  entity_id: fc.stringMatching(/^[a-z0-9-]{1,20}$/),
  slug: fc.stringMatching(/^[a-z0-9-]{1,20}$/),
  vertical: fc.constant('glp1'),
  publish_tier: fc.constantFrom('verified', 'internal_only'),
  name: fc.string({ maxLength: 30 }),
  city: text,
  state: fc.option(fc.stringMatching(/^[A-Z]{2}$/), { nil: null }),
  business_mode: fc.constantFrom('online', 'physical', 'both'),
  latitude: fc.option(fc.integer({ min: -90, max: 90 }), { nil: null }),
  longitude: fc.option(fc.integer({ min: -180, max: 180 }), { nil: null }),
  npi: fc.option(fc.stringMatching(/^[0-6]{10}$/), { nil: null }),
  certification_status: fc.constantFrom(...SIGNAL_STATUSES),
  certification_source: paidText,
  certification_source_url: paidText,
  certification_verified_at: paidText,
  license_status: fc.constantFrom(...SIGNAL_STATUSES),
  license_source: paidText,
  license_source_url: paidText,
  license_verified_at: paidText,
  license_states_count: paidNumber,
  fda_status: fc.constantFrom(...SIGNAL_STATUSES),
  fda_source: paidText,
  fda_source_url: paidText,
  fda_verified_at: paidText,
  price_range: paidText,
  price_monthly_min: paidNumber,
  price_monthly_max: paidNumber,
  price_source: paidText,
  price_verified_at: paidText,
  oig_excluded: fc.boolean(),
  oig_type: text,
  oig_date: fc.option(fc.constant('2020-01-01'), { nil: null }),
  oig_checked_at: fc.option(fc.constant('2026-06-01T00:00:00Z'), { nil: null }),
  sample_rank: fc.string({ maxLength: 8 }),
});

const freeRequest = fc.record({
  format: fc.constantFrom('json', 'csv'),
  include: fc.constantFrom(undefined, 'tracked'),
  limit: fc.integer({ min: 1, max: 1000 }),
});

const paidFieldNames = ['certification_status', 'license_states_count', 'price_monthly_min', 'fda_source'];

describe('tier masking', () => {
  it('replaces every paid field with the LockedField on the free tier and keeps oig', () => {
    fc.assert(
      fc.property(verticalRow, (row) => {
        const masked = maskProvider(providerFromRow(row, { withPublishTier: false }), 'free');
        for (const f of ['certification', 'license', 'fda', 'price'] as const) expect(masked[f]).toEqual(LOCKED_FIELD);
        expect(masked.oig).toBeDefined();
      }),
    );
  });

  it('returns paid fields as they are on the paid tier', () => {
    fc.assert(
      fc.property(verticalRow, (row) => {
        const full = providerFromRow(row, { withPublishTier: false });
        expect(maskProvider(full, 'paid')).toEqual(full);
      }),
    );
  });

  it('never mutates its input', () => {
    fc.assert(
      fc.property(verticalRow, fc.constantFrom<Tier>('free', 'paid'), (row, tier) => {
        const input = providerFromRow(row, { withPublishTier: true });
        const before = structuredClone(input);
        const out = maskProvider(input, tier);
        if (tier === 'free' && out.oig) (out.oig as Record<string, unknown>).note = 'changed';
        expect(input).toEqual(before);
      }),
    );
  });

  it('always locks the paid fields of identity rows', () => {
    const masked = maskIdentityProvider({
      npi: '1234567893',
      name: 'A',
      layer: 'identity',
      source: 'NPPES',
      oig: { npi_match: 'none', note: 'n' },
      oig_candidate_count: 0,
      price: { range: 'x' } as never,
    });
    expect(masked.price).toEqual(LOCKED_FIELD);
    expect(masked.certification).toEqual(LOCKED_FIELD);
  });
});

describe('publication boundary', () => {
  it('is tracked only for a free key asking include=tracked in JSON', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Tier>('free', 'paid'),
        fc.constantFrom('json', 'csv'),
        fc.boolean(),
        (tier, format, includeTracked) => {
          const b = resolveBoundary({ tier, format: format as 'json' | 'csv', includeTracked });
          expect(b === 'tracked').toBe(tier === 'free' && format === 'json' && includeTracked);
          expect(carriesPublishTier(b)).toBe(b === 'tracked');
        },
      ),
    );
  });
});

describe('for any row and any free-tier request', () => {
  it('no paid value reaches the response, JSON or CSV', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(verticalRow, { minLength: 1, maxLength: 8 }), freeRequest, async (rows, req) => {
        const deps = fakeDeps({ verticalRows: rows, keys: FAKE_KEYS });
        const result = await listProviders(
          {
            credentials: { keyParam: 'free' },
            query: { vertical: 'glp1', format: req.format, include: req.include, limit: String(req.limit) },
          },
          deps,
        );
        const out =
          req.format === 'csv' ? listCsv(result, new ListBodyCache()) : JSON.stringify(listBody(result, FAKE_VERSION));
        expect(out).not.toContain(PAID);
        const paidNumbers = rows.flatMap((r) => [r.license_states_count, r.price_monthly_min, r.price_monthly_max]);
        for (const n of paidNumbers) if (n !== null) expect(out).not.toContain(String(n));
        for (const name of paidFieldNames) expect(out).not.toContain(name);
        expect(out).not.toContain('"status"');
        if (req.format === 'csv') expect(out.split('\r\n')[0]).toBe(FREE_PROVIDER_CSV_COLUMNS.join(','));
      }),
      { numRuns: 150 },
    );
  });
});

describe('for any paid request and any CSV request', () => {
  it('no internal_only record is read: the query asks for the verified boundary', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(verticalRow, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('free', 'builder', 'developer', 'enterprise'),
        fc.constantFrom('json', 'csv'),
        fc.constantFrom(undefined, 'tracked'),
        async (rows, plan, format, include) => {
          fc.pre(plan !== 'free' || format === 'csv');
          const boundaries: string[] = [];
          const deps = fakeDeps({ verticalRows: rows, keys: FAKE_KEYS, boundaries: boundaries as never });
          const result = await listProviders(
            { credentials: { keyParam: plan }, query: { vertical: 'glp1', format, include } },
            deps,
          );
          expect(boundaries).toEqual(['verified']);
          const out =
            format === 'csv' ? listCsv(result, new ListBodyCache()) : JSON.stringify(listBody(result, FAKE_VERSION));
          for (const row of rows.filter((r) => r.publish_tier !== 'verified')) {
            if (!rows.some((r) => r.publish_tier === 'verified' && r.entity_id === row.entity_id)) {
              expect(result.path === 'vertical' && result.data.some((p) => p.entity_id === row.entity_id)).toBe(false);
            }
          }
          expect(out).not.toContain('internal_only');
        },
      ),
      { numRuns: 100 },
    );
  });
});
