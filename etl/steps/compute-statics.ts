/** The `static` step: coverage and sample computed from the files just written, and validated. */
import { computeIdentityLayer } from '../writers/coverage';
import type { VerticalFile } from '../writers/parquet';
import { type ComputedStatics, computeStaticObjects } from '../writers/static-objects';
import type { BuildContext } from './context';
import type { SnapshotFiles } from './write-parquet';

/** Coverage (vertical slices and identity figures) and the public sample of the snapshot just written locally. */
export async function computeStatics(ctx: BuildContext, files: SnapshotFiles): Promise<ComputedStatics> {
  ctx.progress('static');
  const filesOf = (boundary: VerticalFile['boundary']) =>
    files.verticalFiles.filter((v) => v.boundary === boundary).map((v) => v.file);
  return computeStaticObjects(ctx.connection, {
    trackedFiles: filesOf('tracked'),
    verifiedFiles: filesOf('verified'),
    identityLayer: await computeIdentityLayer(ctx.connection, files.identityFiles),
    snapshotId: ctx.snapshotId,
    generatedAt: ctx.snapshotTime,
  });
}
