/**
 * Writes the identity search indexes (platform/search-index): one file per state, the rows of
 * `identitySearchSql` (./sources/identity-search.ts) streamed out of DuckDB in state order; only one state is in JS
 * memory at a time.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection, DuckDBResult } from '@duckdb/node-api';
import type { EntityType } from '../data-contracts/constants';
import { bindParams } from '../platform/duckdb-bind';
import { SearchIndexWriter } from '../platform/search-index/writer';
import { IDENTITY_SEARCH_COLUMNS, identitySearchSql, LIST_SEPARATOR } from './sources/identity-search';
import { latestNppesRowsSql } from './sources/nppes';

export interface WrittenSearchIndex {
  file: string;
  state: string;
  rows: number;
}

const STATE_PATTERN = /^[A-Z]{2}$/;

/** Writes one search index per state into `outDir` (states that are not two letters are skipped). */
export async function writeSearchIndexFiles(
  connection: DuckDBConnection,
  outDir: string,
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
  const { sql, params } = identitySearchSql(await latestNppesRowsSql(connection));
  const prepared = await connection.prepare(sql);
  try {
    bindParams(prepared, params);
    await writeRows(await prepared.stream());
  } finally {
    prepared.destroySync();
  }
  await flush();
  return out;

  async function writeRows(result: DuckDBResult): Promise<void> {
    const list = (value: unknown) => String(value).split(LIST_SEPARATOR);
    for (;;) {
      const chunk = await result.fetchChunk();
      if (chunk === null || chunk.rowCount === 0) break;
      const vectors = IDENTITY_SEARCH_COLUMNS.map((_, c) => chunk.getColumnVector(c));
      for (let r = 0; r < chunk.rowCount; r += 1) {
        const cell = (c: number) => vectors[c]?.getItem(r) ?? null;
        const state = String(cell(0));
        if (!STATE_PATTERN.test(state)) continue;
        if (writer === null || writer.state !== state) {
          await flush();
          writer = new SearchIndexWriter(state);
        }
        const text = (c: number) => {
          const v = cell(c);
          return v === null ? null : String(v);
        };
        writer.add({
          npi: String(cell(1)),
          entity_type: String(cell(2)) as EntityType,
          search_name: text(3) ?? '',
          name: text(4) ?? '',
          postal_code: text(5),
          city: text(6),
          checked_at: text(7),
          codes: list(cell(8)),
          classes: list(cell(9)),
          displays: list(cell(10)).map((d) => (d === '' ? null : d)),
          primary_first: cell(11) === true,
          oig_excluded: cell(12) === true,
          oig_type: text(13),
          oig_date: text(14),
          oig_checked_at: text(15),
        });
      }
    }
  }
}
