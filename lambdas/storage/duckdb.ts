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
import {
  BIGINT,
  type DuckDBConnection,
  type DuckDBDataChunk,
  DuckDBInstance,
  DuckDBListValue,
  type DuckDBPreparedStatement,
  LIST,
} from '@duckdb/node-api';

/** A value that may be bound to a `?` placeholder. An array of integers binds as a `LIST(BIGINT)`. */
export type SqlValue = string | number | boolean | null | readonly number[];

/** A typed array that {@link DuckDb.queryColumns} fills from an integer column. */
export type NumberColumn = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;
/** The constructor of a {@link NumberColumn}. */
export type NumberColumnType = new (length: number) => NumberColumn;

/** A JSON-safe result row (`getRowObjectsJson`: BIGINT as string, DOUBLE as number). */
export type SqlRow = Record<string, string | number | boolean | null>;

/** Options of {@link createDuckDb}. */
export interface DuckDbOptions {
  /** The only folder DuckDB may read (the Parquet cache). Without it, file access stays unrestricted. */
  allowedDirectory?: string;
  /** DuckDB worker threads. Default 2 (a Lambda has 1 to 2 vCPUs at the sizes we deploy). */
  threads?: number;
  /**
   * DuckDB memory limit. Default `256MB`: the vertical layer lives in JS; DuckDB holds the loaded identity
   * partitions (about 100 MB at the default row budget of `query/identity-index.ts`) plus the working memory of
   * loading one (a sort of its rows). An in-memory database cannot spill, so the tables must fit.
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
   * Runs `sql` like {@link DuckDb.query} and returns its numeric columns as typed arrays, one per entry of
   * `types`, read straight from DuckDB's vectors (no row objects: about 1 ms per 100,000 values). NULL reads as 0.
   * @example const [ids] = await db.queryColumns('SELECT id::UINTEGER FROM t ORDER BY rowid', [Uint32Array])
   */
  queryColumns(sql: string, types: readonly NumberColumnType[], params?: readonly SqlValue[]): Promise<NumberColumn[]>;
  /** Runs a statement without parameters (DDL built from allow-listed identifiers only). */
  execute(sql: string): Promise<void>;
  close(): void;
}

/**
 * Quotes a string as a SQL string literal (doubling single quotes). For paths from the manifest allow-list;
 * never for request input, which is always bound.
 */
export function sqlStringLiteral(value: string): string {
  if (value.includes('\0')) throw new Error('NUL byte in a SQL literal');
  return `'${value.replace(/'/g, "''")}'`;
}

/** Quotes an identifier that the code itself generated (table names of a snapshot). */
export function sqlIdentifier(value: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(value)) throw new Error(`refused SQL identifier ${JSON.stringify(value)}`);
  return `"${value}"`;
}

/**
 * Creates the process's DuckDB. Call once per process (module scope in `handlers/`), share the result.
 * Extensions are never installed or auto-loaded: Parquet support is built into the binding.
 */
export async function createDuckDb(options: DuckDbOptions = {}): Promise<DuckDb> {
  const instance = await DuckDBInstance.create(':memory:', {
    threads: String(options.threads ?? 2),
    memory_limit: options.memoryLimit ?? '256MB',
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const size = Math.max(1, options.connections ?? 4);
  const connections: DuckDBConnection[] = [];
  for (let i = 0; i < size; i += 1) connections.push(await instance.connect());
  const first = connections[0] as DuckDBConnection;
  // Parquet footers are re-read on every query otherwise; the files of a snapshot never change.
  await first.run('SET parquet_metadata_cache = true');
  // Each Parquet file is read once (the vertical layer at snapshot load, an identity partition into its table):
  // keeping their bytes in DuckDB's external file cache would only hold memory.
  await first.run('SET enable_external_file_cache = false');
  if (options.allowedDirectory !== undefined) {
    const dir = options.allowedDirectory.endsWith('/') ? options.allowedDirectory : `${options.allowedDirectory}/`;
    await first.run(`SET allowed_directories = [${sqlStringLiteral(dir)}]`);
    await first.run('SET enable_external_access = false');
  }
  return new PooledDuckDb(instance, connections);
}

class PooledDuckDb implements DuckDb {
  private readonly idle: DuckDBConnection[];
  private readonly waiting: ((connection: DuckDBConnection) => void)[] = [];
  private closed = false;

  constructor(
    private readonly instance: DuckDBInstance,
    private readonly all: DuckDBConnection[],
  ) {
    this.idle = [...all];
  }

  async query(sql: string, params: readonly SqlValue[] = []): Promise<SqlRow[]> {
    const connection = await this.acquire();
    let statement: DuckDBPreparedStatement | undefined;
    try {
      statement = await connection.prepare(sql);
      bindAll(statement, params);
      const reader = await statement.runAndReadAll();
      return rowObjects(reader.deduplicatedColumnNames(), reader.getColumnsJson() as SqlRow[string][][]);
    } finally {
      statement?.destroySync();
      this.release(connection);
    }
  }

  async queryColumns(
    sql: string,
    types: readonly NumberColumnType[],
    params: readonly SqlValue[] = [],
  ): Promise<NumberColumn[]> {
    const connection = await this.acquire();
    let statement: DuckDBPreparedStatement | undefined;
    try {
      statement = await connection.prepare(sql);
      bindAll(statement, params);
      const result = await statement.run();
      const chunks: DuckDBDataChunk[] = [];
      for (let i = 0; i < result.chunkCount; i += 1) chunks.push(result.getChunk(i));
      const rowCount = chunks.reduce((sum, chunk) => sum + chunk.rowCount, 0);
      return types.map((Type, column) => {
        const out = new Type(rowCount);
        let at = 0;
        for (const chunk of chunks) {
          const vector = chunk.getColumnVector(column);
          for (let i = 0; i < chunk.rowCount; i += 1) out[at++] = Number(vector.getItem(i) ?? 0);
        }
        return out;
      });
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

/**
 * Row objects from converted columns: the same values as `getRowObjectsJson()`, which converts value by value
 * through a per-row visitor and costs about ten times more (230 ms against 25 ms for 10,000 rows of 34 columns).
 */
function rowObjects(names: readonly string[], columns: readonly SqlRow[string][][]): SqlRow[] {
  const count = columns[0]?.length ?? 0;
  const rows: SqlRow[] = new Array(count);
  for (let i = 0; i < count; i += 1) {
    const row: SqlRow = {};
    for (let c = 0; c < names.length; c += 1) row[names[c] as string] = (columns[c] as SqlRow[string][])[i] ?? null;
    rows[i] = row;
  }
  return rows;
}

function bindAll(statement: DuckDBPreparedStatement, params: readonly SqlValue[]): void {
  if (statement.parameterCount !== params.length) {
    throw new Error(`statement has ${statement.parameterCount} parameters, ${params.length} given`);
  }
  params.forEach((value, i) => {
    const index = i + 1;
    if (value === null) statement.bindNull(index);
    else if (typeof value === 'object') {
      statement.bindValue(index, new DuckDBListValue(value.map((v) => BigInt(v))), LIST(BIGINT));
    } else if (typeof value === 'string') statement.bindVarchar(index, value);
    else if (typeof value === 'boolean') statement.bindBoolean(index, value);
    else if (Number.isInteger(value)) statement.bindBigInt(index, BigInt(value));
    else statement.bindDouble(index, value);
  });
}
