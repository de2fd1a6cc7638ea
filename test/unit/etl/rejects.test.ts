import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parseCsv } from '../../../etl/csv/read';
import { REJECTS_TABLE, RejectCollector } from '../../../etl/csv/rejects';
import { writeRejectsCsv } from '../../../etl/writers/rejects';
import { createTable } from '../../../platform/duckdb/statements';

describe('writeRejectsCsv', () => {
  it('writes every reject ordered by source (in REJECT_SOURCES order), file and line, and returns the count', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const out = path.join(tmpdir(), `pf-rejects-${process.pid}.csv`);
    try {
      await createTable(connection, 'rejects', REJECTS_TABLE);
      const rejects = new RejectCollector();
      const add = (source: 'nppes' | 'leie' | 'feed_providers', file: string, line: number) =>
        rejects.add({ source, file, line, reason: `r${line}`, raw: 'it\'s, "quoted"' });
      add('feed_providers', 'b.csv', 2);
      add('leie', 'a.csv', 9);
      add('nppes', 'b.csv', 3);
      add('nppes', 'a.csv', 7);
      add('nppes', 'a.csv', 5);
      await rejects.flush(connection);
      expect(await writeRejectsCsv(connection, out)).toBe(5);
      const rows = parseCsv(await readFile(out, 'utf8')).map((r) => r.fields);
      expect(rows[0]).toEqual(['source', 'file', 'line', 'reason', 'raw']);
      expect(rows.slice(1).map((r) => `${r[0]} ${r[1]} ${r[2]}`)).toEqual([
        'nppes a.csv 5',
        'nppes a.csv 7',
        'nppes b.csv 3',
        'leie a.csv 9',
        'feed_providers b.csv 2',
      ]);
      expect(rows[1]?.[4]).toBe('it\'s, "quoted"');
    } finally {
      connection.closeSync();
      instance.closeSync();
      await rm(out, { force: true });
    }
  });
});
