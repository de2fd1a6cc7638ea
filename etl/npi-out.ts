/**
 * Writes the NPI lookup buckets (data-contracts/layout.ts, `npi` objects; format: platform/npi-index/format.ts):
 * the `npi_lookup` table's records stream out of DuckDB in NPI order, so each bucket's records arrive together and
 * sorted; one gzipped bucket file per bucket. Only one bucket (a few hundred KB at national scale) is in JS memory
 * at a time.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { DuckDBConnection } from '@duckdb/node-api';
import { encodeNpiBucket } from '../platform/npi-index/writer';

const gzipAsync = promisify(gzip);

export interface WrittenNpiBucket {
  file: string;
  bucket: string;
  rows: number;
}

/** The gzipped bucket file of `records` (NpiLookupLine JSON texts in NPI order). */
export async function gzippedNpiBucket(records: readonly string[]): Promise<Buffer> {
  return gzipAsync(encodeNpiBucket(records), { level: 6 });
}

/** Writes one file per bucket of `npi_lookup` into `outDir`. */
export async function writeNpiBucketFiles(connection: DuckDBConnection, outDir: string): Promise<WrittenNpiBucket[]> {
  await mkdir(outDir, { recursive: true });
  const out: WrittenNpiBucket[] = [];
  let bucket: string | null = null;
  let records: string[] = [];
  const flush = async () => {
    if (bucket === null || records.length === 0) return;
    const file = path.join(outDir, `${bucket}.npi.gz`);
    await writeFile(file, await gzippedNpiBucket(records));
    out.push({ file, bucket, rows: records.length });
    records = [];
  };
  const result = await connection.stream('SELECT bucket, line FROM npi_lookup ORDER BY npi');
  for (;;) {
    const chunk = await result.fetchChunk();
    if (chunk === null || chunk.rowCount === 0) break;
    const buckets = chunk.getColumnVector(0);
    const texts = chunk.getColumnVector(1);
    for (let r = 0; r < chunk.rowCount; r += 1) {
      const b = String(buckets.getItem(r));
      if (b !== bucket) {
        await flush();
        bucket = b;
      }
      records.push(String(texts.getItem(r)));
    }
  }
  await flush();
  return out;
}
