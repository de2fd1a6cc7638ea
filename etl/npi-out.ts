/**
 * Writes the NPI lookup buckets (data-contracts/layout.ts, `npi` objects): the `npi_lookup` table's lines stream out
 * of DuckDB in NPI order, so each bucket's lines arrive together and sorted; one gzipped JSON-lines file per bucket.
 * Only one bucket (a few MB at national scale) is in JS memory at a time.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { DuckDBConnection } from '@duckdb/node-api';

const gzipAsync = promisify(gzip);

export interface WrittenNpiBucket {
  file: string;
  bucket: string;
  rows: number;
}

/** Writes one file per bucket of `npi_lookup` into `outDir`. */
export async function writeNpiBucketFiles(connection: DuckDBConnection, outDir: string): Promise<WrittenNpiBucket[]> {
  await mkdir(outDir, { recursive: true });
  const out: WrittenNpiBucket[] = [];
  let bucket: string | null = null;
  let lines: string[] = [];
  const flush = async () => {
    if (bucket === null || lines.length === 0) return;
    const file = path.join(outDir, `${bucket}.jsonl.gz`);
    await writeFile(file, await gzipAsync(Buffer.from(`${lines.join('\n')}\n`, 'utf8')));
    out.push({ file, bucket, rows: lines.length });
    lines = [];
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
      lines.push(String(texts.getItem(r)));
    }
  }
  await flush();
  return out;
}
