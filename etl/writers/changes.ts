/**
 * Writes the change feed's objects into the run's work folder (uploaded afterwards by the publisher): the basis and
 * one Parquet file per month of kept changes (data-contracts/changes.ts), each selecting exactly the contract's
 * columns in the contract's order.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { CHANGES_BASIS_TABLE, CHANGES_TABLE } from '../../data-contracts/changes';
import { createTable, queryNumber, queryRows, runBound } from '../../platform/duckdb/statements';
import { encodeNpiBucket } from '../../platform/npi-index/writer';
import { sqlPath } from '../../platform/sql';
import { selectList, type WrittenFile } from './parquet';

/** The run's table of every change kept (CHANGES_TABLE columns): the previous snapshot's kept steps and the new one. */
export const KEPT_TABLE = 'changes_kept' as const;

/**
 * Rows per row group of a month partition: a roster of NPIs reads the few groups whose `npi` range holds them
 * (https://duckdb.org/docs/stable/data/parquet/tips).
 */
export const CHANGES_ROW_GROUP_SIZE = 65_536;

export async function createKeptTable(connection: DuckDBConnection): Promise<void> {
  await createTable(connection, KEPT_TABLE, CHANGES_TABLE);
}

/** Adds the rows of the previous snapshot's partitions whose step is kept (`to_snapshot` in `keptIds`). */
export async function addKeptChanges(
  connection: DuckDBConnection,
  files: readonly string[],
  keptIds: readonly string[],
): Promise<number> {
  if (files.length === 0 || keptIds.length === 0) return 0;
  const columns = Object.keys(CHANGES_TABLE).join(', ');
  const before = await queryNumber(connection, `SELECT count(*) FROM ${KEPT_TABLE}`);
  await runBound(
    connection,
    `INSERT INTO ${KEPT_TABLE} SELECT ${columns} FROM read_parquet([${files.map(sqlPath).join(', ')}])
     WHERE list_contains($1::VARCHAR[], to_snapshot)`,
    [keptIds],
  );
  return (await queryNumber(connection, `SELECT count(*) FROM ${KEPT_TABLE}`)) - before;
}

/** Adds the rows of `stepTable` with the step's snapshot ids and as-of times. */
export async function addStepChanges(
  connection: DuckDBConnection,
  stepTable: string,
  step: { from_snapshot: string; from_as_of: string; to_snapshot: string; to_as_of: string },
): Promise<void> {
  await runBound(
    connection,
    `INSERT INTO ${KEPT_TABLE}
     SELECT kind, npi, entity_id, vertical, field, old_value, new_value, $1, $2, $3, $4 FROM ${stepTable}`,
    [step.from_snapshot, step.to_snapshot, step.from_as_of, step.to_as_of],
  );
}

/**
 * Writes the basis table to `file`, sorted by NPI: the CHANGES_BASIS_TABLE columns it has (a basis carried from one
 * written before candidates has no `oig_candidates`, and must keep saying so).
 */
export async function writeBasisFile(
  connection: DuckDBConnection,
  basisTable: string,
  file: string,
): Promise<WrittenFile> {
  await mkdir(path.dirname(file), { recursive: true });
  const present = new Set((await queryRows(connection, `DESCRIBE ${basisTable}`)).map((r) => String(r.column_name)));
  const columns = Object.fromEntries(Object.entries(CHANGES_BASIS_TABLE).filter(([name]) => present.has(name)));
  await connection.run(
    `COPY (SELECT ${selectList(columns)} FROM ${basisTable} ORDER BY npi)
     TO ${sqlPath(file)} (FORMAT parquet, COMPRESSION zstd)`,
  );
  return { file, rows: await queryNumber(connection, `SELECT count(*) FROM ${basisTable}`) };
}

/**
 * One file per month of the kept changes (the month of `to_as_of`), rows sorted by npi, entity_id, kind, field, in
 * row groups of {@link CHANGES_ROW_GROUP_SIZE}. A month without a change row gets an empty file, so that every month
 * of the span has its partition.
 */
export async function writeChangesFiles(
  connection: DuckDBConnection,
  outDir: string,
  months: readonly string[],
): Promise<(WrittenFile & { month: string; npiIndex: WrittenFile })[]> {
  await mkdir(outDir, { recursive: true });
  const out: (WrittenFile & { month: string; npiIndex: WrittenFile })[] = [];
  for (const month of months) {
    const file = path.join(outDir, `${month}.parquet`);
    await runBound(
      connection,
      `COPY (SELECT ${selectList(CHANGES_TABLE)} FROM ${KEPT_TABLE} WHERE left(to_as_of, 7) = $1
        ORDER BY npi, entity_id, kind, field, old_value, new_value)
       TO ${sqlPath(file)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${CHANGES_ROW_GROUP_SIZE})`,
      [month],
    );
    const rows = await queryNumber(connection, `SELECT count(*) FROM read_parquet(${sqlPath(file)})`);
    out.push({ file, rows, month, npiIndex: await writeChangesNpiIndex(connection, outDir, month) });
  }
  return out;
}

/** The order of a roster's rows in an NPI's record: the API's order within one NPI (lambdas/query/changes.ts). */
const ROW_ORDER =
  'to_as_of, entity_id NULLS FIRST, kind, field NULLS FIRST, old_value NULLS FIRST, new_value NULLS FIRST';

/**
 * The month's roster index (data-contracts/layout.ts `changesNpiIndexKey`): one record per NPI with a change in the
 * month, its rows as JSON objects of the contract's columns, written in the NPI lookup bucket format.
 */
async function writeChangesNpiIndex(connection: DuckDBConnection, outDir: string, month: string): Promise<WrittenFile> {
  const struct = Object.keys(CHANGES_TABLE)
    .map((c) => `${c} := ${c}`)
    .join(', ');
  const grouped = await queryRows(
    connection,
    `SELECT npi, to_json(list(struct_pack(${struct}) ORDER BY ${ROW_ORDER}))::VARCHAR AS rows
     FROM ${KEPT_TABLE} WHERE left(to_as_of, 7) = $1 AND npi IS NOT NULL GROUP BY npi ORDER BY npi`,
    [month],
  );
  const file = path.join(outDir, `${month}.npi.bin`);
  await writeFile(
    file,
    encodeNpiBucket(
      grouped.map((g) => `{"npi":"${String(g.npi)}","rows":${String(g.rows)}}`),
      1,
    ),
  );
  return { file, rows: grouped.length };
}
