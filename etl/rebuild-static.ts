/**
 * The hourly job: recomputes coverage.json, the coverage page (coverage.html), sample.json and sample.csv from the
 * CURRENT snapshot (the pointer) and writes them to the fixed `public/` keys. The snapshot itself is immutable and is never written.
 *
 * Vertical figures and the sample are recomputed from the snapshot's vertical Parquet (downloaded and checked
 * against the manifest's SHA-256). The identity-layer figures are carried over from the snapshot's own
 * `static/coverage.json`, which the build computed from the identity Parquet: the snapshot cannot change, and
 * re-reading hundreds of megabytes of identity partitions every hour would buy nothing. `identity: 'recompute'`
 * recomputes them from the identity partitions instead.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { STATIC_FILES, staticKey } from '../data-contracts/layout';
import type { CoverageStats } from '../data-contracts/types';
import { openEtlDuckDb } from '../platform/duckdb/batch';
import { ZipTable } from '../platform/geo/zip-table';
import { isoSeconds } from '../platform/iso-time';
import { type Logger, silentLogger } from '../platform/logger';
import { downloadChecked, type ObjectStore } from '../platform/object-store';
import { readCurrentSnapshot } from '../platform/snapshot-protocol';
import { markSupersededSnapshots, type RetentionSummary } from './steps/retention';
import { computeIdentityLayer, type IdentityLayerStats } from './writers/coverage';
import { computeStaticObjects, publishPublicObjects } from './writers/static-objects';

export interface RebuildStaticOptions {
  store: ObjectStore;
  /** The rebuild time, for the summary and logs (coverage keeps the snapshot time as `generated_at`). */
  now?: Date;
  workDir?: string;
  logger?: Logger;
  /** `carry` (default): identity figures from the snapshot's coverage.json; `recompute`: from the identity Parquet. */
  identity?: 'carry' | 'recompute';
  /**
   * Tag superseded snapshots for lifecycle expiry (see steps/retention.ts), keeping this many older complete snapshots
   * as rollback targets. Default 1; `false` skips retention.
   */
  keepPrevious?: number | false;
}

export interface RebuildStaticSummary {
  snapshot_id: string;
  generated_at: string;
  rebuilt_at: string;
  counts: { tracked: number; verified: number; identity: number | null; sample: number };
  retention: RetentionSummary | null;
}

/**
 * Rebuilds the public coverage objects (JSON and page) and sample objects from the current snapshot.
 * @example await rebuildStatic({ store: new FolderObjectStore('.local/data') })
 */
export async function rebuildStatic(options: RebuildStaticOptions): Promise<RebuildStaticSummary> {
  const { store } = options;
  const logger = options.logger ?? silentLogger;
  const now = options.now ?? new Date();
  const current = await readCurrentSnapshot(store);
  if (!current) throw new Error(`no current snapshot in ${store.location} (run a build first)`);
  const { manifest } = current;
  const snapshotId = manifest.snapshot_id;

  const parent = options.workDir ?? tmpdir();
  await mkdir(parent, { recursive: true });
  const work = await mkdtemp(path.join(parent, 'pf-static-'));
  // The budget is the rebuild Lambda's memory (infra ETL_SIZING.rebuild).
  const db = await openEtlDuckDb({ workDir: work, threads: 2, memoryBudgetMb: 1024 });
  try {
    const vertical = (boundary: 'tracked' | 'verified') =>
      manifest.objects.filter((o) => o.kind === 'vertical' && o.boundary === boundary);
    const trackedFiles = await downloadChecked(store, vertical('tracked'), path.join(work, 'tracked'));
    const verifiedFiles = await downloadChecked(store, vertical('verified'), path.join(work, 'verified'));

    let identityLayer: IdentityLayerStats | null = null;
    if (options.identity !== 'recompute') {
      const previous = await store.getBytes(staticKey(snapshotId, STATIC_FILES.coverage));
      if (previous)
        identityLayer = (JSON.parse(previous.body.toString('utf8')) as CoverageStats).identity_layer ?? null;
    }
    if (identityLayer === null) {
      const identityObjects = manifest.objects.filter((o) => o.kind === 'identity');
      const identityFiles = await downloadChecked(store, identityObjects, path.join(work, 'identity'));
      // The snapshot's ZIP table places the identity layer's NPIs (`placement`); none before layout 5.
      const zipObjects = manifest.objects.filter((o) => o.kind === 'zip_table');
      const [zipFile] = await downloadChecked(store, zipObjects, path.join(work, 'geo'));
      const zipTable = zipFile === undefined ? null : ZipTable.decode(await readFile(zipFile));
      identityLayer = await computeIdentityLayer(db.connection, identityFiles, zipTable);
    }

    const { coverage, sample, objects } = await computeStaticObjects(db.connection, {
      trackedFiles,
      verifiedFiles,
      identityLayer,
      snapshotId,
      generatedAt: manifest.created_at,
    });
    await publishPublicObjects(store, objects);
    const summary: RebuildStaticSummary = {
      snapshot_id: snapshotId,
      generated_at: manifest.created_at,
      rebuilt_at: isoSeconds(now),
      counts: {
        tracked: coverage.tracked.total,
        verified: coverage.verified.total,
        identity: coverage.identity_layer?.total ?? null,
        sample: sample.json.size,
      },
      retention:
        options.keepPrevious === false
          ? null
          : await markSupersededSnapshots({ store, currentId: snapshotId, keepPrevious: options.keepPrevious, logger }),
    };
    logger.info('static objects rebuilt', { ...summary });
    return summary;
  } finally {
    db.close();
    await rm(work, { recursive: true, force: true });
  }
}
