/**
 * The API's DuckDB: one in-memory instance per process (opened through ./open.ts), a small pool of reused
 * connections, and one way to run SQL: a prepared statement with every value bound, destroyed in `finally`
 * (duckdb-node-neo `api/src/DuckDBInstanceCache.ts`, `api/src/DuckDBConnection.ts`).
 *
 * File paths cannot be bound parameters of `read_parquet`, so they are inlined, but only paths that the
 * snapshot cache produced from the manifest's allow-list, and always through {@link sqlStringLiteral}.
 * As a second fence, the instance may only read inside the cache folder (`allowed_directories` with
 * `enable_external_access = false`): https://duckdb.org/docs/stable/operations_manual/securing_duckdb/overview
 */
import type { DuckDBConnection, DuckDBPreparedStatement, DuckDBResult, DuckDBValueConverter } from '@duckdb/node-api';
import { sqlStringLiteral } from '../sql';
import { bindParams, type SqlValue } from './bind';
import {
  appendRowObjects,
  type ColumnReader,
  type ColumnType,
  type NumberColumn,
  NumberReader,
  type SqlRow,
  type TextColumn,
  TextReader,
} from './columns';
import { type OpenDuckDb, openDuckDb } from './open';

export type { ColumnType, NumberColumn, NumberColumnType, SqlRow, TextColumn } from './columns';

/** Options of {@link createDuckDb}. */
export interface DuckDbOptions {
  /** The only folder DuckDB may read (the Parquet cache). Without it, file access stays unrestricted. */
  allowedDirectory?: string;
  /** DuckDB worker threads. Default 2 (a Lambda has 1 to 2 vCPUs at the sizes we deploy). */
  threads?: number;
  /**
   * DuckDB memory limit. Default `128MB`: DuckDB keeps no table (the vertical layer and the loaded identity
   * partitions live in JS, lambdas/query) and only works while loading them: the largest need is the sort of an
   * identity partition's key columns (npi, taxonomy_code, file row number: a few MB for the largest partition).
   */
  memoryLimit?: string;
  /** Connections kept open and reused. Default 4. */
  connections?: number;
}

/** The process's database: run bound SQL, run trusted setup statements, close. */
export interface DuckDb {
  /**
   * Runs `sql` as a prepared statement with `params` bound to its `?` placeholders, in order, and returns the
   * rows. The statement is destroyed whatever happens.
   * @example await db.query('SELECT name FROM t WHERE state = ? LIMIT ?', ['TX', 50])
   */
  query(sql: string, params?: readonly SqlValue[]): Promise<SqlRow[]>;
  /**
   * Runs `sql` like {@link DuckDb.query} and returns its columns, one per entry of `types`, read straight from DuckDB's
   * vectors chunk by chunk: integer columns as typed arrays (no row objects; NULL reads as 0), VARCHAR columns as one
   * Buffer each ({@link TextColumn}: no string per row is kept).
   * @example const [ids, names] = await db.queryColumns('SELECT id::UINTEGER, name FROM t', [Uint32Array, 'text'])
   */
  queryColumns(
    sql: string,
    types: readonly ColumnType[],
    params?: readonly SqlValue[],
  ): Promise<(NumberColumn | TextColumn)[]>;
  /** Runs a statement without parameters (DDL built from allow-listed identifiers only). */
  execute(sql: string): Promise<void>;
  close(): void;
}

/**
 * Creates the process's DuckDB. Call once per process (module scope in `handlers/`), share the result.
 * Extensions are never installed or auto-loaded: Parquet support is built into the binding.
 */
export async function createDuckDb(options: DuckDbOptions = {}): Promise<DuckDb> {
  const { JsonDuckDBValueConverter } = await import('@duckdb/node-api');
  const setup = [
    // Parquet footers are re-read on every query otherwise; the files of a snapshot never change.
    'SET parquet_metadata_cache = true',
    // Each Parquet file is read only while it is loaded into JS (the vertical layer at snapshot load, an identity
    // partition on its first query): keeping their bytes in DuckDB's external file cache would only hold memory.
    'SET enable_external_file_cache = false',
    // DuckDB is busy only while a snapshot or partition loads; hand freed memory back to the OS soon after instead
    // of keeping up to 128 MB cached in its allocator between loads.
    // https://duckdb.org/docs/stable/configuration/overview (allocator_flush_threshold)
    "SET allocator_flush_threshold = '8MB'",
    'SET allocator_background_threads = true',
  ];
  if (options.allowedDirectory !== undefined) {
    const dir = options.allowedDirectory.endsWith('/') ? options.allowedDirectory : `${options.allowedDirectory}/`;
    setup.push(`SET allowed_directories = [${sqlStringLiteral(dir)}]`, 'SET enable_external_access = false');
  }
  const db = await openDuckDb({
    path: ':memory:',
    config: {
      threads: String(options.threads ?? 2),
      memory_limit: options.memoryLimit ?? '128MB',
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
    },
    connections: Math.max(1, options.connections ?? 4),
    setup,
  });
  return new PooledDuckDb(db, JsonDuckDBValueConverter as DuckDBValueConverter<SqlRow[string]>);
}

/**
 * A {@link DuckDb} created on its first use (then as {@link createDuckDb} creates it): a cold instance starts
 * without loading DuckDB, and only the requests that run SQL wait for it. A failed creation is tried again.
 */
export function createLazyDuckDb(options: DuckDbOptions = {}): DuckDb {
  let db: Promise<DuckDb> | null = null;
  const get = () => {
    db ??= createDuckDb(options).catch((err: unknown) => {
      db = null;
      throw err;
    });
    return db;
  };
  return {
    query: async (sql, params) => (await get()).query(sql, params),
    queryColumns: async (sql, types, params) => (await get()).queryColumns(sql, types, params),
    execute: async (sql) => (await get()).execute(sql),
    close: () => {
      void db?.then(
        (opened) => opened.close(),
        () => undefined,
      );
    },
  };
}

class PooledDuckDb implements DuckDb {
  private readonly idle: DuckDBConnection[];
  private readonly waiting: ((connection: DuckDBConnection) => void)[] = [];
  private closed = false;

  constructor(
    private readonly db: OpenDuckDb,
    private readonly converter: DuckDBValueConverter<SqlRow[string]>,
  ) {
    this.idle = [...db.connections];
  }

  async query(sql: string, params: readonly SqlValue[] = []): Promise<SqlRow[]> {
    // Streamed and converted chunk by chunk: neither DuckDB nor JS holds the whole result twice (a materialized
    // result converted at once raised the peak of loading the vertical layer).
    return this.stream(sql, params, async (result) => {
      const names = result.deduplicatedColumnNames();
      const rows: SqlRow[] = [];
      for (;;) {
        const chunk = await result.fetchChunk();
        if (chunk === null || chunk.rowCount === 0) break;
        appendRowObjects(rows, names, chunk.convertColumns(this.converter) as SqlRow[string][][]);
      }
      return rows;
    });
  }

  async queryColumns(
    sql: string,
    types: readonly ColumnType[],
    params: readonly SqlValue[] = [],
  ): Promise<(NumberColumn | TextColumn)[]> {
    // Each chunk is converted as it arrives and then dropped: DuckDB frees a chunk only when its JS wrapper is
    // collected, so holding them all would hold the whole result natively.
    return this.stream(sql, params, async (result) => {
      const readers = types.map((type) => (type === 'text' ? new TextReader() : new NumberReader(type)));
      let rows = 0;
      for (;;) {
        const chunk = await result.fetchChunk();
        if (chunk === null || chunk.rowCount === 0) break;
        for (let column = 0; column < readers.length; column += 1) {
          (readers[column] as ColumnReader).read(chunk.getColumnVector(column), chunk.rowCount, rows);
        }
        rows += chunk.rowCount;
      }
      return readers.map((reader) => reader.finish(rows));
    });
  }

  /** Prepares `sql` on a pooled connection, binds `params`, streams the result into `consume`, then frees both. */
  private async stream<T>(
    sql: string,
    params: readonly SqlValue[],
    consume: (result: DuckDBResult) => Promise<T>,
  ): Promise<T> {
    const connection = await this.acquire();
    let statement: DuckDBPreparedStatement | undefined;
    try {
      statement = await connection.prepare(sql);
      bindParams(statement, params);
      return await consume(await statement.stream());
    } finally {
      statement?.destroySync();
      this.release(connection);
    }
  }

  async execute(sql: string): Promise<void> {
    const connection = await this.acquire();
    try {
      await connection.run(sql);
    } finally {
      this.release(connection);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  private acquire(): Promise<DuckDBConnection> {
    if (this.closed) return Promise.reject(new Error('DuckDB is closed'));
    const connection = this.idle.pop();
    if (connection) return Promise.resolve(connection);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(connection: DuckDBConnection): void {
    const next = this.waiting.shift();
    if (next) next(connection);
    else this.idle.push(connection);
  }
}
