/**
 * Writes the NPI lookup buckets (data-contracts/layout.ts, `npi` objects; format: platform/npi-index/format.ts):
 * the `npi_lookup` table's records stream out of DuckDB in NPI order, so each bucket's records arrive together and
 * sorted; one bucket file per bucket, stored as it is (not gzipped: the API reads a record as a byte range of it,
 * docs/read-in-place.md). Only one bucket (a few hundred KB at national scale) is in JS memory at a time.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { NPI_LOOKUP_BUCKET_VERSION } from '../../platform/npi-index/format';
import { encodeNpiBucket } from '../../platform/npi-index/writer';
import { allOrFirstError } from '../../platform/settle';

export interface WrittenNpiBucket {
  file: string;
  bucket: string;
  rows: number;
}

/** The bucket file of `records` (NPI record heads, data-contracts/npi-record.ts, in NPI order). */
export function npiBucketFile(records: readonly string[]): Buffer {
  return encodeNpiBucket(records, NPI_LOOKUP_BUCKET_VERSION);
}

/**
 * Buckets being written at once, at most: the writes run on libuv's threads, so the next buckets stream out of
 * DuckDB meanwhile. Bounded, so that the records held are a few buckets' worth.
 */
const BUCKETS_IN_FLIGHT = 2;

/** Writes one file per bucket of `npi_lookup` into `outDir`. */
export async function writeNpiBucketFiles(connection: DuckDBConnection, outDir: string): Promise<WrittenNpiBucket[]> {
  await mkdir(outDir, { recursive: true });
  const out: WrittenNpiBucket[] = [];
  const inFlight: Promise<void>[] = [];
  let bucket: string | null = null;
  let records: string[] = [];
  const flush = async () => {
    if (bucket === null || records.length === 0) return;
    const file = path.join(outDir, `${bucket}.npi`);
    const written = { file, bucket, rows: records.length };
    const held = records;
    records = [];
    // In bucket order whatever order the writes end in.
    out.push(written);
    while (inFlight.length >= BUCKETS_IN_FLIGHT) await inFlight.shift();
    const write = writeFile(file, npiBucketFile(held));
    // Handled here too, so that a write failing before its turn to be awaited is not an unhandled rejection.
    write.catch(() => {});
    inFlight.push(write);
  };
  try {
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
  } catch (err) {
    // Every write ends before this throws: none outlives the run's work folder.
    await Promise.allSettled(inFlight);
    throw err;
  }
  await allOrFirstError(inFlight);
  return out;
}
