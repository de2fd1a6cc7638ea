/**
 * Writes the identity search indexes (platform/search-index): one file per state, from search rows (the columns of
 * transforms/search-row.ts) streamed out of DuckDB in state order; only one state is in JS memory at a time.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection, DuckDBResult } from '@duckdb/node-api';
import type { EntityType } from '../../data-contracts/constants';
import { bindParams } from '../../platform/duckdb/bind';
import { chunkCells } from '../../platform/duckdb/statements';
import { SearchIndexWriter } from '../../platform/search-index/writer';
import { IDENTITY_SEARCH_COLUMNS, LIST_SEPARATOR, type TaxonomyLookup } from '../transforms/search-row';

export interface WrittenSearchIndex {
  file: string;
  state: string;
  rows: number;
}

const STATE_PATTERN = /^[A-Z]{2}$/;

/**
 * Writes one search index per state into `outDir` from the rows of `rows` (a SELECT of the search row's columns in
 * state order, and its parameters); states that are not two letters are skipped. `taxonomy` gives each code's
 * classification and display.
 */
export async function writeSearchIndexFiles(
  connection: DuckDBConnection,
  outDir: string,
  rows: { sql: string; params: readonly (string | number)[] },
  taxonomy: TaxonomyLookup,
): Promise<WrittenSearchIndex[]> {
  await mkdir(outDir, { recursive: true });
  const out: WrittenSearchIndex[] = [];
  let writer: SearchIndexWriter | null = null;
  const flush = async () => {
    if (writer === null || writer.count === 0) return;
    const file = path.join(outDir, `${writer.state}.idx`);
    const rows = writer.count;
    await writeFile(file, writer.finish());
    out.push({ file, state: writer.state, rows });
  };
  const prepared = await connection.prepare(rows.sql);
  try {
    bindParams(prepared, rows.params);
    await writeRows(await prepared.stream());
  } finally {
    prepared.destroySync();
  }
  await flush();
  return out;

  async function writeRows(result: DuckDBResult): Promise<void> {
    for (;;) {
      const chunk = await result.fetchChunk();
      if (chunk === null || chunk.rowCount === 0) break;
      const { value, text } = chunkCells(chunk, IDENTITY_SEARCH_COLUMNS.length);
      for (let r = 0; r < chunk.rowCount; r += 1) {
        const state = String(value(0, r));
        if (!STATE_PATTERN.test(state)) continue;
        if (writer === null || writer.state !== state) {
          await flush();
          writer = new SearchIndexWriter(state);
        }
        const codes = String(value(8, r)).split(LIST_SEPARATOR);
        writer.add({
          npi: String(value(1, r)),
          entity_type: String(value(2, r)) as EntityType,
          search_name: text(3, r) ?? '',
          name: text(4, r) ?? '',
          postal_code: text(5, r),
          city: text(6, r),
          checked_at: text(7, r),
          codes,
          classes: codes.map(taxonomy.classOf),
          displays: codes.map(taxonomy.displayOf),
          primary_first: value(9, r) === true,
          oig_excluded: value(10, r) === true,
          oig_type: text(11, r),
          oig_date: text(12, r),
          oig_checked_at: text(13, r),
          oig_candidate_count: Number(value(14, r) ?? 0),
        });
      }
    }
  }
}
