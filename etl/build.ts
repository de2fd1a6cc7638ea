/**
 * `buildSnapshot`: the batch ETL from source files to a published snapshot, as a sequence of steps (etl/steps/).
 *
 * Steps (names usable with the `failAfterStep` test hook, in order): `sources` (NUCC, LEIE, NPPES staged; FDA and
 * feed read), `identity`, `vertical`, `parquet` (every file written locally), `changes` (the change feed's basis, the
 * step from the current snapshot and the steps kept: etl/steps/compute-changes.ts), `static` (coverage and sample computed
 * from those files and validated; then the shrink guard), `upload` (data objects, static objects, rejects), `manifest`,
 * `pointer`, `public`. The reject threshold is checked at the end of `sources`.
 * A failure before `pointer` completes leaves the store's pointer and every existing snapshot untouched.
 */
import { silentLogger } from '../platform/logger';
import { newSnapshotId, SnapshotPublisher } from '../platform/snapshot-protocol';
import { SimulatedFailure } from './errors';
import { buildIdentity } from './steps/build-identity';
import { buildVertical } from './steps/build-vertical';
import { checkInputs } from './steps/check-inputs';
import { checkRejectShares, DEFAULT_MAX_REJECT_SHARE } from './steps/check-rejects';
import { computeChanges } from './steps/compute-changes';
import { computeStatics } from './steps/compute-statics';
import type { BuildOptions, BuildStep, BuildSummary } from './steps/context';
import { ensureOigCandidateTables } from './steps/oig-candidate-tables';
import { hashInputs, snapshotCounts, uploadObjects, writeManifest } from './steps/publish';
import { readSources } from './steps/read-sources';
import { openReusedLayers } from './steps/reuse-layers';
import { openBuildRun } from './steps/run';
import { DEFAULT_MAX_SHRINK_SHARE, guardShrink } from './steps/shrink-guard';
import { type BaseLayers, writeSnapshotFiles } from './steps/write-parquet';
import { publishPublicObjects } from './writers/static-objects';

export { DEFAULT_MAX_REJECT_SHARE } from './steps/check-rejects';
export {
  BUILD_STEPS,
  type BuildInputs,
  type BuildOptions,
  type BuildProgress,
  type BuildStep,
  type BuildSummary,
  SOURCE_KINDS,
  type SourceCounts,
  type SourceKind,
} from './steps/context';
export { DEFAULT_MAX_SHRINK_SHARE, type LayerComparison, type ShrinkCheck, ShrinkRefused } from './steps/shrink-guard';

/**
 * Builds a snapshot from the inputs and publishes it to `store`: Parquet partitions (vertical, identity), the
 * taxonomy map, static objects, rejects, the manifest, then the pointer, then the public objects.
 *
 * @example
 * const summary = await buildSnapshot({ store: new FolderObjectStore('.local/data'), inputs: demoBuildInputs() });
 * summary.counts.identity; // active NPIs in the identity layer
 */
export async function buildSnapshot(options: BuildOptions): Promise<BuildSummary> {
  const started = Date.now();
  const logger = options.logger ?? silentLogger;
  const { store, inputs } = options;
  const snapshotDate = new Date(Math.floor((options.snapshotTime ?? new Date()).getTime() / 1000) * 1000);
  const snapshotId = newSnapshotId(snapshotDate);
  const checkpoint = (step: BuildStep) => {
    logger.info('etl step done', { step, elapsed_ms: Date.now() - started });
    if (options.failAfterStep === step) throw new SimulatedFailure(step);
  };

  const leieAsOfs = await checkInputs(inputs);
  // Hashed side by side with the build (publish.ts hashInputs): the manifest awaits it.
  const inputHashes = hashInputs(inputs);
  const reused = inputs.reuseIdentityFrom === 'current' ? await openReusedLayers(store) : null;
  const { ctx, close } = await openBuildRun(options, { snapshotId, snapshotDate, started, leieAsOfs });
  try {
    const read = await readSources(ctx, reused);
    await ensureOigCandidateTables(ctx.connection);
    await checkRejectShares(ctx, options.maxRejectShare ?? DEFAULT_MAX_REJECT_SHARE);
    checkpoint('sources');
    const base: BaseLayers = reused ? { reused } : { identity: await buildIdentity(ctx) };
    checkpoint('identity');
    await buildVertical(ctx, read);
    checkpoint('vertical');
    const files = await writeSnapshotFiles(ctx, read, base);
    checkpoint('parquet');
    const changesStarted = Date.now();
    const changes = await computeChanges(ctx, reused?.reusedFrom ?? null, files);
    files.uploads.push(...changes.uploads);
    logger.info('etl changes computed', {
      step_changes: changes.step?.changes ?? null,
      from_snapshot: changes.step?.from_snapshot ?? null,
      kept_steps: changes.span.steps.length,
      carried_rows: changes.carriedRows,
      oldest_snapshot: changes.span.oldest_snapshot,
      changes_ms: Date.now() - changesStarted,
    });
    checkpoint('changes');
    const statics = await computeStatics(ctx, files);
    checkpoint('static');
    const counts = await snapshotCounts(ctx, files, statics);
    // Before anything is uploaded: a refused snapshot leaves nothing behind.
    const shrink = await guardShrink(store, counts, {
      maxShare: options.maxShrinkShare ?? DEFAULT_MAX_SHRINK_SHARE,
      allow: options.allowShrink === true,
    });
    logger.info('etl shrink check', { ...shrink });
    const publisher = new SnapshotPublisher(store, snapshotId);
    await uploadObjects(ctx, publisher, files, statics);
    checkpoint('upload');
    const manifestKey = await writeManifest(ctx, publisher, counts, changes.span, {
      inputHashes: await inputHashes,
      reusedLeieFiles: reused?.leieFiles() ?? null,
    });
    checkpoint('manifest');
    await publisher.switchPointer(new Date());
    logger.info('etl pointer switched', { snapshot_id: snapshotId });
    checkpoint('pointer');
    await publishPublicObjects(store, statics.objects);
    checkpoint('public');

    const summary: BuildSummary = {
      snapshot_id: snapshotId,
      created_at: ctx.snapshotTime,
      store: store.location,
      manifest_key: manifestKey,
      sources: ctx.sources,
      counts,
      shrink,
      ...(reused ? { reused_from: reused.reusedFrom } : {}),
      ...(read.oigCandidates ? { oig_candidates: read.oigCandidates } : {}),
      changes: { step: changes.step, span: changes.span },
      duration_ms: Date.now() - started,
    };
    logger.info('etl build done', { snapshot_id: snapshotId, counts, duration_ms: summary.duration_ms });
    return summary;
  } finally {
    await close();
  }
}
