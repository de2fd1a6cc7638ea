/** The `identity` step of a full build: the identity and NPI lookup tables, from the staged NPPES rows. */

import { buildIdentityTable, identityClassificationKeys } from '../sources/identity-table';
import { buildNpiLookupTable } from '../sources/npi-lookup';
import type { BuildContext } from './context';

/** What the identity step built, for the parquet step's writers. */
export interface BuiltIdentity {
  /** Distinct NPIs of the identity table. */
  npis: number;
  /** The classification keys present in the identity table, in order: one partition each. */
  classificationKeys: string[];
}

/** Builds the `identity` and `npi_lookup` tables. */
export async function buildIdentity(ctx: BuildContext): Promise<BuiltIdentity> {
  ctx.progress('identity');
  const identity = await buildIdentityTable(ctx.connection);
  const classificationKeys = await identityClassificationKeys(ctx.connection);
  await buildNpiLookupTable(ctx.connection);
  return { npis: identity.npis, classificationKeys };
}
