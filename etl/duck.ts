/**
 * The ETL's DuckDB: one instance per run, on a database file in the run's work folder so that staged tables are
 * stored compressed, and with a spill folder, so that DuckDB works within a memory limit instead of growing with the
 * input. https://duckdb.org/docs/stable/configuration/overview
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { type DuckDBConnection, type DuckDBDataChunk, DuckDBInstance } from '@duckdb/node-api';
import { bindParams, type SqlValue } from '../platform/duckdb-bind';
import { sqlIdentifier } from '../platform/sql';
import { EtlInputError } from './errors';

/**
 * The memory a build is sized for by default, in MiB: the peak RSS of the whole process (Node and DuckDB) that the
 * 9-million-row national NPPES file stays under (README, "For the data team").
 */
export const DEFAULT_MEMORY_BUDGET_MB = 2048;

/** A floor for small budgets: DuckDB pins some memory per thread (the identity build ran at 256 MiB on 2M rows). */
const MIN_DUCKDB_MEMORY_LIMIT_MB = 256;

/**
 * DuckDB's `memory_limit` for a memory budget: half of it. The limit bounds DuckDB's buffer pool, which a large
 * file fills (the identity table's sort) before DuckDB spills; on top of it the process holds Node and DuckDB's
 * code (~150 MB) and what DuckDB allocates outside the pool. On the 9-million-row national file, with the 2 GB
 * default, the identity step (DuckDB alone) peaked at 1.75 GB (README, "Memory and time"). DuckDB's own advice is
 * 50-60%:
 * https://duckdb.org/docs/stable/guides/performance/how_to_tune_workloads
 */
export function duckDbMemoryLimitMb(budgetMb: number): number {
  return Math.max(MIN_DUCKDB_MEMORY_LIMIT_MB, Math.floor(budgetMb / 2));
}

/**
 * DuckDB's `memory_limit` while the parquet step's writers run side by side (etl/steps/base-layers.ts): a quarter
 * of the budget. Those writers hold a state's search entries and a partition's serving index in JS (hundreds of MB
 * each at national scale) beside DuckDB; with half of the budget left to DuckDB the national build peaked at
 * 2.26 GB in that step against a 2 GB budget. DuckDB's work there (sorts of the NPI records and the search rows)
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
  const instance = await DuckDBInstance.create(path.join(options.workDir, 'etl.duckdb'), {
    threads: String(threads),
    memory_limit: `${memoryLimitMb}MiB`,
    // Sorts, windows and joins past the limit spill here (inside the work folder, removed with it).
    temp_directory: path.join(options.workDir, 'duckdb-tmp'),
    // Keeps file order through scans, so a staged row's rowid gives its line number in the source file.
    preserve_insertion_order: 'true',
  });
  const connection = await instance.connect();
  // Query progress (the CLI's progress line) is only tracked while the progress bar is enabled; never print it.
  // These are client settings, so they are SET on the connection rather than passed as instance config.
  await connection.run('SET enable_progress_bar = true');
  await connection.run('SET enable_progress_bar_print = false');
  return {
    instance,
    connection,
    memoryLimitMb,
    writersMemoryLimitMb: duckDbWritersMemoryLimitMb(budgetMb),
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/** The column types the appender helpers write. */
export type AppendType = 'VARCHAR' | 'DOUBLE' | 'INTEGER' | 'BIGINT' | 'BOOLEAN';

/** `CREATE OR REPLACE TABLE <table> (<columns>)` from an allow-listed column table. */
export async function createTable(
  connection: DuckDBConnection,
  table: string,
  columns: Readonly<Record<string, AppendType>>,
): Promise<void> {
  const list = Object.entries(columns).map(([name, type]) => `${sqlIdentifier(name)} ${type}`);
  await connection.run(`CREATE OR REPLACE TABLE ${sqlIdentifier(table)} (${list.join(', ')})`);
}

/**
 * Appends rows to an existing table through DuckDB's appender, each value typed by `columns` (null and
 * undefined append NULL). The appender is always closed, also when a value fails.
 */
export async function appendRows<R extends object>(
  connection: DuckDBConnection,
  table: string,
  columns: Readonly<Record<string, AppendType>>,
  rows: Iterable<R>,
): Promise<void> {
  const typed = Object.entries(columns);
  const appender = await connection.createAppender(table);
  try {
    for (const row of rows) {
      for (const [name, type] of typed) {
        const v = (row as Record<string, unknown>)[name];
        if (v === null || v === undefined) appender.appendNull();
        else if (type === 'DOUBLE') appender.appendDouble(Number(v));
        else if (type === 'INTEGER') appender.appendInteger(Number(v));
        else if (type === 'BIGINT') appender.appendBigInt(BigInt(v as number | bigint | string));
        else if (type === 'BOOLEAN') appender.appendBoolean(v === true);
        else appender.appendVarchar(String(v));
      }
      appender.endRow();
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}

/** Reads of one streamed chunk's cells, by column position and row: SQL NULL is `null` in each. */
export interface ChunkCells {
  value(column: number, row: number): unknown;
  text(column: number, row: number): string | null;
  flag(column: number, row: number): boolean | null;
}

/**
 * The cells of `chunk`'s first `columns` columns, for writers that stream a large result row by row (one
 * `getItem` per cell read, nothing converted that is not read).
 * @example
 * const cells = chunkCells(chunk, COLUMNS.length);
 * for (let r = 0; r < chunk.rowCount; r += 1) writer.add({ npi: String(cells.value(0, r)), city: cells.text(4, r) });
 */
export function chunkCells(chunk: DuckDBDataChunk, columns: number): ChunkCells {
  const vectors = Array.from({ length: columns }, (_, c) => chunk.getColumnVector(c));
  const value = (column: number, row: number): unknown => vectors[column]?.getItem(row) ?? null;
  return {
    value,
    text(column, row) {
      const v = value(column, row);
      return v === null ? null : String(v);
    },
    flag(column, row) {
      const v = value(column, row);
      return v === null ? null : v === true;
    },
  };
}

/**
 * Runs a statement with every value bound ({@link bindParams}) through a prepared statement that is always destroyed.
 * @example await runBound(connection, 'DELETE FROM leie_stage WHERE src = $1', [src])
 */
export async function runBound(
  connection: DuckDBConnection,
  sql: string,
  values: readonly SqlValue[] = [],
): Promise<void> {
  const prepared = await connection.prepare(sql);
  try {
    bindParams(prepared, values);
    await prepared.run();
  } finally {
    prepared.destroySync();
  }
}

/** Runs a query with bound values and returns its rows as JSON-safe objects (BIGINT as string). */
export async function queryRows(
  connection: DuckDBConnection,
  sql: string,
  values: readonly SqlValue[] = [],
): Promise<Record<string, unknown>[]> {
  const prepared = await connection.prepare(sql);
  try {
    bindParams(prepared, values);
    const reader = await prepared.runAndReadAll();
    return reader.getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    prepared.destroySync();
  }
}

/** A one-number query. */
export async function queryNumber(
  connection: DuckDBConnection,
  sql: string,
  values: readonly SqlValue[] = [],
): Promise<number> {
  const rows = await queryRows(connection, sql, values);
  const first = rows[0];
  return first ? Number(Object.values(first)[0] ?? 0) : 0;
}

/**
 * Runs a scan of `file`, translating DuckDB's CSV errors into an `EtlInputError` naming the file (the first line of
 * DuckDB's message says what is wrong; the rest is its advice for interactive users).
 */
export async function withCsvErrors<T>(file: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof EtlInputError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    if (/CSV|sniff|csv|Invalid Input Error|Conversion Error|Invalid unicode/.test(message)) {
      const first = message.split('\n').find((l) => l.trim() !== '') ?? message;
      throw new EtlInputError(file, `not a readable CSV file: ${first.replace(/^Invalid Input Error: /, '')}`);
    }
    throw err;
  }
}

/**
 * Polls DuckDB's query progress while `run` executes and reports it; a no-op when `report` is absent.
 */
export async function withProgress<T>(
  connection: DuckDBConnection,
  report: ((percent: number, rows: number) => void) | undefined,
  run: () => Promise<T>,
): Promise<T> {
  if (!report) return run();
  const timer = setInterval(() => {
    try {
      const p = connection.progress;
      if (p.percentage >= 0) report(p.percentage, Number(p.rows_processed));
    } catch {
      // Progress is best effort: a poll between statements has nothing to report.
    }
  }, 500);
  try {
    return await run();
  } finally {
    clearInterval(timer);
  }
}
