/**
 * The rows of the identity search indexes (platform/search-index): one per NPI of the identity layer that has a
 * practice state, with what a search filters on: the search name (the organisation name of an organisation, the
 * last name of an individual), the entity type, the 5-digit postal code, the city, its taxonomy codes with
 * their classification keys, its OIG match and its count of OIG possible matches (`oig_candidate`).
 *
 * Read from the staged NPPES rows, one row per NPI (no aggregation over the identity table: a GROUP BY with lists
 * of the national file's size runs DuckDB out of memory), with the identity layer's own rules: the latest non-rejected row
 * per NPI decides, only active NPIs, a code held in two slots kept once at its first slot, the classification of a
 * code from NUCC (`unmapped` when unknown). Codes are ordered so that a reader's first accepted code is the row
 * the identity layer would answer: the primary code first, then each classification's `class_rep` code (the
 * primary when in it, else its first slot), then the rest; by code within each group.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { UNMAPPED_CLASSIFICATION_KEY } from '../../data-contracts/layout';
import { queryRows } from '../../platform/duckdb/statements';
import type { TaxonomyLookup } from '../transforms/search-row';
import { TAXONOMY_SLOTS } from './nppes-columns';
import { NPPES_STATUS, NUCC_MAPS_SQL, slotClassesSql, slotListSql } from './nppes-staged';

/**
 * The SELECT of the search rows in state order, and its parameters. `latest` is {@link latestNppesRowsSql}'s
 * statement for the staged rows.
 */
export function identitySearchSql(latest: string): { sql: string; params: (string | number)[] } {
  const sql = `
    WITH nucc AS (${NUCC_MAPS_SQL}), active AS (
      SELECT npi, state, city, entity_type, org_name, last_name, name, postal_code, primary_slot, checked_at,
        ${slotListSql('c')} AS codes,
        ${slotClassesSql('$3')} AS classes
      FROM (${latest}) CROSS JOIN nucc
      WHERE status = $2 AND state IS NOT NULL
    ), ordered AS (
      SELECT *, list_sort(list_transform(
        list_filter(range(1, ${TAXONOMY_SLOTS + 1}), i -> codes[i] IS NOT NULL AND list_position(codes, codes[i]) = i),
        i -> struct_pack(
          g := CASE
            WHEN codes[i] = codes[primary_slot] THEN 0
            WHEN codes[primary_slot] IS NOT NULL AND classes[primary_slot] = classes[i] THEN 2
            WHEN list_position(classes, classes[i]) = i THEN 1
            ELSE 2 END,
          c := codes[i], k := classes[i]))) AS slots
      FROM active
    )
    SELECT r.state, r.npi,
      CASE r.entity_type WHEN '2' THEN 'organization' ELSE 'individual' END AS entity_type,
      coalesce(CASE r.entity_type WHEN '2' THEN r.org_name ELSE r.last_name END, r.name) AS search_name,
      r.name, r.postal_code, r.city, r.checked_at,
      array_to_string(list_transform(r.slots, s -> s.c), chr(31)) AS codes,
      r.slots[1].g = 0 AS primary_first,
      o.npi IS NOT NULL AS oig_excluded, o.oig_type, o.oig_date, o.oig_checked_at,
      coalesce(k.candidate_count, 0)::INTEGER AS oig_candidate_count
    FROM ordered r LEFT JOIN oig_match o ON o.npi = r.npi LEFT JOIN oig_candidate k ON k.npi = r.npi
    WHERE len(r.slots) > 0
    ORDER BY r.state`;
  return { sql, params: [NPPES_STATUS.rejected, NPPES_STATUS.active, UNMAPPED_CLASSIFICATION_KEY] };
}

/** Reads {@link TaxonomyLookup} from the `taxonomy` table (about 900 codes). */
export async function readTaxonomyLookup(connection: DuckDBConnection): Promise<TaxonomyLookup> {
  const rows = await queryRows(connection, 'SELECT code, classification_key, display_name FROM taxonomy');
  const classes = new Map<string, string>();
  const displays = new Map<string, string | null>();
  for (const row of rows) {
    const code = String(row.code);
    if (row.classification_key !== null) classes.set(code, String(row.classification_key));
    const display = row.display_name === null || row.display_name === '' ? null : String(row.display_name);
    displays.set(code, display);
  }
  return {
    classOf: (code) => classes.get(code) ?? UNMAPPED_CLASSIFICATION_KEY,
    displayOf: (code) => displays.get(code) ?? null,
  };
}
