/**
 * A full build's base layers, written by the parquet step from the tables the identity step built: the identity
 * partitions, their serving indexes, the NPI lookup buckets, the search indexes, the taxonomy map and the ZIP table.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  identityIndexKey,
  identityPartitionKey,
  npiBucketKey,
  searchIndexKey,
  taxonomyKey,
  zipTableKey,
} from '../../data-contracts/layout';
import { setDuckDbMemoryLimit } from '../../platform/duckdb/batch';
import { ZipTable } from '../../platform/geo/zip-table';
import { allOrFirstError } from '../../platform/settle';
import { CONTENT_TYPES } from '../../platform/snapshot-protocol';
import { identitySearchSql, readTaxonomyLookup } from '../sources/identity-search';
import { latestNppesRowsSql } from '../sources/nppes-staged';
import { writeIdentityIndexFiles } from '../writers/identity-index';
import { writeNpiBucketFiles } from '../writers/npi-buckets';
import { writeIdentityFiles, writeTaxonomyFile } from '../writers/parquet';
import { writeSearchIndexFiles } from '../writers/search-index';
import type { BuiltIdentity } from './build-identity';
import type { BuildContext, PendingUpload } from './context';

/** The base-layer objects of the new snapshot, written (or copied) locally by the parquet step. */
export interface BaseLayerFiles {
  uploads: PendingUpload[];
  /** Local identity partitions (for the coverage's identity figures). */
  identityFiles: string[];
  identityNpis: number;
  taxonomyRows: number;
  /** The local ZIP table the identity rows were placed with (for the coverage's placement figures), if any. */
  zipTableFile: string | null;
}

type Meta = PendingUpload['meta'];

/** The uploads of one writer's files: each file's key and manifest entry from the written file. */
function uploadsOf<W extends { file: string }>(
  written: readonly W[],
  contentType: string,
  keyOf: (w: W) => string,
  metaOf: (w: W) => Meta,
): PendingUpload[] {
  return written.map((w) => ({ key: keyOf(w), file: w.file, contentType, meta: metaOf(w) }));
}

/**
 * Writes the base layers into `outDir`, in two lanes side by side, each on its own DuckDB connection: the search
 * indexes (the longest writer), and the identity Parquet, its serving indexes and the NPI buckets one after the
 * other. The writers spend most of their time in JS (decoding rows, encoding files) while DuckDB scans and sorts for
 * the other lane on its own threads; more lanes would hold more memory at peak for little time.
 */
export async function writeFreshLayers(
  ctx: BuildContext,
  identity: BuiltIdentity,
  outDir: string,
): Promise<BaseLayerFiles> {
  const { connection, snapshotId } = ctx;
  const { classificationKeys: keys } = identity;
  const progress = (file: string) => (done: number, total: number) =>
    ctx.progress('parquet', { file, rows: done, percent: (100 * done) / total });
  const identityLane = async () => {
    const written = await timedWriter(ctx, 'identity', () =>
      writeIdentityFiles(connection, path.join(outDir, 'identity'), keys, progress('identity')),
    );
    const zipTable = ZipTable.decode(await readFile(identity.zipTableFile));
    const indexes = await timedWriter(ctx, 'identity-index', () =>
      writeIdentityIndexFiles(
        connection,
        path.join(outDir, 'identity-index'),
        keys,
        zipTable,
        progress('identity index'),
      ),
    );
    const buckets = await timedWriter(ctx, 'npi', () => writeNpiBucketFiles(connection, path.join(outDir, 'npi')));
    return { written, indexes, buckets };
  };
  const searchLane = () =>
    timedWriter(ctx, 'search', () =>
      withConnection(ctx, async (c) => {
        const taxonomy = await readTaxonomyLookup(c);
        const rows = identitySearchSql(await latestNppesRowsSql(c));
        return writeSearchIndexFiles(c, path.join(outDir, 'search'), rows, taxonomy);
      }),
    );
  // DuckDB works with less memory while the writers hold theirs in JS (platform/duckdb/batch.ts).
  await setDuckDbMemoryLimit(connection, ctx.duckDbMemory.writersLimitMb);
  const [{ written, indexes, buckets }, search] = await allOrFirstError([identityLane(), searchLane()]).finally(() =>
    setDuckDbMemoryLimit(connection, ctx.duckDbMemory.limitMb),
  );
  const taxonomy = await writeTaxonomyFile(connection, path.join(outDir, 'taxonomy.parquet'));
  const { binary, parquet } = CONTENT_TYPES;
  const uploads = [
    ...uploadsOf(
      written,
      parquet,
      (w) => identityPartitionKey(snapshotId, w.classification_key),
      (w): Meta => ({ kind: 'identity', rows: w.rows, classification_key: w.classification_key }),
    ),
    ...uploadsOf(
      indexes,
      binary,
      (w) => identityIndexKey(snapshotId, w.classification_key),
      (w): Meta => ({ kind: 'identity_index', rows: w.rows, classification_key: w.classification_key }),
    ),
    ...uploadsOf(
      buckets,
      binary,
      (w) => npiBucketKey(snapshotId, w.bucket),
      (w): Meta => ({ kind: 'npi', rows: w.rows, npi_bucket: w.bucket }),
    ),
    ...uploadsOf(
      search,
      binary,
      (w) => searchIndexKey(snapshotId, w.state),
      (w): Meta => ({ kind: 'search', rows: w.rows, state: w.state }),
    ),
    ...uploadsOf(
      [taxonomy],
      parquet,
      () => taxonomyKey(snapshotId),
      (w): Meta => ({ kind: 'taxonomy', rows: w.rows }),
    ),
    ...uploadsOf(
      [{ file: identity.zipTableFile }],
      binary,
      () => zipTableKey(snapshotId),
      (): Meta => ({ kind: 'zip_table' }),
    ),
  ];
  return {
    uploads,
    identityFiles: written.map((w) => w.file),
    identityNpis: identity.npis,
    taxonomyRows: taxonomy.rows,
    zipTableFile: identity.zipTableFile,
  };
}

/**
 * Runs one writer of the parquet step and logs its time (`etl writer done`, with `writer`, `files`, `elapsed_ms`):
 * the step's writers run side by side, so the step's own time does not say which one is long.
 */
async function timedWriter<T extends readonly unknown[]>(
  ctx: BuildContext,
  writer: string,
  work: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const files = await work();
  ctx.logger.info('etl writer done', {
    writer,
    files: files.length,
    elapsed_ms: Math.round(performance.now() - started),
  });
  return files;
}

/** Runs `work` on a new connection of the run's DuckDB, closed afterwards. */
async function withConnection<T>(ctx: BuildContext, work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const connection = await ctx.connect();
  try {
    return await work(connection);
  } finally {
    connection.closeSync();
  }
}
