/** The `upload` and `manifest` steps: the snapshot's objects, then its manifest (the pointer comes after). */
import path from 'node:path';
import type { ChangesSpan } from '../../data-contracts/changes';
import {
  rejectsKey,
  type SnapshotCounts,
  type SourceSummary,
  STATIC_FILES,
  staticKey,
} from '../../data-contracts/layout';
import type { LeieRelease } from '../../data-contracts/manifest';
import { queryNumber } from '../../platform/duckdb/statements';
import { sha256File } from '../../platform/object-store';
import { CONTENT_TYPES, type SnapshotPublisher } from '../../platform/snapshot-protocol';
import { displayPath } from '../csv/read';
import { FEED_FILES } from '../sources/feed';
import { type ComputedStatics, openapiJsonText } from '../writers/static-objects';
import type { BuildContext, BuildInputs } from './context';
import type { SnapshotFiles } from './write-parquet';

/** Uploads the data objects, the static objects and the rejects into the snapshot's prefix. */
export async function uploadObjects(
  ctx: BuildContext,
  publisher: SnapshotPublisher,
  files: SnapshotFiles,
  statics: ComputedStatics,
): Promise<void> {
  const { snapshotId } = ctx;
  const { objects, sample } = statics;
  await publisher.uploadFiles(files.uploads, (done, total) =>
    ctx.progress('upload', { rows: done, percent: (100 * done) / total }),
  );
  await publisher.putText(staticKey(snapshotId, STATIC_FILES.coverage), objects.coverage, CONTENT_TYPES.json, {
    kind: 'static',
  });
  await publisher.putText(staticKey(snapshotId, STATIC_FILES.coveragePage), objects.coveragePage, CONTENT_TYPES.html, {
    kind: 'static',
  });
  await publisher.putText(staticKey(snapshotId, STATIC_FILES.sampleJson), objects.sampleJson, CONTENT_TYPES.json, {
    kind: 'static',
    rows: sample.json.size,
  });
  await publisher.putText(staticKey(snapshotId, STATIC_FILES.sampleCsv), objects.sampleCsv, CONTENT_TYPES.csv, {
    kind: 'static',
    rows: sample.json.size,
  });
  await publisher.putText(staticKey(snapshotId, STATIC_FILES.openapi), openapiJsonText(), CONTENT_TYPES.json, {
    kind: 'static',
  });
  await publisher.uploadFiles([
    {
      key: rejectsKey(snapshotId),
      file: files.rejectsFile,
      contentType: CONTENT_TYPES.csv,
      meta: { kind: 'rejects', rows: files.rejectCount },
    },
  ]);
}

/** The manifest's counts (the screening lists' rows from the run's `oig_match` and `fda_letters` tables). */
export async function snapshotCounts(
  ctx: BuildContext,
  files: SnapshotFiles,
  statics: ComputedStatics,
): Promise<SnapshotCounts> {
  return {
    identity: files.identityNpis,
    tracked: statics.coverage.tracked.total,
    verified: statics.coverage.verified.total,
    taxonomies: files.taxonomyRows,
    rejects: files.rejectCount,
    leie: await queryNumber(ctx.connection, 'SELECT count(*) FROM oig_match'),
    fda_letters: await queryNumber(ctx.connection, 'SELECT count(*) FROM fda_letters'),
  };
}

/**
 * Writes the manifest (after every other object of the snapshot) and returns its key. `leie_files`: the LEIE files
 * of this build, else (a build that reuses the identity layers and reads no LEIE file) the reused manifest's.
 */
export async function writeManifest(
  ctx: BuildContext,
  publisher: SnapshotPublisher,
  counts: SnapshotCounts,
  changes: ChangesSpan,
  provenance: { inputHashes: ReadonlyMap<string, string>; reusedLeieFiles: LeieRelease[] | null },
): Promise<string> {
  const { inputHashes, reusedLeieFiles } = provenance;
  const sources: Record<string, SourceSummary> = {};
  const leieFiles: LeieRelease[] = [];
  for (const [i, s] of ctx.sources.entries()) {
    const sha256 = inputHashes.get(s.file) ?? '';
    const release = s.source === 'leie' ? (ctx.leieAsOfs[leieFiles.length] ?? null) : null;
    sources[`${s.source}#${i}`] = {
      file: s.file,
      sha256,
      read: s.read,
      accepted: s.accepted,
      rejected: s.rejected,
      ...(release === null ? {} : { as_of: release }),
    };
    if (release !== null) {
      const kind = leieFiles.length === 0 ? 'list' : 'supplement';
      leieFiles.push({ file: path.basename(s.file), kind, release, sha256, rows: s.read });
    }
  }
  const leie_files = leieFiles.length > 0 ? leieFiles : reusedLeieFiles;
  return publisher.putManifest({
    created_at: ctx.snapshotTime,
    sources,
    counts,
    changes,
    ...(leie_files ? { leie_files } : {}),
  });
}

/**
 * The SHA-256 of every input file by its display path, for the manifest's provenance. Never rejects: an input not
 * used in this mode (reuse) may be absent, and its entry keeps an empty hash. The build starts it with the run, so
 * that hashing the inputs (the national NPPES file is gigabytes, read back from disk at the end of a build)
 * overlaps the build instead of following it.
 */
export async function hashInputs(inputs: BuildInputs): Promise<ReadonlyMap<string, string>> {
  const byName = new Map<string, string>();
  const files = [
    ...inputs.nppes,
    inputs.nucc,
    ...inputs.leie,
    ...inputs.fda,
    ...inputs.feeds.flatMap((f) => Object.values(FEED_FILES).map((n) => path.join(f, n))),
  ];
  for (const file of files) {
    const name = displayPath(file);
    if (byName.has(name) || !file) continue;
    try {
      byName.set(name, await sha256File(file));
    } catch {
      // Absent (not used in this mode): no hash.
    }
  }
  return byName;
}
