/**
 * Writes the snapshot's Parquet files into the run's work folder (uploaded afterwards by the publisher). Every file
 * selects exactly the contract's columns (layout.ts tables), cast to the contract's types, in the contract's order.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { PUBLISH_BOUNDARIES, type PublishBoundary, type Vertical } from '../../data-contracts/constants';
import { IDENTITY_TABLE, TAXONOMY_TABLE, VERTICAL_TABLE } from '../../data-contracts/layout';
import { queryNumber, queryRows, runBound } from '../../platform/duckdb/statements';
import { sqlIdentifier, sqlPath } from '../../platform/sql';
import { IDENTITY_STORED } from '../transforms/identity-stored';

/** zstd: smaller than snappy at a similar decode speed. https://duckdb.org/docs/stable/data/parquet/overview */
export const PARQUET_OPTIONS = '(FORMAT parquet, COMPRESSION zstd)' as const;

/**
 * The contract's columns of `table`, each cast to its type, in order: a COPY's select list. `stored` gives the SQL of a
 * column the source table keeps in another form (the column itself when absent).
 */
export function selectList(
  table: Readonly<Record<string, string>>,
  stored: Readonly<Record<string, { sql: string }>> = {},
): string {
  return Object.entries(table)
    .map(([name, type]) => `CAST(${stored[name]?.sql ?? sqlIdentifier(name)} AS ${type}) AS ${sqlIdentifier(name)}`)
    .join(', ');
}

export interface WrittenFile {
  file: string;
  rows: number;
}

/**
 * One file per classification key present in the `identity` table, rows sorted by taxonomy_code, state, npi.
 * The table is stored sorted by classification_key, taxonomy_code, state, npi (buildIdentityTable), so each COPY
 * reads one contiguous run of row groups and writes it in table order: with `preserve_insertion_order` (platform/duckdb/batch.ts)
 * a query without ORDER BY keeps the table's order (https://duckdb.org/docs/stable/configuration/overview), so a
 * second sort per partition would only cost time.
 */
export async function writeIdentityFiles(
  connection: DuckDBConnection,
  outDir: string,
  keys: readonly string[],
  onFile?: (done: number, total: number) => void,
): Promise<(WrittenFile & { classification_key: string })[]> {
  await mkdir(outDir, { recursive: true });
  const out: (WrittenFile & { classification_key: string })[] = [];
  for (const [i, key] of keys.entries()) {
    const file = path.join(outDir, `${i}.parquet`);
    await runBound(
      connection,
      `COPY (SELECT ${selectList(IDENTITY_TABLE, IDENTITY_STORED)} FROM identity WHERE classification_key = $1)
        TO ${sqlPath(file)} ${PARQUET_OPTIONS}`,
      [key],
    );
    const rows = await queryNumber(connection, `SELECT count(*) FROM read_parquet(${sqlPath(file)})`);
    out.push({ file, rows, classification_key: key });
    onFile?.(i + 1, keys.length);
  }
  return out;
}

export async function writeTaxonomyFile(connection: DuckDBConnection, file: string): Promise<WrittenFile> {
  await mkdir(path.dirname(file), { recursive: true });
  await connection.run(
    `COPY (SELECT ${selectList(TAXONOMY_TABLE)} FROM taxonomy ORDER BY code) TO ${sqlPath(file)} ${PARQUET_OPTIONS}`,
  );
  return { file, rows: await queryNumber(connection, 'SELECT count(*) FROM taxonomy') };
}

export interface VerticalFile extends WrittenFile {
  boundary: PublishBoundary;
  vertical: Vertical;
  state: string | null;
}

/**
 * The vertical partitions: `tracked` holds every record, `verified` the verified ones, each split by vertical and
 * state (rows sorted by entity_id).
 */
export async function writeVerticalFiles(connection: DuckDBConnection, outDir: string): Promise<VerticalFile[]> {
  await mkdir(outDir, { recursive: true });
  const out: VerticalFile[] = [];
  for (const boundary of PUBLISH_BOUNDARIES) {
    const scope = boundary === 'verified' ? "publish_tier = 'verified'" : 'true';
    const parts = await queryRows(
      connection,
      `SELECT DISTINCT vertical, state FROM vertical WHERE ${scope} ORDER BY vertical, state NULLS FIRST`,
    );
    for (const part of parts) {
      const vertical = String(part.vertical) as Vertical;
      const state = part.state === null ? null : String(part.state);
      const file = path.join(outDir, `${boundary}-${out.length}.parquet`);
      await runBound(
        connection,
        `COPY (SELECT ${selectList(VERTICAL_TABLE)} FROM vertical
          WHERE ${scope} AND vertical = $1 AND state IS NOT DISTINCT FROM $2::VARCHAR ORDER BY entity_id)
          TO ${sqlPath(file)} ${PARQUET_OPTIONS}`,
        [vertical, state],
      );
      const rows = await queryNumber(connection, `SELECT count(*) FROM read_parquet(${sqlPath(file)})`);
      out.push({ file, rows, boundary, vertical, state });
    }
  }
  return out;
}

/** Copies a table to a Parquet file as is (the screening tables kept inside the snapshot). */
export async function writeTableFile(connection: DuckDBConnection, table: 'oig_match' | 'fda_letters', file: string) {
  await mkdir(path.dirname(file), { recursive: true });
  await connection.run(`COPY (SELECT * FROM ${sqlIdentifier(table)}) TO ${sqlPath(file)} ${PARQUET_OPTIONS}`);
  return { file, rows: await queryNumber(connection, `SELECT count(*) FROM ${sqlIdentifier(table)}`) };
}
