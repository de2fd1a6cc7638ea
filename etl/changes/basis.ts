/**
 * The change feed's basis (`changes/basis.parquet`, CHANGES_BASIS_TABLE of data-contracts/changes.ts): one row per
 * NPI of the build, active and deactivated, with the fields whose changes the next build reports.
 *
 * - A full build takes it from the staged NPPES rows: the latest non-rejected row per NPI (latestNppesRowsSql, as
 *   for the identity layer and the NPI lookup), the display name the identity layer shows, the primary taxonomy
 *   (the code of the primary slot, else the first non-empty slot), the practice state, the OIG match of the
 *   identity rows (`oig_match`, the same LEIE rule), an active NPI's OIG possible matches (`oig_candidate.keyed`,
 *   each with its key, which the matcher writes) and the reinstatement date of an exclusion a supplement lifted (`oig_reinstated`). A deactivated
 *   NPI has its deactivation date and no name, taxonomy, state or candidates (NPPES blanks them).
 * - A build that reuses the current snapshot's identity layer (the feed Lambda) carries the current basis over, with
 *   the OIG columns recomputed against `oig_match`: the list this build screens with (the reused list, which gives
 *   the same values, or the LEIE files the build was given). Its candidates are carried as they are, like the NPI
 *   records it copies; a basis written before candidates has no `oig_candidates` column, and the carried one then
 *   has none either, so that the next step still knows the candidates were never compared.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryNumber, queryRows, runBound } from '../../platform/duckdb/statements';
import { sqlPath } from '../../platform/sql';
import { latestNppesRowsSql, NPPES_STATUS, slotListSql } from '../sources/nppes-staged';

/** The run's new basis table (CHANGES_BASIS_TABLE columns). */
export const BASIS_TABLE = 'changes_basis_new' as const;

/** Per NPI reinstated by a supplement of the build: the date (the latest, should the table hold more). */
const REINSTATED_SQL = 'SELECT npi, max(rein_date) AS rein_date FROM oig_reinstated GROUP BY npi';

/** The column names of a Parquet file. */
export async function parquetColumns(connection: DuckDBConnection, file: string): Promise<Set<string>> {
  const rows = await queryRows(connection, `DESCRIBE SELECT * FROM read_parquet(${sqlPath(file)})`);
  return new Set(rows.map((r) => String(r.column_name)));
}

/** Creates {@link BASIS_TABLE} from the staged NPPES rows and the OIG tables. Returns its rows. */
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
       o.npi IS NOT NULL AS oig_excluded, o.oig_type, o.oig_date,
       CASE WHEN s.status = $2 THEN k.keyed END AS oig_candidates,
       r.rein_date AS oig_reinstated
     FROM slots s LEFT JOIN oig_match o ON o.npi = s.npi
       LEFT JOIN oig_candidate k ON k.npi = s.npi AND k.candidate_count > 0
       LEFT JOIN (${REINSTATED_SQL}) r ON r.npi = s.npi`,
    [NPPES_STATUS.rejected, NPPES_STATUS.active],
  );
  return queryNumber(connection, `SELECT count(*) FROM ${BASIS_TABLE}`);
}

/**
 * Creates {@link BASIS_TABLE} from a carried basis file, its OIG columns from `oig_match` and `oig_reinstated`, its
 * candidates carried (none, and no column, when the file has no `oig_candidates`). Returns its rows.
 */
export async function buildBasisFromCarried(connection: DuckDBConnection, basisFile: string): Promise<number> {
  const candidates = (await parquetColumns(connection, basisFile)).has('oig_candidates') ? 'b.oig_candidates, ' : '';
  await connection.run(
    `CREATE OR REPLACE TABLE ${BASIS_TABLE} AS
     SELECT b.npi, b.status, b.deactivation_date, b.name, b.primary_taxonomy, b.state,
       o.npi IS NOT NULL AS oig_excluded, o.oig_type, o.oig_date, ${candidates}r.rein_date AS oig_reinstated
     FROM read_parquet(${sqlPath(basisFile)}) b LEFT JOIN oig_match o ON o.npi = b.npi
       LEFT JOIN (${REINSTATED_SQL}) r ON r.npi = b.npi`,
  );
  return queryNumber(connection, `SELECT count(*) FROM ${BASIS_TABLE}`);
}
