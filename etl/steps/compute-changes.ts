/**
 * The `changes` step (data-contracts/changes.ts): the new snapshot's basis, its step from the snapshot it replaces
 * (the current one) and the steps it keeps, written as Parquet into the run's work folder for the upload step.
 *
 * The previous snapshot's basis, tracked vertical partitions and change partitions are downloaded and checked
 * against its manifest's SHA-256. A current snapshot without a basis (written before the change feed, or none, or
 * one this code cannot read) starts the chain: no step, the new snapshot is the oldest `since`.
 */
import path from 'node:path';
import { type ChangesSpan, type ChangesStep, changesMonthOf } from '../../data-contracts/changes';
import { changesBasisKey, changesNpiIndexKey, changesPartitionKey } from '../../data-contracts/layout';
import { queryNumber } from '../../platform/duckdb/statements';
import { downloadChecked } from '../../platform/object-store';
import { CONTENT_TYPES, readCurrentSnapshot } from '../../platform/snapshot-protocol';
import { BASIS_TABLE, buildBasisFromCarried, buildBasisFromNppes } from '../changes/basis';
import { addIdentityChanges, addVerticalChanges, createStepTable, STEP_TABLE } from '../changes/diff';
import { keptSteps, nextSpan, spanMonths } from '../changes/span';
import { addKeptChanges, addStepChanges, createKeptTable, writeBasisFile, writeChangesFiles } from '../writers/changes';
import type { BuildContext, PendingUpload } from './context';
import type { SnapshotFiles } from './write-parquet';

export interface ChangesFiles {
  /** The basis and the month partitions, for the upload step. */
  uploads: PendingUpload[];
  /** The manifest's `changes` section. */
  span: ChangesSpan;
  /** This build's step, or null when the chain starts here. */
  step: ChangesStep | null;
  /** Change rows kept from the previous snapshot's steps. */
  carriedRows: number;
}

type Current = NonNullable<Awaited<ReturnType<typeof readCurrentSnapshot>>>;

/** The current snapshot, or null when there is none or it cannot be read (it is then replaced without a step). */
async function currentOrNull(ctx: BuildContext): Promise<Current | null> {
  try {
    return await readCurrentSnapshot(ctx.store);
  } catch (err) {
    ctx.logger.warn('etl changes: the current snapshot cannot be read; the change chain starts here', {
      error: err instanceof Error ? err.message : String(err),
    });
    return null;
  }
}

/**
 * Computes the new snapshot's change feed objects and span.
 * @throws when the previous snapshot's objects are missing or do not match their SHA-256, or (reuse) when the
 * current snapshot is no longer the one whose layers the build reuses.
 */
export async function computeChanges(
  ctx: BuildContext,
  reusedFrom: string | null,
  files: SnapshotFiles,
): Promise<ChangesFiles> {
  const { connection, snapshotId, snapshotTime } = ctx;
  ctx.progress('changes');
  const current = await currentOrNull(ctx);
  if (reusedFrom !== null && current?.pointer.snapshot_id !== reusedFrom) {
    throw new Error(
      `the current snapshot changed during the build (reusing ${reusedFrom}, current ${current?.pointer.snapshot_id ?? 'none'})`,
    );
  }
  const dir = path.join(ctx.work, 'changes');
  const objects = current?.manifest.objects ?? [];
  const basisObject = objects.find((o) => o.kind === 'changes_basis');
  const [oldBasis] =
    basisObject && current ? await downloadChecked(ctx.store, [basisObject], path.join(dir, 'old-basis')) : [];

  // A reusing build carries the current basis (none when the current snapshot has none); a full build makes its own.
  let hasBasis = true;
  if (reusedFrom === null) await buildBasisFromNppes(connection);
  else if (oldBasis !== undefined) await buildBasisFromCarried(connection, oldBasis);
  else hasBasis = false;

  const uploads: PendingUpload[] = [];
  if (hasBasis) {
    const basis = await writeBasisFile(connection, BASIS_TABLE, path.join(dir, 'out', 'basis.parquet'));
    uploads.push({
      key: changesBasisKey(snapshotId),
      file: basis.file,
      contentType: CONTENT_TYPES.parquet,
      meta: { kind: 'changes_basis', rows: basis.rows },
    });
  }

  await createKeptTable(connection);
  let step: ChangesStep | null = null;
  let kept: ChangesStep[] = [];
  let carriedRows = 0;
  if (current && oldBasis !== undefined && hasBasis) {
    await createStepTable(connection);
    await addIdentityChanges(connection, oldBasis, BASIS_TABLE);
    const oldTracked = await downloadChecked(
      ctx.store,
      objects.filter((o) => o.kind === 'vertical' && o.boundary === 'tracked'),
      path.join(dir, 'old-tracked'),
    );
    const newTracked = files.verticalFiles.filter((v) => v.boundary === 'tracked').map((v) => v.file);
    await addVerticalChanges(connection, oldTracked, newTracked);
    step = {
      from_snapshot: current.pointer.snapshot_id,
      from_as_of: current.manifest.created_at,
      to_snapshot: snapshotId,
      to_as_of: snapshotTime,
      changes: await queryNumber(connection, `SELECT count(*) FROM ${STEP_TABLE}`),
    };
    kept = keptSteps(current.manifest.changes?.steps ?? [], snapshotTime);
    // Only the months that hold a kept step are read: the others hold dropped steps only.
    const keptMonths = new Set(kept.map((s) => changesMonthOf(s.to_as_of)));
    const oldPartitions = await downloadChecked(
      ctx.store,
      objects.filter((o) => o.kind === 'changes' && o.month !== undefined && keptMonths.has(o.month)),
      path.join(dir, 'old-changes'),
    );
    carriedRows = await addKeptChanges(
      connection,
      oldPartitions,
      kept.map((s) => s.to_snapshot),
    );
    await addStepChanges(connection, STEP_TABLE, step);
  }
  const span = nextSpan(kept, step, { snapshot: snapshotId, asOf: snapshotTime });
  for (const w of await writeChangesFiles(connection, path.join(dir, 'out', 'months'), spanMonths(span))) {
    uploads.push({
      key: changesPartitionKey(snapshotId, w.month),
      file: w.file,
      contentType: CONTENT_TYPES.parquet,
      meta: { kind: 'changes', rows: w.rows, month: w.month },
    });
    uploads.push({
      key: changesNpiIndexKey(snapshotId, w.month),
      file: w.npiIndex.file,
      contentType: CONTENT_TYPES.binary,
      meta: { kind: 'changes_npi', rows: w.npiIndex.rows, month: w.month },
    });
  }
  return { uploads, span, step, carriedRows };
}
