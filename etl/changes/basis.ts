/**
 * The change feed's basis (`changes/basis.parquet`, CHANGES_BASIS_TABLE of data-contracts/changes.ts): one row per
 * NPI of the build, active and deactivated, with the fields whose changes the next build reports.
 *
 * - A full build takes it from the staged NPPES rows: the latest non-rejected row per NPI (latestNppesRowsSql, as
 *   for the identity layer and the NPI lookup), the display name the identity layer shows, the primary taxonomy
 *   (the code of the primary slot, else the first non-empty slot), the practice state, and the OIG match of the
 *   identity rows (`oig_match`, the same LEIE rule). A deactivated NPI has its deactivation date and no name,
 *   taxonomy or state (NPPES blanks them).
 * - A build that reuses the current snapshot's identity layer (the feed Lambda) carries the current basis over, with
 *   the OIG columns recomputed against `oig_match`: the list this build screens with (the reused list, which gives
 *   the same values, or the LEIE files the build was given).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryNumber, runBound } from '../../platform/duckdb/statements';
import { sqlPath } from '../../platform/sql';
import { latestNppesRowsSql, NPPES_STATUS, slotListSql } from '../sources/nppes-staged';

/** The run's new basis table (CHANGES_BASIS_TABLE columns). */
export const BASIS_TABLE = 'changes_basis_new' as const;

/** Creates {@link BASIS_TABLE} from the staged NPPES rows and `oig_match`. Returns its rows. */
export async function buildBasisFromNppes(connection: DuckDBConnection): Promise<number> {
  const latest = await latestNppesRowsSql(connection);
  await runBound(
    connection,
    `CREATE OR REPLACE TABLE ${BASIS_TABLE} AS
     WITH latest AS (${latest}), slots AS (SELECT *, ${slotListSql('c')} AS codes FROM latest)
     SELECT s.npi,
       CASE WHEN s.status = $2 THEN 'active' ELSE 'deactivated' END AS status,
       CASE WHEN s.status = $2 THEN NULL ELSE s.deactivated_on END AS deactivation_date,
       CASE WHEN s.status = $2 THEN s.name END AS name,
       CASE WHEN s.status = $2
         THEN coalesce(s.codes[s.primary_slot], list_filter(s.codes, c -> c IS NOT NULL)[1]) END AS primary_taxonomy,
       CASE WHEN s.status = $2 THEN s.state END AS state,
       o.npi IS NOT NULL AS oig_excluded, o.oig_type, o.oig_date
     FROM slots s LEFT JOIN oig_match o ON o.npi = s.npi`,
    [NPPES_STATUS.rejected, NPPES_STATUS.active],
  );
  return queryNumber(connection, `SELECT count(*) FROM ${BASIS_TABLE}`);
}

/** Creates {@link BASIS_TABLE} from a carried basis file, its OIG columns from `oig_match`. Returns its rows. */
export async function buildBasisFromCarried(connection: DuckDBConnection, basisFile: string): Promise<number> {
  await connection.run(
    `CREATE OR REPLACE TABLE ${BASIS_TABLE} AS
     SELECT b.npi, b.status, b.deactivation_date, b.name, b.primary_taxonomy, b.state,
       o.npi IS NOT NULL AS oig_excluded, o.oig_type, o.oig_date
     FROM read_parquet(${sqlPath(basisFile)}) b LEFT JOIN oig_match o ON o.npi = b.npi`,
  );
  return queryNumber(connection, `SELECT count(*) FROM ${BASIS_TABLE}`);
}
