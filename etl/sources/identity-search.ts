/**
 * The rows of the identity search indexes (platform/search-index): one per NPI of the `identity` table that has a
 * practice state, with what a search filters on: the search name (the organisation name of an organisation, the
 * last name of an individual, from the NPI's latest NPPES row, as the identity layer chooses it), the entity type,
 * the 5-digit postal code, the city, and its taxonomy codes with their classification keys.
 *
 * Codes are ordered so that a reader's first accepted code is the row the identity layer would answer: the primary
 * code first, then the `class_rep` codes (one per classification), then the rest; by code within each group.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryNumber, runBound } from '../duck';
import { NPPES_STATUS } from './nppes';

/** Creates `identity_search (state, npi, entity_type, search_name, postal_code, city, codes, classes)`; returns its rows. */
export async function buildIdentitySearchTable(connection: DuckDBConnection): Promise<number> {
  const order = 'ORDER BY i.is_primary DESC NULLS LAST, i.class_rep DESC NULLS LAST, i.taxonomy_code';
  await runBound(
    connection,
    `
    CREATE OR REPLACE TABLE identity_search AS
    WITH latest AS (
      SELECT npi, entity_type, org_name, last_name, postal_code FROM nppes_stage WHERE status < $1
      QUALIFY row_number() OVER (PARTITION BY npi ORDER BY src DESC, rowid DESC) = 1
    )
    SELECT i.state, i.npi,
      CASE l.entity_type WHEN '2' THEN 'organization' ELSE 'individual' END AS entity_type,
      coalesce(CASE l.entity_type WHEN '2' THEN l.org_name ELSE l.last_name END, any_value(i.name)) AS search_name,
      l.postal_code, any_value(i.city) AS city,
      list(i.taxonomy_code ${order}) AS codes, list(i.classification_key ${order}) AS classes
    FROM identity i JOIN latest l ON l.npi = i.npi
    WHERE i.state IS NOT NULL
    GROUP BY i.state, i.npi, l.entity_type, l.org_name, l.last_name, l.postal_code`,
    [NPPES_STATUS.rejected],
  );
  return queryNumber(connection, 'SELECT count(*) FROM identity_search');
}
