/**
 * The DuckDB lifetime of a process: one in-memory instance, a small pool of reused connections, and one way to
 * run SQL: a prepared statement with every value bound, destroyed in `finally`
 * (duckdb-node-neo `api/src/DuckDBInstanceCache.ts`, `api/src/DuckDBConnection.ts`).
 *
 * File paths cannot be bound parameters of `read_parquet`, so they are inlined, but only paths that the
 * snapshot cache produced from the manifest's allow-list, and always through {@link sqlStringLiteral}.
 * As a second fence, the instance may only read inside the cache folder (`allowed_directories` with
 * `enable_external_access = false`): https://duckdb.org/docs/stable/operations_manual/securing_duckdb/overview
 */
import type {
  DuckDBConnection,
  DuckDBInstance,
  DuckDBPreparedStatement,
  DuckDBResult,
  DuckDBValueConverter,
  DuckDBVector,
} from '@duckdb/node-api';
import { bindParams, type SqlValue } from './duckdb-bind';
import { sqlStringLiteral } from './sql';

/** A typed array that {@link DuckDb.queryColumns} fills from an integer column. */
export type NumberColumn = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;
/** The constructor of a {@link NumberColumn}. */
export type NumberColumnType = new (length: number) => NumberColumn;
/**
 * A VARCHAR column that {@link DuckDb.queryColumns} reads as the UTF-8 bytes of all its values one after the other:
 * value i is `bytes[ends[i - 1] ?? 0, ends[i])`, NULL reads as an empty string.
 */
export interface TextColumn {
  bytes: Buffer;
  ends: Uint32Array;
}
/** How {@link DuckDb.queryColumns} reads a column: a typed array's constructor, or `'text'` for a {@link TextColumn}. */
export type ColumnType = NumberColumnType | 'text';

/** A JSON-safe result row (`getRowObjectsJson`: BIGINT as string, DOUBLE as number). */
export type SqlRow = Record<string, string | number | boolean | null>;

/** Options of {@link createDuckDb}. */
export interface DuckDbOptions {
  /** The only folder DuckDB may read (the Parquet cache). Without it, file access stays unrestricted. */
  allowedDirectory?: string;
  /** DuckDB worker threads. Default 2 (a Lambda has 1 to 2 vCPUs at the sizes we deploy). */
  threads?: number;
  /**
   * DuckDB memory limit. Default `128MB`: DuckDB keeps no table (the vertical layer and the loaded identity
   * partitions live in JS, `query/`) and only works while loading them: the largest need is the sort of an
   * identity partition's key columns (npi, taxonomy_code, file row number: about 5 MB per 127,000 rows).
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
   * Runs `sql` like {@link DuckDb.query} and returns its columns, one per entry of `types`, read straight from
   * DuckDB's vectors chunk by chunk: integer columns as typed arrays (no row objects: about 1 ms per 100,000
   * values; NULL reads as 0), VARCHAR columns as one Buffer each ({@link TextColumn}: no string per row is kept).
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
  // Imported here, not at module load: loading the native binding is a good part of a cold start, and a process
  // whose requests never need SQL (NPI lookups, searches) never pays it (see createLazyDuckDb).
  const { DuckDBInstance, JsonDuckDBValueConverter } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', {
    threads: String(options.threads ?? 2),
    memory_limit: options.memoryLimit ?? '128MB',
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const size = Math.max(1, options.connections ?? 4);
  const connections: DuckDBConnection[] = [];
  for (let i = 0; i < size; i += 1) connections.push(await instance.connect());
  const first = connections[0] as DuckDBConnection;
  // Parquet footers are re-read on every query otherwise; the files of a snapshot never change.
  await first.run('SET parquet_metadata_cache = true');
  // Each Parquet file is read only while it is loaded into JS (the vertical layer at snapshot load, an identity
  // partition on its first query): keeping their bytes in DuckDB's external file cache would only hold memory.
  await first.run('SET enable_external_file_cache = false');
  // DuckDB is busy only while a snapshot or partition loads; hand freed memory back to the OS soon after instead
  // of keeping up to 128 MB cached in its allocator between loads.
  // https://duckdb.org/docs/stable/configuration/overview (allocator_flush_threshold)
  await first.run("SET allocator_flush_threshold = '8MB'");
  await first.run('SET allocator_background_threads = true');
  if (options.allowedDirectory !== undefined) {
    const dir = options.allowedDirectory.endsWith('/') ? options.allowedDirectory : `${options.allowedDirectory}/`;
    await first.run(`SET allowed_directories = [${sqlStringLiteral(dir)}]`);
    await first.run('SET enable_external_access = false');
  }
  return new PooledDuckDb(instance, connections, JsonDuckDBValueConverter as DuckDBValueConverter<SqlRow[string]>);
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
    private readonly instance: DuckDBInstance,
    private readonly all: DuckDBConnection[],
    private readonly converter: DuckDBValueConverter<SqlRow[string]>,
  ) {
    this.idle = [...all];
  }

  async query(sql: string, params: readonly SqlValue[] = []): Promise<SqlRow[]> {
    // Streamed and converted chunk by chunk: neither DuckDB nor JS holds the whole result twice (loading the
    // 10,000-row vertical layer peaked 50 MB higher with a materialized result converted at once).
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
    for (const connection of this.all) connection.closeSync();
    this.instance.closeSync();
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

interface ColumnReader {
  /** Appends `count` values of `vector` as rows `first`, `first + 1`, ... */
  read(vector: DuckDBVector, count: number, first: number): void;
  finish(rows: number): NumberColumn | TextColumn;
}

/** An integer column into a typed array that grows by doubling. */
class NumberReader implements ColumnReader {
  private values: NumberColumn;

  constructor(private readonly Type: NumberColumnType) {
    this.values = new Type(2048);
  }

  read(vector: DuckDBVector, count: number, first: number): void {
    if (first + count > this.values.length) {
      const next = new this.Type(Math.max(first + count, this.values.length * 2));
      next.set(this.values as never);
      this.values = next;
    }
    const out = this.values;
    for (let i = 0; i < count; i += 1) out[first + i] = Number(vector.getItem(i) ?? 0);
  }

  finish(rows: number): NumberColumn {
    return this.values.length === rows ? this.values : this.values.slice(0, rows);
  }
}

/** A VARCHAR column into one Buffer of UTF-8 bytes with end offsets. */
class TextReader implements ColumnReader {
  private bytes = Buffer.allocUnsafeSlow(1 << 16);
  private used = 0;
  private ends = new Uint32Array(2048);

  read(vector: DuckDBVector, count: number, first: number): void {
    if (first + count > this.ends.length) {
      const next = new Uint32Array(Math.max(first + count, this.ends.length * 2));
      next.set(this.ends);
      this.ends = next;
    }
    for (let i = 0; i < count; i += 1) {
      const value = vector.getItem(i);
      if (value !== null) {
        const text = String(value);
        if (this.used + text.length * 3 > this.bytes.length) {
          const next = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.used + text.length * 3));
          this.bytes.copy(next, 0, 0, this.used);
          this.bytes = next;
        }
        this.used += this.bytes.write(text, this.used, 'utf8');
      }
      this.ends[first + i] = this.used;
    }
  }

  finish(rows: number): TextColumn {
    return { bytes: Buffer.from(this.bytes.subarray(0, this.used)), ends: this.ends.slice(0, rows) };
  }
}

/**
 * Appends row objects from converted columns: the same values as `getRowObjectsJson()`, which converts value by
 * value through a per-row visitor and costs about ten times more (230 ms against 25 ms for 10,000 rows of 34
 * columns).
 */
function appendRowObjects(rows: SqlRow[], names: readonly string[], columns: readonly SqlRow[string][][]): void {
  const count = columns[0]?.length ?? 0;
  for (let i = 0; i < count; i += 1) {
    const row: SqlRow = {};
    for (let c = 0; c < names.length; c += 1) row[names[c] as string] = (columns[c] as SqlRow[string][])[i] ?? null;
    rows.push(row);
  }
}
