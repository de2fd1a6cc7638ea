import fc from 'fast-check';
import type { NpiActiveLine, NpiLookupLine } from '../../../data-contracts/layout';
import {
  completeNpiRecord,
  npiActiveLineOf,
  npiRecordHead,
  npiRecordOf,
  npiRecordText,
  presentNpiLine,
} from '../../../data-contracts/npi-record';
import { LOCKED_FIELD } from '../../../data-contracts/rows';
import type { NpiRecord, OigCandidate } from '../../../data-contracts/types';

const text = fc.option(fc.string({ maxLength: 20 }), { nil: null });
const oig = fc.record({
  oig_excluded: fc.boolean(),
  oig_type: text,
  oig_date: text,
  oig_checked_at: text,
});
const place = fc.constantFrom('practice' as const, 'mailing' as const, 'both' as const, null);
/** Wire candidates, with text JSON escapes (quotes, backslashes, controls, non-ASCII). */
const candidate: fc.Arbitrary<OigCandidate> = fc.record({
  strength: fc.constantFrom('strong' as const, 'weak' as const),
  evidence: fc.record({
    last_name: fc.constantFrom('exact' as const, 'part' as const, null),
    first_name: fc.constantFrom('exact' as const, 'initial' as const, null),
    middle_name: fc.constantFrom('exact' as const, 'initial' as const, null),
    business_name: fc.constantFrom('legal' as const, 'other' as const, null),
    state: place,
    city: place,
    zip: place,
  }),
  leie: fc.record({
    entity: fc.constantFrom('individual' as const, 'organization' as const),
    last_name: fc.oneof(text, fc.constantFrom('O"BRIEN', 'MUÑOZ', 'A\\B', 'TAB\tX', '\u2028')),
    first_name: text,
    middle_name: text,
    business_name: text,
    general: text,
    specialty: text,
    city: text,
    state: text,
    zip: fc.option(fc.stringMatching(/^[0-9]{5}$/), { nil: null }),
    npi: fc.option(fc.stringMatching(/^[12][0-9]{9}$/), { nil: null }),
    exclusion_type: text,
    exclusion_date: fc.option(fc.constant('2019-03-20'), { nil: null }),
  }),
});
/** An active line's candidates: absent (as lines written before candidates), none, or some. */
const candidates: fc.Arbitrary<{ oig_candidates?: OigCandidate[] }> = fc.oneof(
  fc.constant({}),
  fc.constant({ oig_candidates: [] as OigCandidate[] }),
  fc.array(candidate, { minLength: 1, maxLength: 3 }).map((list) => ({ oig_candidates: list })),
);
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
  .chain((r) => oig.map((o) => ({ ...r, ...o, status: 'active' as const })))
  .chain((r) => candidates.map((c) => ({ ...r, ...c })));
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

describe('the stored head and its completion', () => {
  it('completes to exactly the JSON of the presented record, with its status', () => {
    fc.assert(
      fc.property(fc.oneof(active, deactivated), (line) => {
        const head = Buffer.from(npiRecordHead(line), 'utf8');
        const record = completeNpiRecord(head);
        expect(npiRecordText(record)).toBe(JSON.stringify(presentNpiLine(line)));
        // The head is a view of the bytes given, not a copy.
        expect(record.head.buffer).toBe(head.buffer);
        expect(record.status).toBe(line.status);
        expect(npiRecordOf(line)).toEqual(record);
      }),
    );
  });

  it('stores neither the locked placeholders nor the no-match note, and the OIG match only when there is one', () => {
    fc.assert(
      fc.property(fc.oneof(active, deactivated), (line) => {
        const head = JSON.parse(npiRecordHead(line)) as Record<string, unknown>;
        const listed = line.status === 'active' ? (line.oig_candidates ?? []) : [];
        for (const field of ['certification', 'license', 'fda', 'price']) expect(head).not.toHaveProperty(field);
        if (line.oig_excluded) expect(head.oig).toMatchObject({ excluded: true });
        // With candidates, the head holds its `oig` either way: the candidates follow it.
        else if (listed.length > 0) expect(head.oig).toMatchObject({ npi_match: 'none' });
        else expect(head).not.toHaveProperty('oig');
        if (listed.length > 0) expect(head.oig_candidates).toEqual(listed);
        else expect(head).not.toHaveProperty('oig_candidates');
        expect(Object.keys(head).slice(0, 2)).toEqual(['npi', 'status']);
      }),
    );
  });

  it('lists the candidates right after oig, [] when none, and never on a deactivated NPI', () => {
    fc.assert(
      fc.property(fc.oneof(active, deactivated), (line) => {
        const record = JSON.parse(npiRecordText(npiRecordOf(line))) as Record<string, unknown>;
        const keys = Object.keys(record);
        if (line.status === 'deactivated') {
          expect(record).not.toHaveProperty('oig_candidates');
          return;
        }
        expect(keys[keys.indexOf('oig') + 1]).toBe('oig_candidates');
        expect(record.oig_candidates).toEqual(line.oig_candidates ?? []);
      }),
    );
  });

  it('refuses text that is not a head (a damaged bucket) instead of answering broken JSON', () => {
    const head = npiRecordHead({
      npi: '1234567893',
      status: 'deactivated',
      deactivation_date: '2026-06-15',
      oig_excluded: false,
      oig_type: null,
      oig_date: null,
      oig_checked_at: null,
    });
    expect(completeNpiRecord(Buffer.from(head)).status).toBe('deactivated');
    for (const bad of [
      '',
      '{"npi":"1234567893"}',
      '{"npi":"1234567893","status":"retired","layer":"identity","source":"NPPES"}',
      head.slice(0, -1),
      `${head.slice(0, -1)},"x":1}`,
      // Candidates end a head with "]}": only an active one may.
      `${head.slice(0, -1)},"oig_candidates":[]}`,
      '{"rows":[]}',
    ]) {
      expect(() => completeNpiRecord(Buffer.from(bad))).toThrow(/not an NPI record head/);
    }
  });

  it('reads an active record back as the lookup line it was presented from (the identity search by npi)', () => {
    fc.assert(
      fc.property(active, (line) => {
        const record = JSON.parse(npiRecordText(npiRecordOf(line))) as NpiRecord;
        const back = npiActiveLineOf(record);
        const cell = (v: string | null) => (v === '' ? null : v);
        const { oig_candidates: listed, ...rest } = line as NpiActiveLine;
        const expected: NpiActiveLine = {
          ...rest,
          oig_type: line.oig_excluded ? cell(line.oig_type) : null,
          oig_date: line.oig_excluded ? cell(line.oig_date) : null,
          oig_checked_at: line.oig_excluded ? cell(line.oig_checked_at) : null,
          // No candidates read back as none listed, as a line written before candidates.
          ...(listed !== undefined && listed.length > 0 ? { oig_candidates: listed } : {}),
        };
        expect(back).toEqual(expected);
      }),
    );
  });
});
