/** The `identity` step of a full build: the identity and NPI lookup tables, from the staged NPPES rows. */

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildIdentityTable, identityClassificationKeys } from '../sources/identity-table';
import { buildNpiLookupTable } from '../sources/npi-lookup';
import { zipTableBytes } from '../sources/zip-centroids';
import type { BuildContext } from './context';

/** What the identity step built, for the parquet step's writers. */
export interface BuiltIdentity {
  /** Distinct NPIs of the identity table. */
  npis: number;
  /** The classification keys present in the identity table, in order: one partition each. */
  classificationKeys: string[];
  /** The local copy of the ZIP table the identity rows were placed with (geo/zip-centroids.bin). */
  zipTableFile: string;
}

/** Builds the `identity` and `npi_lookup` tables, and writes the ZIP table. */
export async function buildIdentity(ctx: BuildContext): Promise<BuiltIdentity> {
  ctx.progress('identity');
  const identity = await buildIdentityTable(ctx.connection);
  const classificationKeys = await identityClassificationKeys(ctx.connection);
  await buildNpiLookupTable(ctx.connection);
  // The ZIP table: written into the snapshot; the index writer places rows with it (etl/writers/identity-index.ts).
  const bytes = await zipTableBytes();
  const zipTableFile = path.join(ctx.work, 'geo', 'zip-centroids.bin');
  await mkdir(path.dirname(zipTableFile), { recursive: true });
  await writeFile(zipTableFile, bytes);
  return { npis: identity.npis, classificationKeys, zipTableFile };
}
