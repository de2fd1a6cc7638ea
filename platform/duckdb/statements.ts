/**
 * Statements on one connection, for code that holds its connection (the ETL's steps, sources and writers): tables
 * filled through DuckDB's appender, bound statements and queries, streamed chunks read cell by cell, and progress.
 */
import type { DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import { sqlIdentifier } from '../sql';
import { bindParams, type SqlValue } from './bind';

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
