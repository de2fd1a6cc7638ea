/**
 * The `parquet` step: every object of the new snapshot written (or, when reused, copied) to the run's `out` folder:
 * base layers, screening lists, vertical partitions, rejects.
 */
import path from 'node:path';
import { screenKey, verticalPartitionKey } from '../../data-contracts/layout';
import { CONTENT_TYPES } from '../../platform/snapshot-protocol';
import { type VerticalFile, writeTableFile, writeVerticalFiles } from '../writers/parquet';
import { writeRejectsCsv } from '../writers/rejects';
import type { BuiltIdentity } from './build-identity';
import type { BuildContext, PendingUpload } from './context';
import type { SourcesRead } from './read-sources';
import type { ReusedLayers } from './reuse-layers';
import { type BaseLayerFiles, writeFreshLayers } from './write-base-layers';

export interface SnapshotFiles {
  /** Every Parquet and index object, in upload order. */
  uploads: PendingUpload[];
  identityFiles: string[];
  /** The local ZIP table of the snapshot (null when a reused snapshot has none). */
  zipTableFile: string | null;
  verticalFiles: VerticalFile[];
  identityNpis: number;
  taxonomyRows: number;
  rejectsFile: string;
  rejectCount: number;
}

/** The base layers of the build: the tables the identity step built, or the current snapshot's layers to reuse. */
export type BaseLayers = { identity: BuiltIdentity } | { reused: ReusedLayers };

const SCREEN_TABLES = { 'oig-leie': 'oig_match', 'fda-letters': 'fda_letters' } as const;

/** Writes the snapshot's files locally. */
export async function writeSnapshotFiles(
  ctx: BuildContext,
  read: SourcesRead,
  base: BaseLayers,
): Promise<SnapshotFiles> {
  const { connection, snapshotId } = ctx;
  ctx.progress('parquet');
  const out = path.join(ctx.work, 'out');
  await ctx.rejects.flush(connection);
  const layers: BaseLayerFiles =
    'reused' in base ? base.reused.layerFiles(ctx) : await writeFreshLayers(ctx, base.identity, out);
  const uploads = layers.uploads;
  for (const name of read.screensBuilt) {
    const written = await writeTableFile(connection, SCREEN_TABLES[name], path.join(out, 'screens', `${name}.parquet`));
    upsertUpload(uploads, {
      key: screenKey(snapshotId, name),
      file: written.file,
      contentType: CONTENT_TYPES.parquet,
      meta: { kind: 'screen', rows: written.rows },
    });
  }
  const feedVerticals = new Set<string>(read.feed.providers.map((p) => p.vertical));
  const verticalFiles = [
    ...(await writeVerticalFiles(connection, path.join(out, 'vertical'))),
    ...('reused' in base ? base.reused.carriedVerticals(feedVerticals) : []),
  ];
  for (const v of verticalFiles) {
    uploads.push({
      key: verticalPartitionKey(snapshotId, v.boundary, v.vertical, v.state),
      file: v.file,
      contentType: CONTENT_TYPES.parquet,
      meta: { kind: 'vertical', rows: v.rows, boundary: v.boundary, vertical: v.vertical, state: v.state },
    });
  }
  const rejectsFile = path.join(out, 'rejects.csv');
  const rejectCount = await writeRejectsCsv(connection, rejectsFile);
  return {
    uploads,
    identityFiles: layers.identityFiles,
    zipTableFile: layers.zipTableFile,
    verticalFiles,
    identityNpis: layers.identityNpis,
    taxonomyRows: layers.taxonomyRows,
    rejectsFile,
    rejectCount,
  };
}

/** A newly built screening list replaces the reused one of the same key, in place. */
function upsertUpload(uploads: PendingUpload[], item: PendingUpload): void {
  const at = uploads.findIndex((u) => u.key === item.key);
  if (at >= 0) uploads[at] = item;
  else uploads.push(item);
}
