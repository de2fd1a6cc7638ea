/**
 * The identity serving indexes (platform/identity-index): one file per classification key, from the same
 * `identity` table as the Parquet partitions, so both hold the same rows. Each partition's rows stream out of
 * DuckDB chunk by chunk in (taxonomy_code, npi) order into the writer, each placed at its practice ZIP's rank in
 * the snapshot's ZIP table (the radius lists); only one partition is in JS memory at a time.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { IDENTITY_ROW_FIELDS } from '../../data-contracts/csv';
import { chunkCells } from '../../platform/duckdb/statements';
import type { ZipTable } from '../../platform/geo/zip-table';
import type { IdentityIndexRow } from '../../platform/identity-index/format';
import { IdentityIndexWriter } from '../../platform/identity-index/writer';
import { sqlIdentifier } from '../../platform/sql';
import { IDENTITY_STORED } from '../transforms/identity-stored';

/** The writer's columns, in this order in the query. */
const COLUMNS = [
  ...IDENTITY_ROW_FIELDS,
  'checked_at',
  'is_primary',
  'class_rep',
  'oig_excluded',
  'oig_type',
  'oig_date',
  'oig_checked_at',
  'oig_candidate_count',
  'entity_type',
] as const satisfies readonly (keyof IdentityIndexRow)[];
/** Read beside them: the row's practice ZIP, placed with the ZIP table in JS (a join per partition cost DuckDB memory). */
const PLACE_COLUMN = 'postal_code';

export interface WrittenIndex {
  file: string;
  rows: number;
  classification_key: string;
}

/** Writes the serving index of every classification key into `outDir`. */
export async function writeIdentityIndexFiles(
  connection: DuckDBConnection,
  outDir: string,
  keys: readonly string[],
  zipTable: ZipTable,
  onFile?: (done: number, total: number) => void,
): Promise<WrittenIndex[]> {
  await mkdir(outDir, { recursive: true });
  const select = [...COLUMNS, PLACE_COLUMN].map(sqlIdentifier).join(', ');
  const out: WrittenIndex[] = [];
  for (const [i, key] of keys.entries()) {
    const writer = new IdentityIndexWriter(key);
    // A ZIP's rank in the table, or null when the table has no centroid for it (not placed). Both columns are
    // read in their stored form (IDENTITY_STORED).
    const placeOf = (stored: unknown) => {
      const rank = stored === null ? -1 : zipTable.rankOfNumber(Number(stored));
      return rank < 0 ? null : rank;
    };
    const entityTypeOf = (stored: unknown) =>
      stored === null ? null : IDENTITY_STORED.entity_type.name(Number(stored));
    const prepared = await connection.prepare(
      `SELECT ${select} FROM identity WHERE classification_key = $1 ORDER BY taxonomy_code, npi`,
    );
    let rows = 0;
    let lastCode: string | null = null;
    try {
      prepared.bind([key]);
      const result = await prepared.stream();
      for (;;) {
        const chunk = await result.fetchChunk();
        if (chunk === null || chunk.rowCount === 0) break;
        const { value, text, flag } = chunkCells(chunk, COLUMNS.length + 1);
        for (let r = 0; r < chunk.rowCount; r += 1) {
          const code = String(value(2, r));
          // The writer takes a code's display from its first row: the others' are not read out of DuckDB (a long
          // string costs a native call per row).
          const display = code === lastCode ? null : text(3, r);
          lastCode = code;
          writer.add({
            npi: String(value(0, r)),
            name: text(1, r),
            taxonomy_code: code,
            taxonomy_display: display,
            city: text(4, r),
            state: text(5, r),
            checked_at: text(6, r),
            is_primary: flag(7, r),
            class_rep: flag(8, r),
            oig_excluded: flag(9, r),
            oig_type: text(10, r),
            oig_date: text(11, r),
            oig_checked_at: text(12, r),
            oig_candidate_count: Number(value(13, r) ?? 0),
            entity_type: entityTypeOf(value(14, r)),
            zip_rank: placeOf(value(15, r)),
          });
          rows += 1;
        }
      }
    } finally {
      prepared.destroySync();
    }
    const file = path.join(outDir, `${i}.idx`);
    await writeFile(file, writer.finish());
    out.push({ file, rows, classification_key: key });
    onFile?.(i + 1, keys.length);
  }
  return out;
}
