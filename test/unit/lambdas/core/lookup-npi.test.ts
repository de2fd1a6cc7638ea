import fc from 'fast-check';
import type { NpiLookupLine } from '../../../../data-contracts/layout';
import { LOCKED_FIELD } from '../../../../data-contracts/rows';
import { presentNpiLine } from '../../../../lambdas/core/lookup-npi';

const text = fc.option(fc.string({ maxLength: 20 }), { nil: null });
const oig = fc.record({
  oig_excluded: fc.boolean(),
  oig_type: text,
  oig_date: text,
  oig_checked_at: text,
});
const active: fc.Arbitrary<NpiLookupLine> = fc
  .record({
    npi: fc.stringMatching(/^[12][0-9]{9}$/),
    entity_type: fc.constantFrom('individual' as const, 'organization' as const),
    name: fc.string({ minLength: 1, maxLength: 30 }),
    organization_name: text,
    last_name: text,
    first_name: text,
    taxonomies: fc.array(
      fc.record({
        code: fc.stringMatching(/^[0-9A-Z]{9}X$/),
        display: text,
        primary: fc.boolean(),
        license_number: text,
        license_state: text,
      }),
      { maxLength: 15 },
    ),
    city: text,
    state: text,
    postal_code: text,
    enumeration_date: text,
    last_update_date: text,
  })
  .chain((r) => oig.map((o) => ({ ...r, ...o, status: 'active' as const })));
const deactivated: fc.Arbitrary<NpiLookupLine> = fc
  .record({ npi: fc.stringMatching(/^[12][0-9]{9}$/), deactivation_date: fc.constant('2026-06-15') })
  .chain((r) => oig.map((o) => ({ ...r, ...o, status: 'deactivated' as const })));

describe('presentNpiLine', () => {
  it('never carries a paid value: the four paid fields are always the locked placeholder', () => {
    fc.assert(
      fc.property(active, (line) => {
        const record = presentNpiLine(line) as Record<string, unknown>;
        for (const field of ['certification', 'license', 'fda', 'price']) expect(record[field]).toEqual(LOCKED_FIELD);
      }),
    );
  });

  it('gives the OIG match shape only for an excluded NPI, the no-match shape otherwise, never a clean value', () => {
    fc.assert(
      fc.property(fc.oneof(active, deactivated), (line) => {
        const { oig: field } = presentNpiLine(line);
        if (line.oig_excluded) expect(field).toMatchObject({ excluded: true, source: 'oig_leie' });
        else expect(field).toMatchObject({ npi_match: 'none' });
      }),
    );
  });

  it('does not mutate its input', () => {
    fc.assert(
      fc.property(fc.oneof(active, deactivated), (line) => {
        const before = structuredClone(line);
        presentNpiLine(line);
        expect(line).toEqual(before);
      }),
    );
  });
});
