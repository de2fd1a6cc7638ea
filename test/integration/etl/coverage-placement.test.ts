/**
 * The placement figures of coverage.json (etl/writers/coverage.ts) on identity rows written to Parquet by a real
 * DuckDB: every branch (placed, a ZIP without a centroid, no postal code), an NPI on several rows counted once, and
 * the figures adding up to the layer's NPI count. build-demo.test.ts checks them on the real NPPES samples.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { computeIdentityLayer, computePlacement } from '../../../etl/writers/coverage';
import { encodeZipTable, ZipTable } from '../../../platform/geo/zip-table';
import { tempDir } from './helpers';

const TABLE = ZipTable.decode(
  encodeZipTable(
    [
      { zip: '10001', latitude: 40.75065, longitude: -73.997293, state: 'NY' },
      { zip: '02134', latitude: 42.359456, longitude: -71.130544, state: 'MA' },
      { zip: '73301', latitude: 30.2672, longitude: -97.7431, state: 'TX' },
    ],
    { source: 'test-zips@1', as_of: '2026-01-02' },
  ),
);

/** Identity rows: [npi, taxonomy_code, state, postal_code]. */
const ROWS: [string, string, string | null, string | null][] = [
  ['1000000001', '207Q00000X', 'NY', '10001'],
  ['1000000001', '208D00000X', 'NY', '10001'], // a second taxonomy of the same NPI: counted once
  ['1000000002', '207Q00000X', 'MA', '02134'], // a leading zero kept
  ['1000000003', '163W00000X', 'NM', '87131'], // a single-building ZIP: no centroid
  ['1000000004', '163W00000X', 'NE', '68198'],
  ['1000000004', '207Q00000X', 'NE', '68198'],
  ['1000000005', '207Q00000X', 'TX', null], // no postal code
  ['1000000006', '207Q00000X', null, null],
];

describe('the placement figures of the identity layer', () => {
  let dir: string;
  let instance: DuckDBInstance;
  let connection: Awaited<ReturnType<DuckDBInstance['connect']>>;
  let files: string[];

  beforeAll(async () => {
    dir = await tempDir('pf-placement-');
    instance = await DuckDBInstance.create(':memory:');
    connection = await instance.connect();
    await connection.run(
      'CREATE TABLE identity (npi VARCHAR, taxonomy_code VARCHAR, state VARCHAR, postal_code VARCHAR)',
    );
    const appender = await connection.createAppender('identity');
    for (const row of ROWS) {
      for (const v of row) {
        if (v === null) appender.appendNull();
        else appender.appendVarchar(v);
      }
      appender.endRow();
    }
    appender.closeSync();
    // Two partitions, as the identity layer has: an NPI's rows may lie in both.
    files = [path.join(dir, 'a.parquet'), path.join(dir, 'b.parquet')];
    await connection.run(
      `COPY (SELECT * FROM identity WHERE taxonomy_code = '207Q00000X') TO '${files[0]}' (FORMAT parquet)`,
    );
    await connection.run(
      `COPY (SELECT * FROM identity WHERE taxonomy_code <> '207Q00000X') TO '${files[1]}' (FORMAT parquet)`,
    );
  });

  afterAll(async () => {
    connection?.closeSync();
    instance?.closeSync();
    await rm(dir, { recursive: true, force: true });
  });

  it('counts each NPI once: placed when its ZIP has a centroid, not placed when not, and without a postal code', async () => {
    expect(await computePlacement(connection, files, TABLE)).toEqual({
      placed: 2,
      not_placed: 2,
      no_postal_code: 2,
      zip_table: { source: 'test-zips@1', as_of: '2026-01-02', zips: 3 },
    });
  });

  it('adds up to the identity layer’s NPI count, and is left out without a ZIP table', async () => {
    const layer = await computeIdentityLayer(connection, files, TABLE);
    const p = layer.placement;
    expect(layer.total).toBe(6);
    expect((p?.placed ?? 0) + (p?.not_placed ?? 0) + (p?.no_postal_code ?? 0)).toBe(layer.total);
    expect(await computeIdentityLayer(connection, files)).toEqual({ total: 6, states: 5, taxonomies: 3 });
  });

  it('is all zeros for an empty identity layer, with the ZIP table still named', async () => {
    expect(await computeIdentityLayer(connection, [], TABLE)).toEqual({
      total: 0,
      states: 0,
      taxonomies: 0,
      placement: {
        placed: 0,
        not_placed: 0,
        no_postal_code: 0,
        zip_table: { source: 'test-zips@1', as_of: '2026-01-02', zips: 3 },
      },
    });
  });
});
