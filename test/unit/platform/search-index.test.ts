/**
 * The identity search index against a brute-force filter of the same rows: random states of NPIs (names with
 * shared prefixes, long names, non-ASCII, mixed case; postal codes, cities, entity types, several codes over two
 * classifications), random queries, both byte sources.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { identityProvidersJson, identityRowList, identityRowsOf } from '../../../data-contracts/identity-json';
import type { IdentityRow } from '../../../data-contracts/rows';
import { BufferSource } from '../../../platform/binary/byte-source';
import { FileSource } from '../../../platform/binary/file-source';
import { RUN_FENCE_EVERY } from '../../../platform/binary/run-fence';
import { type SearchIndexRow, searchCityKey, searchKey } from '../../../platform/search-index/format';
import { SearchIndexReader, type SearchQuery, type SearchResult } from '../../../platform/search-index/reader';
import { SearchIndexWriter } from '../../../platform/search-index/writer';

const CLASS_OF: Record<string, string> = {
  '163W00000X': 'registered-nurse',
  '163WC0200X': 'registered-nurse',
  '101Y00000X': 'counselor',
  '101YM0800X': 'counselor',
};
const CODES = Object.keys(CLASS_OF);
const NAMES = [
  'Smith',
  'SMITHSON',
  'smithers',
  'Smyth',
  'García',
  'GARCIA',
  'Ödegaard',
  'O BRIEN',
  'Walgreens Specialty Pharmacy Of Texas',
  'WALGREENS SPECIALTY PHARMACY OF TEXAS LLC',
  'walgreens specialty pharmacy of texAS NORTH',
  'Al',
  '日本 クリニック',
];
const CITIES = ['Houston', 'HOUSTON', 'Austin', 'San José', 'SAN JOSÉ'];
const POSTALS = ['77030', '77001', '73301', null, 'ABCDE'];

const DISPLAY_OF: Record<string, string | null> = {
  '163W00000X': 'Registered Nurse',
  '163WC0200X': 'Registered Nurse, Critical Care',
  '101Y00000X': 'Counselor',
  '101YM0800X': null,
};

const rowArb = fc.record({
  npi: fc.integer({ min: 1_000_000_000, max: 1_000_000_400 }).map(String),
  entity_type: fc.constantFrom('individual' as const, 'organization' as const),
  search_name: fc.oneof(fc.constantFrom(...NAMES), fc.string({ minLength: 0, maxLength: 20 })),
  name: fc.oneof(fc.constantFrom('JANE SMITH, MD', 'Zoë "Q" Ångström', '診療所 🏥'), fc.string({ maxLength: 30 })),
  postal_code: fc.constantFrom(...POSTALS),
  city: fc.option(fc.constantFrom(...CITIES), { nil: null }),
  checked_at: fc.option(fc.constantFrom('2024-01-02', '2025-12-31'), { nil: null }),
  codes: fc.uniqueArray(fc.constantFrom(...CODES), { minLength: 1, maxLength: 4 }),
  primary_first: fc.boolean(),
  oig: fc.option(
    fc.record({
      type: fc.option(fc.constantFrom('1128a1', '1128b4'), { nil: null }),
      date: fc.option(fc.constantFrom('2013-12-19'), { nil: null }),
      checked: fc.constantFrom('2026-11-01T00:00:00Z'),
    }),
    { nil: null },
  ),
  candidates: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 70_000 })),
});

const queryArb = fc.record({
  name: fc.option(
    fc.oneof(
      fc.constantFrom('sm', 'SMI', 'smith', 'gar', 'garcía', 'ö', 'walgreens specialty pharmacy of t', 'zz', '日本'),
      fc.string({ minLength: 1, maxLength: 4 }),
    ),
    { nil: null },
  ),
  postalCode: fc.option(fc.constantFrom('77030', '77001', '99999'), { nil: null }),
  entityType: fc.option(fc.constantFrom('individual' as const, 'organization' as const), { nil: null }),
  city: fc.option(fc.constantFrom('houston', 'San José', 'Dallas'), { nil: null }),
  taxonomy: fc.option(
    fc.oneof(
      fc.constantFrom(...CODES, '207Q00000X').map((code) => ({ code })),
      fc.constantFrom('registered-nurse', 'counselor', 'nope').map((classificationKey) => ({ classificationKey })),
    ),
    { nil: null },
  ),
  limit: fc.integer({ min: 1, max: 30 }),
  offset: fc.integer({ min: 0, max: 40 }),
});

type RawRow = typeof rowArb extends fc.Arbitrary<infer T> ? T : never;

function rowsOf(raw: RawRow[]): SearchIndexRow[] {
  const byNpi = new Map(raw.map((r) => [r.npi, r]));
  return [...byNpi.values()].map(({ oig, candidates, ...r }) => ({
    ...r,
    oig_candidate_count: candidates,
    classes: r.codes.map((c) => CLASS_OF[c] as string),
    displays: r.codes.map((c) => DISPLAY_OF[c] ?? null),
    oig_excluded: oig !== null,
    oig_type: oig?.type ?? null,
    oig_date: oig?.date ?? null,
    oig_checked_at: oig?.checked ?? null,
  }));
}

/** What the index must answer, by brute force. */
/** A search's answer with its page as row objects, as {@link expected} gives it. */
function found(result: SearchResult): { total: number; rows: IdentityRow[] } {
  return { total: result.total, rows: identityRowList(result.rows) };
}

function expected(rows: SearchIndexRow[], q: SearchQuery, version: 6 | 7 = 7) {
  const key = (r: SearchIndexRow) => Buffer.from(searchKey(r.search_name), 'utf8');
  const prefix = q.name === null ? null : Buffer.from(searchKey(q.name), 'utf8');
  const sorted = [...rows].sort((a, b) => Buffer.compare(key(a), key(b)) || (a.npi < b.npi ? -1 : 1));
  const hits: IdentityRow[] = [];
  for (const r of sorted) {
    const k = key(r);
    if (prefix !== null && !(k.length >= prefix.length && k.subarray(0, prefix.length).equals(prefix))) continue;
    const postal = r.postal_code !== null && /^[0-9]{5}$/.test(r.postal_code) ? r.postal_code : null;
    if (q.postalCode !== null && postal !== q.postalCode) continue;
    if (q.entityType !== null && r.entity_type !== q.entityType) continue;
    if (q.city !== null && (r.city === null || searchCityKey(r.city) !== searchCityKey(q.city))) continue;
    const t = q.taxonomy;
    const code =
      t === null
        ? r.codes[0]
        : 'code' in t
          ? r.codes.find((c) => c === t.code)
          : r.codes.find((c) => CLASS_OF[c] === t.classificationKey);
    if (code === undefined) continue;
    hits.push({
      npi: r.npi,
      name: r.name,
      taxonomy_code: code,
      taxonomy_display: DISPLAY_OF[code] ?? null,
      classification_key: CLASS_OF[code] as string,
      is_primary: code === r.codes[0] && r.primary_first,
      class_rep: null,
      city: r.city === '' ? null : r.city,
      state: 'TX',
      checked_at: r.checked_at,
      oig_excluded: r.oig_excluded,
      oig_type: r.oig_excluded ? r.oig_type : null,
      oig_date: r.oig_excluded ? r.oig_date : null,
      oig_checked_at: r.oig_excluded ? r.oig_checked_at : null,
      // Saturated at 65,535; a version 6 index has no count.
      oig_candidate_count: version === 7 ? Math.min(r.oig_candidate_count, 65_535) : 0,
    });
  }
  return { total: hits.length, rows: hits.slice(q.offset, q.offset + q.limit) };
}

/** The row fields the fixed cases do not care about (one code, with its display). */
const EXTRA = {
  name: 'X',
  checked_at: null,
  displays: ['Pharmacy'],
  primary_first: true,
  oig_excluded: false,
  oig_type: null,
  oig_date: null,
  oig_checked_at: null,
  oig_candidate_count: 0,
};

describe('identity search index', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pf-search-index-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([7, 6] as const)(
    'answers every name and postal-code search exactly as a brute-force filter, from memory and from a file (version %d)',
    (version) => {
      let file = 0;
      fc.assert(
        fc.property(
          fc.array(rowArb, { minLength: 0, maxLength: 120 }),
          fc.array(queryArb, { minLength: 1, maxLength: 12 }),
          (raw, queries) => {
            const rows = rowsOf(raw);
            const writer = new SearchIndexWriter('TX', version);
            for (const row of rows) writer.add(row);
            const bytes = writer.finish();
            const where = path.join(dir, `${version}-${file++}.bin`);
            writeFileSync(where, bytes);
            const fromFile = new FileSource(where);
            try {
              for (const source of [new BufferSource(bytes), fromFile]) {
                const reader = SearchIndexReader.open(source);
                expect(reader.entries).toBe(rows.length);
                expect(reader.header.version).toBe(version);
                for (const q of queries) {
                  const query = q.name === null && q.postalCode === null ? { ...q, name: 'sm' } : q;
                  const result = reader.search(query);
                  expect(found(result)).toEqual(expected(rows, query, version));
                  // The page written from the index's bytes is the JSON its row objects give.
                  const objects = identityRowsOf(identityRowList(result.rows));
                  expect(identityProvidersJson(result.rows).toString('utf8')).toBe(
                    identityProvidersJson(objects).toString('utf8'),
                  );
                }
              }
            } finally {
              fromFile.close();
            }
          },
        ),
        { numRuns: 150 },
      );
    },
  );

  it('finds the bounds of every range across many fences (thousands of entries), for names and postal codes', () => {
    const letters = 'abcdz';
    const rows: SearchIndexRow[] = Array.from({ length: 3000 }, (_, i) => ({
      ...EXTRA,
      npi: String(1_000_000_000 + i),
      entity_type: 'individual' as const,
      // Names from a small alphabet: long runs share a prefix, so ranges span several fences.
      search_name: `${letters[i % 5]}${letters[(i * 7) % 5]}${letters[(i * 13) % 4]} ${i}`,
      postal_code: ['77001', '77030', '73301', null][(i * 11) % 4] as string | null,
      city: null,
      codes: ['163W00000X'],
      classes: ['registered-nurse'],
      displays: ['Registered Nurse'],
    }));
    const writer = new SearchIndexWriter('TX');
    for (const row of rows) writer.add(row);
    const reader = SearchIndexReader.open(new BufferSource(writer.finish()));
    const base = { name: null, postalCode: null, entityType: null, city: null, taxonomy: null, limit: 7, offset: 0 };
    for (const a of letters) {
      for (const b of `${letters}x`) {
        for (const offset of [0, 300]) {
          const q = { ...base, name: `${a}${b}`, offset };
          expect(found(reader.search(q))).toEqual(expected(rows, q));
        }
      }
    }
    for (const postalCode of ['77001', '77030', '73301', '00000', '99999']) {
      for (const offset of [0, 500, 749]) {
        const q = { ...base, postalCode, offset };
        expect(found(reader.search(q))).toEqual(expected(rows, q));
      }
    }
  });

  it("finds each flagged NPI's OIG cells through the fence, in every run of entries and at their edges", () => {
    // 3,000 NPIs, spaced apart, about 1,400 flagged in the LEIE or with possible matches: the OIG entries span many
    // runs of the fence, which start and end on flagged and unflagged NPIs alike.
    const flagged = (i: number) => (i * 7919) % 13 < 6 || i === 0 || i === 2999;
    const rows: SearchIndexRow[] = Array.from({ length: 3000 }, (_, i) => ({
      ...EXTRA,
      npi: String(1_000_000_000 + i * 37),
      entity_type: 'individual' as const,
      search_name: `name ${i}`,
      postal_code: '77001',
      city: null,
      codes: ['163W00000X'],
      classes: ['registered-nurse'],
      displays: ['Registered Nurse'],
      ...(flagged(i)
        ? {
            oig_excluded: i % 3 !== 0,
            oig_type: i % 3 !== 0 ? `type ${i % 5}` : null,
            oig_date: i % 3 !== 0 ? '2019-03-20' : null,
            oig_checked_at: i % 3 !== 0 ? '2026-11-01T00:00:00Z' : null,
            oig_candidate_count: i % 3 === 0 ? 1 + (i % 4) : i % 2,
          }
        : {}),
    }));
    expect(rows.filter((_, i) => flagged(i)).length).toBeGreaterThan(40 * RUN_FENCE_EVERY);
    const writer = new SearchIndexWriter('TX');
    for (const row of rows) writer.add(row);
    const reader = SearchIndexReader.open(new BufferSource(writer.finish()));
    const q = { name: null, postalCode: '77001', entityType: null, city: null, taxonomy: null, limit: 3000, offset: 0 };
    const got = found(reader.search(q));
    expect(got.total).toBe(3000);
    expect(got).toEqual(expected(rows, q));
  });

  it('finds a long prefix past the 16 bytes an entry holds, and only names that continue it', () => {
    const writer = new SearchIndexWriter('TX');
    const names = [
      'Walgreens Specialty Pharmacy Of Texas',
      'Walgreens Specialty Pharmacy Of Utah',
      'Walgreens Specialty',
    ];
    for (const [i, search_name] of names.entries()) {
      writer.add({
        npi: String(1_000_000_000 + i),
        entity_type: 'organization',
        search_name,
        postal_code: null,
        city: null,
        codes: ['3336C0003X'],
        classes: ['pharmacy'],
        ...EXTRA,
      });
    }
    const reader = SearchIndexReader.open(new BufferSource(writer.finish()));
    const q = { postalCode: null, entityType: null, city: null, taxonomy: null, limit: 10, offset: 0 };
    expect(
      identityRowList(reader.search({ ...q, name: 'WALGREENS SPECIALTY PHARMACY OF T' }).rows).map((h) => h.npi),
    ).toEqual(['1000000000']);
    expect(reader.search({ ...q, name: 'walgreens  specialty' }).total).toBe(3);
    expect(reader.search({ ...q, name: 'walgreens specialty pharmacy of texas inc' }).total).toBe(0);
  });

  it('refuses a file that is not a search index, and a search with neither a name nor a postal code', () => {
    expect(() => SearchIndexReader.open(new BufferSource(Buffer.from('PFIDX\0\0\x02 not this')))).toThrow(
      'not a search index',
    );
    const reader = SearchIndexReader.open(new BufferSource(new SearchIndexWriter('TX').finish()));
    const query: SearchQuery = {
      name: 'sm',
      postalCode: null,
      entityType: null,
      city: null,
      taxonomy: null,
      limit: 5,
      offset: 0,
    };
    expect(found(reader.search(query))).toEqual({ total: 0, rows: [] });
    expect(() => reader.search({ ...query, name: null })).toThrow('needs a name prefix or a postal code');
  });

  it('refuses rows it cannot index: a malformed NPI, no codes', () => {
    const writer = new SearchIndexWriter('TX');
    const row = {
      npi: '123',
      entity_type: 'individual' as const,
      search_name: 'x',
      postal_code: null,
      city: null,
      codes: ['A'],
      classes: ['a'],
      ...EXTRA,
    };
    expect(() => writer.add(row)).toThrow('not 10 digits');
    expect(() => writer.add({ ...row, npi: '1234567893', codes: [], classes: [], displays: [] })).toThrow('codes');
  });
});
