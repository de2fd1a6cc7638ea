/**
 * The staged NPPES rows (`nppes_stage`, one compact row per record of every file, written by `nppes.ts`) and how the
 * layers built from them read them: the latest non-rejected row per NPI, the 15 taxonomy slots as lists, and NUCC's
 * code maps. The identity table, the NPI lookup records, the search rows and the change basis all start here.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryNumber } from '../../platform/duckdb/statements';
import { NPPES_SLOTS } from './nppes-columns';

/** Staged row status. */
export const NPPES_STATUS = { active: 0, deactivated: 1, rejected: 2 } as const;

/**
 * The staged fields only the OIG matcher reads (sources/oig-candidates.ts): the middle name, the other organisation
 * name and the mailing city, state and 5-digit ZIP, in one struct column: as five columns they slowed the staging
 * scan by a third (docs/performance.md, "OIG possible matches"); as one struct the scan costs about what it did.
 */
const NPPES_MATCH_FIELDS =
  'middle_name VARCHAR, other_org_name VARCHAR, mail_city VARCHAR, mail_state VARCHAR, mail_postal VARCHAR';

/** Creates the staging table. */
export async function createNppesStage(connection: DuckDBConnection): Promise<void> {
  await connection.run(
    `CREATE OR REPLACE TABLE nppes_stage (src INTEGER, npi VARCHAR, status TINYINT, reason VARCHAR, name VARCHAR,
      city VARCHAR, state VARCHAR, checked_at VARCHAR, primary_slot TINYINT,
      ${NPPES_SLOTS.map((s) => `c${s} VARCHAR`).join(', ')},
      entity_type VARCHAR, org_name VARCHAR, last_name VARCHAR, first_name VARCHAR, postal_code VARCHAR,
      enumerated_on VARCHAR, deactivated_on VARCHAR,
      ${NPPES_SLOTS.map((s) => `l${s} VARCHAR, ls${s} VARCHAR`).join(', ')},
      match_fields STRUCT(${NPPES_MATCH_FIELDS}))`,
  );
}

/**
 * The SELECT of the latest non-rejected staged row per NPI (file listed last, then the later row), with `$1` bound
 * to the rejected status: the window only runs when some NPI has two rows (on the national file it is costly).
 * `columns` is the select list (`rowid AS srow, *` keeps the staged row's id, for a join back).
 */
export async function latestNppesRowsSql(connection: DuckDBConnection, columns = '*'): Promise<string> {
  const duplicates = await queryNumber(
    connection,
    'SELECT count(*) - count(DISTINCT npi) FROM nppes_stage WHERE status < $1',
    [NPPES_STATUS.rejected],
  );
  return duplicates > 0
    ? `SELECT ${columns} FROM nppes_stage WHERE status < $1
       QUALIFY row_number() OVER (PARTITION BY npi ORDER BY src DESC, rowid DESC) = 1`
    : `SELECT ${columns} FROM nppes_stage WHERE status < $1`;
}

/** The staged row's 15 slot columns `<prefix>1` to `<prefix>15` as one list, e.g. `slotListSql('c')` for the codes. */
export function slotListSql(prefix: string): string {
  return `[${NPPES_SLOTS.map((s) => `${prefix}${s}`).join(', ')}]`;
}

/**
 * One row of two maps from NUCC (`nucc.class_of`: code to classification key; `nucc.display_of`: code to display
 * name). NUCC has one row per code (duplicates are rejected), as a map needs.
 */
export const NUCC_MAPS_SQL =
  'SELECT map(list(code), list(classification_key)) AS class_of, map(list(code), list(display_name)) AS display_of FROM taxonomy';

/**
 * The classification key of each slot's code, with `nucc` ({@link NUCC_MAPS_SQL}) in scope: the key bound at
 * `unmapped` for a code NUCC lacks, NULL for an empty slot (so that an empty slot never shares a classification
 * with a code).
 */
export function slotClassesSql(unmapped: string): string {
  return `list_transform(${slotListSql('c')}, c -> CASE WHEN c IS NOT NULL
          THEN coalesce(map_extract_value(nucc.class_of, c), ${unmapped}::VARCHAR) END)`;
}
