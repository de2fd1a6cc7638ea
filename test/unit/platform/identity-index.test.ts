/**
 * The identity serving index against a brute-force filter of the same rows: random partitions (codes, states,
 * cities in mixed case, NULLs, class_rep rows spread over codes, OIG cells and candidate counts), random queries,
 * both byte sources, every version written.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { identityProvidersJson, identityRowList, identityRowsOf } from '../../../data-contracts/identity-json';
import { BufferSource } from '../../../platform/binary/byte-source';
import { FileSource } from '../../../platform/binary/file-source';
import { RUN_FENCE_EVERY } from '../../../platform/binary/run-fence';
import type { IdentityIndexRow } from '../../../platform/identity-index/format';
import { type IdentityIndexQuery, IdentityIndexReader } from '../../../platform/identity-index/reader';
import { IdentityIndexWriter } from '../../../platform/identity-index/writer';
import { indexRow } from '../../helpers/identity-index-row';

const CODES = ['163W00000X', '163WC0200X', '101Y00000X', 'ZZZ9999999'];
const STATES = ['TX', 'CA', 'NY', 'PR', 'ZZ'];
const CITIES = ['Houston', 'HOUSTON', 'Austin', 'San José', 'SAN JOSÉ', 'Ürümqi', 'x'];
const DATES = ['2021-01-04', '2024-12-31', '2025-06-30'];

const rowArb = fc.record({
  npi: fc.integer({ min: 1_000_000_000, max: 1_000_400_000 }).map(String),
  name: fc.option(
    fc.oneof(
      fc.string({ minLength: 1, maxLength: 12 }),
      fc.constantFrom('SAN JOSÉ', 'O"NEIL', 'A\\B', 'TAB\tX', '日本 クリニック'),
    ),
    { nil: null },
  ),
  code: fc.constantFrom(...CODES),
  state: fc.option(fc.constantFrom(...STATES), { nil: null }),
  city: fc.option(fc.constantFrom(...CITIES), { nil: null }),
  date: fc.option(fc.constantFrom(...DATES), { nil: null }),
  isPrimary: fc.option(fc.boolean(), { nil: null }),
  oig: fc.option(
    fc.record({
      excluded: fc.option(fc.boolean(), { nil: null }),
      type: fc.option(fc.constantFrom('1128a1', '1128b4'), { nil: null }),
      date: fc.option(fc.constantFrom('2019-03-20'), { nil: null }),
    }),
    { nil: null },
  ),
  candidates: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 70_000 })),
});

/** Rows in the writer's order, one per (npi, code), the class_rep row per NPI being its lowest code. */
type RawRow = typeof rowArb extends fc.Arbitrary<infer T> ? T : never;

function partition(raw: RawRow[]): IdentityIndexRow[] {
  const seen = new Set<string>();
  const rows: IdentityIndexRow[] = [];
  for (const r of raw) {
    const key = `${r.npi}|${r.code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push({
      npi: r.npi,
      name: r.name,
      taxonomy_code: r.code,
      taxonomy_display: r.code.startsWith('Z') ? null : `Display of ${r.code}`,
      city: r.city,
      state: r.state,
      checked_at: r.date,
      is_primary: r.isPrimary,
      class_rep: false,
      oig_excluded: r.oig === null ? false : r.oig.excluded,
      oig_type: r.oig?.type ?? null,
      oig_date: r.oig?.date ?? null,
      oig_checked_at: r.oig === null ? null : '2026-11-03T00:00:00Z',
      oig_candidate_count: r.candidates,
    });
  }
  const lowest = new Map<string, IdentityIndexRow>();
  for (const row of rows) {
    const known = lowest.get(row.npi);
    if (known === undefined || row.taxonomy_code < known.taxonomy_code) lowest.set(row.npi, row);
  }
  for (const row of lowest.values()) row.class_rep = true;
  return rows.sort((a, b) =>
    a.taxonomy_code === b.taxonomy_code
      ? a.npi.localeCompare(b.npi)
      : Buffer.compare(Buffer.from(a.taxonomy_code), Buffer.from(b.taxonomy_code)),
  );
}

function expected(rows: IdentityIndexRow[], q: IdentityIndexQuery) {
  const matches = rows
    .filter((r) => (q.code === null ? r.class_rep === true : r.taxonomy_code === q.code))
    .filter((r) => q.state === null || r.state === q.state)
    .filter((r) => q.city === null || (r.city !== null && r.city.toLowerCase() === q.city.toLowerCase()))
    .sort((a, b) => a.npi.localeCompare(b.npi));
  return { total: matches.length, rows: matches.slice(q.offset, q.offset + q.limit) };
}

const queryArb = fc.record({
  code: fc.option(fc.constantFrom(...CODES, '207Q00000X'), { nil: null }),
  state: fc.option(fc.constantFrom(...STATES, 'WY'), { nil: null }),
  city: fc.option(fc.constantFrom('houston', 'HoUsToN', 'san josé', 'SAN JOSÉ', 'ürümqi', 'X', 'Dallas'), {
    nil: null,
  }),
  limit: fc.integer({ min: 1, max: 40 }),
  offset: fc.integer({ min: 0, max: 60 }),
});

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pf-idx-unit-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('identity serving index', () => {
  it.each([4, 3, 2] as const)(
    'answers every query like a filter over the rows, from memory and from the file (version %d)',
    (version) => {
      let n = 0;
      fc.assert(
        fc.property(
          fc.array(rowArb, { minLength: 0, maxLength: 150 }),
          fc.array(queryArb, { minLength: 1, maxLength: 12 }),
          (raw, queries) => {
            const rows = partition(raw);
            const writer = new IdentityIndexWriter('nurse', version);
            for (const row of rows) writer.add(row);
            const bytes = writer.finish();
            expect(bytes.subarray(0, 8).toString('latin1')).toBe(`PFIDX\0\0${String.fromCharCode(version)}`);
            const file = path.join(dir, `${version}-${n++}.idx`);
            writeFileSync(file, bytes);
            const fileSource = new FileSource(file);
            try {
              for (const source of [new BufferSource(bytes), fileSource]) {
                const reader = IdentityIndexReader.open(source);
                expect(reader.header.version).toBe(version);
                for (const q of queries) {
                  const want = expected(rows, q);
                  const got = reader.query(q);
                  expect(got.total).toBe(want.total);
                  const page = identityRowList(got.rows);
                  // The count round-trips (saturated at 65,535) from version 4; older versions read it as 0.
                  const count = (n: number) => (version >= 4 ? Math.min(n, 65_535) : 0);
                  expect(page).toEqual(
                    want.rows.map((r) => ({
                      ...r,
                      classification_key: 'nurse',
                      oig_candidate_count: count(r.oig_candidate_count),
                    })),
                  );
                  // Written from the index's bytes, the page is the JSON of the same rows written as objects.
                  expect(identityProvidersJson(got.rows).toString()).toBe(
                    identityProvidersJson(identityRowsOf(page)).toString(),
                  );
                }
              }
            } finally {
              fileSource.close();
            }
          },
        ),
        { numRuns: 150 },
      );
    },
  );

  it('refuses rows out of order, a code split in two runs and a malformed NPI', () => {
    const row = (npi: string, code: string): IdentityIndexRow => indexRow(npi, code, { name: 'A' });
    const w1 = new IdentityIndexWriter('k');
    w1.add(row('1000000002', 'A'));
    expect(() => w1.add(row('1000000001', 'A'))).toThrow(/not ascending/);
    const w2 = new IdentityIndexWriter('k');
    w2.add(row('1000000001', 'A'));
    w2.add(row('1000000001', 'B'));
    expect(() => w2.add(row('1000000003', 'A'))).toThrow(/not contiguous/);
    expect(() => new IdentityIndexWriter('k').add(row('12345', 'A'))).toThrow(/not 10 digits/);
  });

  it('refuses a file that is not an index, or an index of a version it does not read', () => {
    expect(() => IdentityIndexReader.open(new BufferSource(Buffer.from('PAR1 not an index at all')))).toThrow(
      /not an identity serving index/,
    );
    const bytes = new IdentityIndexWriter('k').finish();
    bytes[7] = 9;
    expect(() => IdentityIndexReader.open(new BufferSource(bytes))).toThrow(
      /identity serving index version 9, this code reads versions 2, 3, 4/,
    );
  });

  it("finds each flagged row's OIG cells through the fence, in every run of entries and at their edges", () => {
    // 6,000 rows, about 2,900 flagged (so the OIG table spans many runs of RUN_FENCE_EVERY entries), the flagged ones
    // drawn so that runs start and end on flagged and unflagged records alike.
    const flagged = (i: number) => (i * 7919) % 13 < 6 || i === 0 || i === 5999;
    const rows: IdentityIndexRow[] = Array.from({ length: 6000 }, (_, i) =>
      indexRow(String(1_000_000_000 + i), '163W00000X', {
        city: `City ${i % 9}`,
        state: 'TX',
        ...(flagged(i)
          ? {
              oig_excluded: i % 2 === 0,
              oig_type: i % 2 === 0 ? `type ${i % 5}` : null,
              oig_date: i % 2 === 0 ? '2019-03-20' : null,
              oig_checked_at: '2026-11-03T00:00:00Z',
              oig_candidate_count: i % 3,
            }
          : {}),
      }),
    );
    const flaggedCount = rows.filter((_, i) => flagged(i)).length;
    expect(flaggedCount).toBeGreaterThan(5 * RUN_FENCE_EVERY);
    const writer = new IdentityIndexWriter('nurse');
    for (const row of rows) writer.add(row);
    const reader = IdentityIndexReader.open(new BufferSource(writer.finish()));
    const want = (r: IdentityIndexRow) => ({
      npi: r.npi,
      oig_excluded: r.oig_excluded,
      oig_type: r.oig_type,
      oig_candidate_count: r.oig_candidate_count,
    });
    const cells = (got: ReturnType<typeof identityRowList>) =>
      got.map((r) => ({
        npi: r.npi,
        oig_excluded: r.oig_excluded,
        oig_type: r.oig_type,
        oig_candidate_count: r.oig_candidate_count,
      }));
    // The code alone (records in order) and a city list (its clustered copy, found through the origin records).
    const all = reader.query({ code: '163W00000X', state: null, city: null, limit: 6000, offset: 0 });
    expect(cells(identityRowList(all.rows))).toEqual(rows.map(want));
    const city = reader.query({ code: '163W00000X', state: 'TX', city: 'City 4', limit: 1000, offset: 0 });
    expect(cells(identityRowList(city.rows))).toEqual(rows.filter((_, i) => i % 9 === 4).map(want));
  });

  it('reads a city list in one read of records and one of names, however its rows lie in the code', () => {
    // 2,000 rows of one code over 40 cities: a city's 50 rows are spread over the whole code's records.
    const rows: IdentityIndexRow[] = Array.from({ length: 2000 }, (_, i) =>
      indexRow(String(1_000_000_000 + i), '163W00000X', {
        name: `NAME ${i}`,
        taxonomy_display: 'Registered Nurse',
        city: `City ${i % 40}`,
        state: 'TX',
        checked_at: '2026-11-01',
        oig_excluded: i === 1207,
        oig_type: i === 1207 ? '1128a1' : null,
        oig_date: i === 1207 ? '2019-03-20' : null,
        oig_checked_at: i === 1207 ? '2026-11-03T00:00:00Z' : null,
        oig_candidate_count: i === 1247 ? 3 : 0,
      }),
    );
    const reads: number[] = [];
    const counting = (bytes: Buffer): BufferSource => {
      const source = new BufferSource(bytes);
      const slice = source.slice.bind(source);
      source.slice = (offset, length) => {
        reads.push(length);
        return slice(offset, length);
      };
      return source;
    };
    for (const version of [4, 3, 2] as const) {
      const writer = new IdentityIndexWriter('nurse', version);
      for (const row of rows) writer.add(row);
      const reader = IdentityIndexReader.open(counting(writer.finish()));
      // By code, and by classification (the class_rep rows: a posting list of places in the clustered copy).
      for (const code of ['163W00000X', null]) {
        reads.length = 0;
        const page = reader.query({ code, state: 'TX', city: 'CITY 7', limit: 50, offset: 0 });
        const got = identityRowList(page.rows);
        expect(page.total).toBe(50);
        expect(got.map((r) => r.npi)).toEqual(rows.filter((_, i) => i % 40 === 7).map((r) => r.npi));
        expect(got.find((r) => r.npi === '1000001207')).toMatchObject({ oig_excluded: true, oig_type: '1128a1' });
        // A city record's candidate count is found through its origin record, like its OIG cells.
        expect(got.find((r) => r.npi === '1000001247')).toMatchObject({
          oig_excluded: false,
          oig_candidate_count: version >= 4 ? 3 : 0,
        });
        // Version 3: the records (50 x 32 bytes) and the names in one read each; version 2 reads the posting
        // slice and the records' span over most of the code.
        const bulk = reads.filter((length) => length >= 50 * 8);
        const nameBytes = got.reduce((n, r) => n + Buffer.byteLength(String(r.name)), 0);
        if (version >= 3) expect(bulk).toEqual([50 * 32, nameBytes]);
        else expect(Math.max(...bulk)).toBeGreaterThan(1900 * 32);
      }
    }
  });
});
