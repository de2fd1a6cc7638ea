/**
 * The ETL's `identity` table (etl/sources/identity-table.ts) keeps two of the contract's columns (IDENTITY_TABLE) in
 * a more compact form; its writers turn them back (etl/writers: the Parquet COPY in SQL, the serving index in JS).
 */
import type { EntityType } from '../../data-contracts/constants';

/**
 * The `identity` table's columns that are stored in a form more compact than the contract's (IDENTITY_TABLE), each
 * with the SQL that gives the contract's value back: the 5-digit practice ZIP as a number (leading zeros dropped) and
 * the NPPES entity type code (1 individual, 2 organization). Two strings a row cost the table's sort 32 bytes a row;
 * the numbers cost 5 (a 4-byte and a 1-byte integer).
 */
export const IDENTITY_STORED = {
  /** The number is what the ZIP table is keyed by (ZipTable.rankOfNumber). */
  postal_code: { sql: "lpad(CAST(postal_code AS VARCHAR), 5, '0')" },
  entity_type: {
    sql: "CASE entity_type WHEN 1 THEN 'individual' WHEN 2 THEN 'organization' END",
    name: (stored: number): EntityType | null => (stored === 1 ? 'individual' : stored === 2 ? 'organization' : null),
  },
} as const;
