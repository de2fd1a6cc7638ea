/**
 * The ETL's DuckDB: one instance per run (opened through ./open.ts), on a database file in the run's work folder so
 * that staged tables are stored compressed, and with a spill folder, so that DuckDB works within a memory limit
 * derived from the run's memory budget instead of growing with the input.
 * https://duckdb.org/docs/stable/configuration/overview
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { openDuckDb } from './open';

/**
 * The memory a build is sized for by default, in MiB: the peak RSS of the whole process (Node and DuckDB) that the
 * national NPPES file stays under (docs/data-team.md).
 */
export const DEFAULT_MEMORY_BUDGET_MB = 2048;

/** A floor for small budgets: DuckDB pins some memory per thread (the identity build runs at 256 MiB). */
const MIN_DUCKDB_MEMORY_LIMIT_MB = 256;

/**
 * DuckDB's `memory_limit` for a memory budget: half of it. The limit bounds DuckDB's buffer pool, which a large
 * file fills (the identity table's sort) before DuckDB spills; on top of it the process holds Node and DuckDB's
 * code and what DuckDB allocates outside the pool, which on the national file with the default budget takes most of
 * the other half in the identity step (DuckDB alone; docs/performance.md). DuckDB's own advice is 50-60%:
 * https://duckdb.org/docs/stable/guides/performance/how_to_tune_workloads
 */
export function duckDbMemoryLimitMb(budgetMb: number): number {
  return Math.max(MIN_DUCKDB_MEMORY_LIMIT_MB, Math.floor(budgetMb / 2));
}

/**
 * DuckDB's `memory_limit` while the parquet step's writers run side by side (etl/steps/write-base-layers.ts): a quarter
 * of the budget. Those writers hold a state's search entries and a partition's serving index in JS (hundreds of MB
 * each at national scale) beside DuckDB; with half of the budget left to DuckDB the national build went past its
 * budget in that step (docs/performance.md). DuckDB's work there (sorts of the NPI records and the search rows)
 * spills beyond the limit.
 */
export function duckDbWritersMemoryLimitMb(budgetMb: number): number {
  return Math.max(MIN_DUCKDB_MEMORY_LIMIT_MB, Math.floor(budgetMb / 4));
}

/** Sets DuckDB's `memory_limit` (a setting of the instance, whichever connection sets it). */
export async function setDuckDbMemoryLimit(connection: DuckDBConnection, mb: number): Promise<void> {
  if (!Number.isSafeInteger(mb) || mb <= 0) throw new RangeError(`memory limit must be a positive integer: ${mb}`);
  await connection.run(`SET memory_limit = '${mb}MiB'`);
}

/**
 * A memory size as MiB: `2GB`, `1536MB` or a plain number of MiB (units are binary, as in the bench's report).
 * @example parseMemorySizeMb('2GB') === 2048
 */
export function parseMemorySizeMb(text: string): number | null {
  const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*(MB|MIB|GB|GIB)?\s*$/i.exec(text);
  if (!m) return null;
  const value = Number(m[1]) * (m[2]?.toUpperCase().startsWith('G') ? 1024 : 1);
  return value > 0 ? Math.round(value) : null;
}

export interface EtlDuckDbOptions {
  workDir: string;
  /** Default: the machine's cores, at most 4. */
  threads?: number;
  /** The run's memory budget in MiB (default {@link DEFAULT_MEMORY_BUDGET_MB}); DuckDB gets half of it. */
  memoryBudgetMb?: number;
}

export interface EtlDuckDb {
  instance: DuckDBInstance;
  connection: DuckDBConnection;
  /** The `memory_limit` DuckDB was opened with, in MiB. */
  memoryLimitMb: number;
  /** The `memory_limit` while the parquet step's writers run side by side, in MiB. */
  writersMemoryLimitMb: number;
  close(): void;
}

/** Opens the run's DuckDB and applies threads, the memory limit derived from the budget, and the spill folder. */
export async function openEtlDuckDb(options: EtlDuckDbOptions): Promise<EtlDuckDb> {
  const threads = options.threads ?? Math.min(availableParallelism(), 4);
  const budgetMb = options.memoryBudgetMb ?? DEFAULT_MEMORY_BUDGET_MB;
  const memoryLimitMb = duckDbMemoryLimitMb(budgetMb);
  const db = await openDuckDb({
    path: path.join(options.workDir, 'etl.duckdb'),
    config: {
      threads: String(threads),
      memory_limit: `${memoryLimitMb}MiB`,
      // Sorts, windows and joins past the limit spill here (inside the work folder, removed with it).
      temp_directory: path.join(options.workDir, 'duckdb-tmp'),
      // Keeps file order through scans, so a staged row's rowid gives its line number in the source file.
      preserve_insertion_order: 'true',
    },
    // Query progress (the CLI's progress line) is only tracked while the progress bar is enabled; never print it.
    // These are client settings, so they are SET on the connection rather than passed as instance config.
    setup: ['SET enable_progress_bar = true', 'SET enable_progress_bar_print = false'],
  });
  return {
    instance: db.instance,
    connection: db.connections[0] as DuckDBConnection,
    memoryLimitMb,
    writersMemoryLimitMb: duckDbWritersMemoryLimitMb(budgetMb),
    close: db.close,
  };
}
