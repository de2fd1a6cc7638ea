/** The `static` step: coverage and sample computed from the files just written, and validated. */
import { readFile } from 'node:fs/promises';
import { ZipTable } from '../../platform/geo/zip-table';
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
  // The ZIP table the identity rows were placed with (the build's, or the reused snapshot's): the placement figures.
  const zipTable = files.zipTableFile === null ? null : ZipTable.decode(await readFile(files.zipTableFile));
  return computeStaticObjects(ctx.connection, {
    trackedFiles: filesOf('tracked'),
    verifiedFiles: filesOf('verified'),
    identityLayer: await computeIdentityLayer(ctx.connection, files.identityFiles, zipTable),
    snapshotId: ctx.snapshotId,
    generatedAt: ctx.snapshotTime,
  });
}
