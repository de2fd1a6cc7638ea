import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { makeNpi } from '../../../data-contracts/npi-check';
import { npiBucketFile, writeNpiBucketFiles } from '../../../etl/writers/npi-buckets';
import { BufferSource } from '../../../platform/binary/byte-source';
import { NpiIndexReader } from '../../../platform/npi-index/reader';

const recordOf = (npi: string) =>
  JSON.stringify({ npi, status: 'deactivated', deactivation_date: '2026-01-01', oig_excluded: false });

describe('NPI bucket files', () => {
  const npis = [makeNpi('100000000'), makeNpi('100000007'), makeNpi('100000123')];

  it('writes the bucket format, version 2 (record heads), as it is (a record is a byte range)', () => {
    const reader = NpiIndexReader.open(new BufferSource(npiBucketFile(npis.map(recordOf))));
    expect(reader.version).toBe(2);
    expect(npis.map((n) => (reader.find(n) as { npi: string } | null)?.npi)).toEqual(npis);
  });
});

describe('writeNpiBucketFiles', () => {
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;
  let dir: string;
  // 12 buckets of 50 NPIs (more buckets than are written at once), inserted out of NPI order.
  const all = Array.from({ length: 600 }, (_, i) => makeNpi(String(100000000 + (i % 12) * 1000 + Math.floor(i / 12))));

  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
    connection = await instance.connect();
    await connection.run('CREATE TABLE npi_lookup (bucket VARCHAR, npi VARCHAR, line VARCHAR)');
    const appender = await connection.createAppender('npi_lookup');
    for (const npi of all) {
      appender.appendVarchar(npi.slice(0, 6));
      appender.appendVarchar(npi);
      appender.appendVarchar(recordOf(npi));
      appender.endRow();
    }
    appender.closeSync();
  });
  afterAll(() => {
    connection.closeSync();
    instance.closeSync();
  });
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pf-npi-out-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes every bucket whole, listed in bucket order, while later buckets stream out', async () => {
    const written = await writeNpiBucketFiles(connection, dir);
    const buckets = [...new Set(all.map((n) => n.slice(0, 6)))].sort();
    expect(written.map((w) => w.bucket)).toEqual(buckets);
    for (const w of written) {
      const reader = NpiIndexReader.open(new BufferSource(await readFile(w.file)));
      const expected = all.filter((n) => n.startsWith(w.bucket)).sort();
      expect(reader.count).toBe(expected.length);
      expect(w.rows).toBe(expected.length);
      expect(expected.map((n) => reader.find(n))).toEqual(expected.map((n) => JSON.parse(recordOf(n))));
    }
  });

  it('fails when a bucket cannot be written, after every other write has ended', async () => {
    // A folder where the fifth bucket's file goes: its write fails (EISDIR) while others are in flight.
    const fifth = [...new Set(all.map((n) => n.slice(0, 6)))].sort()[4] as string;
    await mkdir(path.join(dir, `${fifth}.npi`));
    await expect(writeNpiBucketFiles(connection, dir)).rejects.toThrow(/EISDIR/);
  });
});
