/**
 * The `identity` table (IDENTITY_TABLE columns of data-contracts/layout.ts) from the staged NPPES rows, the
 * `taxonomy` table, the `oig_match` table and the `oig_candidate` table (the OIG possible matches' counts): the rows
 * the identity Parquet partitions and serving indexes are written from.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { UNMAPPED_CLASSIFICATION_KEY } from '../../data-contracts/layout';
import { queryNumber, queryRows, runBound } from '../../platform/duckdb/statements';
import { TAXONOMY_SLOTS } from './nppes-columns';
import { latestNppesRowsSql, NPPES_STATUS, NUCC_MAPS_SQL, slotClassesSql, slotListSql } from './nppes-staged';

/**
 * Builds the `identity` table (IDENTITY_TABLE columns, sorted by classification_key, taxonomy_code, state, npi)
 * from the staged rows, the `taxonomy` table and the `oig_match` table. Returns the number of distinct NPIs.
 *
 * Every fact of a row comes from its NPI's own record: each slot's code is looked up in NUCC (two maps from code to
 * classification and to display name, built once) before the 15 slots are unpivoted, so `class_rep` (per NPI and
 * classification: the primary code when it is in that classification, else the lowest slot) needs no window over
 * the whole table. Such a window materialises and, past DuckDB's memory limit, spills every row: on the national
 * file it is most of this step's time. A join per slot would do the same lookups but holds 15 hash tables, which
 * run out of memory under a small limit. The one sort left is the final ORDER BY, which spills.
 */
export async function buildIdentityTable(connection: DuckDBConnection): Promise<{ rows: number; npis: number }> {
  const latest = await latestNppesRowsSql(connection);
  const codeList = slotListSql('c');
  await runBound(
    connection,
    `
    CREATE OR REPLACE TABLE identity AS
    WITH nucc AS (${NUCC_MAPS_SQL}), active AS (
      SELECT npi, name, city, state, checked_at, postal_code, entity_type, primary_slot, ${codeList} AS codes,
        ${slotClassesSql('$3')} AS classes,
        list_transform(${codeList}, c -> map_extract_value(nucc.display_of, c)) AS displays
      FROM (${latest}) CROSS JOIN nucc WHERE status = $2
    ), slots AS (
      SELECT npi, name, city, state, checked_at, postal_code, entity_type, primary_slot, codes, classes,
        codes[primary_slot] AS primary_code,
        unnest(range(1, ${TAXONOMY_SLOTS + 1})) AS slot, unnest(codes) AS code,
        unnest(classes) AS classification_key, unnest(displays) AS taxonomy_display
      FROM active
    ), codes AS (
      -- A code held in several slots is kept once, at its first slot.
      SELECT * FROM slots WHERE code IS NOT NULL AND list_position(codes, code) = slot
    ), ranked AS (
      -- class_rep: the primary code's row when the primary code is in this classification, else the row of the
      -- classification's first slot (always a kept slot: a repeated code has the class of its first slot).
      SELECT *, code = primary_code AS is_primary,
        CASE
          WHEN code = primary_code THEN true
          WHEN primary_code IS NOT NULL AND classes[primary_slot] = classification_key THEN false
          ELSE list_position(classes, classification_key) = slot
        END AS class_rep
      FROM codes
    )
    -- Columns in IDENTITY_TABLE order.
    SELECT r.npi, r.name, r.code AS taxonomy_code, r.taxonomy_display, r.classification_key, r.is_primary,
      r.class_rep, r.city, r.state, r.checked_at,
      o.npi IS NOT NULL AS oig_excluded, o.oig_type, o.oig_date, o.oig_checked_at,
      coalesce(k.candidate_count, 0)::INTEGER AS oig_candidate_count,
      -- Stored compact (transforms/identity-stored.ts): the table is sorted, and past the memory limit spilled, whole.
      CAST(r.postal_code AS UINTEGER) AS postal_code,
      CASE r.entity_type WHEN '1' THEN 1 WHEN '2' THEN 2 END::UTINYINT AS entity_type
    FROM ranked r LEFT JOIN oig_match o ON o.npi = r.npi LEFT JOIN oig_candidate k ON k.npi = r.npi
    ORDER BY r.classification_key, r.code, r.state NULLS LAST, r.npi`,
    [NPPES_STATUS.rejected, NPPES_STATUS.active, UNMAPPED_CLASSIFICATION_KEY],
  );
  const rows = await queryNumber(connection, 'SELECT count(*) FROM identity');
  const npis = await queryNumber(connection, 'SELECT count(DISTINCT npi) FROM identity');
  return { rows, npis };
}

/** The classification keys present in the identity table, in order. */
export async function identityClassificationKeys(connection: DuckDBConnection): Promise<string[]> {
  const rows = await queryRows(
    connection,
    'SELECT DISTINCT classification_key AS k FROM identity ORDER BY classification_key',
  );
  return rows.map((r) => String(r.k));
}
