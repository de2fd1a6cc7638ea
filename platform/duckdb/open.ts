/**
 * The one DuckDB lifetime of both wings: an instance opened with its settings, its connections, the statements that
 * set it up, and one close for all. The API's pooled in-memory database (./pool.ts) and the ETL's database on disk
 * (./batch.ts) are opened through it, each with its own settings.
 * https://duckdb.org/docs/stable/configuration/overview
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

export interface DuckDbSetup {
  /** `:memory:`, or the database file. */
  path: string;
  /** Instance settings (`DuckDBInstance.create`'s options: DuckDB's configuration names, values as text). */
  config: Readonly<Record<string, string>>;
  /** Connections to open. Default 1. */
  connections?: number;
  /** Statements run in order on the first connection once all are open (`SET` of what is not instance config). */
  setup?: readonly string[];
}

/** An open DuckDB: its instance and connections (the first one set up), closed together. */
export interface OpenDuckDb {
  instance: DuckDBInstance;
  /** At least one. */
  connections: readonly DuckDBConnection[];
  /** Closes every connection, then the instance; later calls do nothing. */
  close(): void;
}

/**
 * Opens an instance with `config`, opens its connections and runs `setup` on the first.
 * @example const db = await openDuckDb({ path: ':memory:', config: { threads: '2' }, setup: ['SET ...'] });
 */
export async function openDuckDb(options: DuckDbSetup): Promise<OpenDuckDb> {
  // Imported here, not at module load: loading the native binding is a good part of a cold start, and a process
  // whose requests never need SQL (NPI lookups, searches) never pays it (see createLazyDuckDb in ./pool.ts).
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(options.path, { ...options.config });
  const connections: DuckDBConnection[] = [];
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    for (const connection of connections) connection.closeSync();
    instance.closeSync();
  };
  try {
    const count = Math.max(1, options.connections ?? 1);
    for (let i = 0; i < count; i += 1) connections.push(await instance.connect());
    const first = connections[0] as DuckDBConnection;
    for (const statement of options.setup ?? []) await first.run(statement);
  } catch (err) {
    close();
    throw err;
  }
  return { instance, connections, close };
}
