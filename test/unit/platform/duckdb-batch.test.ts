import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DEFAULT_MEMORY_BUDGET_MB,
  duckDbMemoryLimitMb,
  duckDbWritersMemoryLimitMb,
  openEtlDuckDb,
  parseMemorySizeMb,
  setDuckDbMemoryLimit,
} from '../../../platform/duckdb/batch';

describe('the ETL memory budget', () => {
  it('reads sizes in MB or GB (binary units) and refuses anything else', () => {
    expect(parseMemorySizeMb('2GB')).toBe(2048);
    expect(parseMemorySizeMb('1.5gb')).toBe(1536);
    expect(parseMemorySizeMb('3072MB')).toBe(3072);
    expect(parseMemorySizeMb('2GiB')).toBe(2048);
    expect(parseMemorySizeMb('1024')).toBe(1024);
    for (const bad of ['lots', '', '0GB', '-1GB', '2TB', '2 G']) expect(parseMemorySizeMb(bad)).toBeNull();
  });

  it('gives DuckDB half of the budget, never less than 256 MiB', () => {
    expect(duckDbMemoryLimitMb(DEFAULT_MEMORY_BUDGET_MB)).toBe(1024);
    expect(duckDbMemoryLimitMb(3000)).toBe(1500);
    expect(duckDbMemoryLimitMb(300)).toBe(256);
  });

  it('gives DuckDB a quarter of the budget while the parquet writers run, never less than 256 MiB', () => {
    expect(duckDbWritersMemoryLimitMb(DEFAULT_MEMORY_BUDGET_MB)).toBe(512);
    expect(duckDbWritersMemoryLimitMb(600)).toBe(256);
  });

  it('opens DuckDB with the derived memory limit and a spill folder in the work folder', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'pf-etl-budget-'));
    const db = await openEtlDuckDb({ workDir: work, threads: 1, memoryBudgetMb: 1024 });
    try {
      const reader = await db.connection.runAndReadAll(
        "SELECT current_setting('memory_limit') AS m, current_setting('temp_directory') AS t",
      );
      expect(reader.getRowObjectsJson()[0]).toEqual({ m: '512.0 MiB', t: path.join(work, 'duckdb-tmp') });
      expect(db.memoryLimitMb).toBe(512);
      expect(db.writersMemoryLimitMb).toBe(256);
      // Set on one connection, the limit is the instance's: another connection sees it.
      await setDuckDbMemoryLimit(db.connection, db.writersMemoryLimitMb);
      const other = await db.instance.connect();
      try {
        const seen = await other.runAndReadAll("SELECT current_setting('memory_limit') AS m");
        expect(seen.getRowObjectsJson()[0]).toEqual({ m: '256.0 MiB' });
      } finally {
        other.closeSync();
      }
      await expect(setDuckDbMemoryLimit(db.connection, 0)).rejects.toThrow(RangeError);
    } finally {
      db.close();
      await rm(work, { recursive: true, force: true });
    }
  });
});
