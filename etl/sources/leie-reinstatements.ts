/**
 * LEIE reinstatements: a staged row with a REINDATE (a monthly reinstatement supplement's row) removes every
 * accepted exclusion of an EARLIER file with the same key: the NPI (or none), LASTNAME, FIRSTNAME, MIDNAME, BUSNAME,
 * DOB and EXCLDATE (upper-cased and trimmed when staged). The OIG's supplements repeat the reinstated exclusion's row
 * with REINDATE set, so the key finds it; DOB tells apart two people of one name excluded on one day.
 *
 * Tables: `leie_in_force` (the accepted exclusions that no reinstatement removed, with their staged `row`), and
 * `oig_reinstated (npi, rein_date)`: the NPIs whose exclusion a file of this build reinstated and that have no other
 * exclusion in force (the change feed says why their match went).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryNumber } from '../../platform/duckdb/statements';

const KEY_COLUMNS = ['npi', 'last_name', 'first_name', 'mid_name', 'bus_name', 'dob', 'excl_date'] as const;

/** The reinstatement key's equality between staged rows `e` (the exclusion) and `r` (the reinstatement). */
const SAME_KEY = KEY_COLUMNS.map((c) => `e.${c} IS NOT DISTINCT FROM r.${c}`).join(' AND ');

const ACCEPTED_EXCLUSION = (alias: string) => `${alias}.reason IS NULL AND ${alias}.rein_date IS NULL`;
const ACCEPTED_REINSTATEMENT = (alias: string) => `${alias}.reason IS NULL AND ${alias}.rein_date IS NOT NULL`;

/** The accepted reinstatements of file `src` that match no exclusion of an earlier file. */
export async function unmatchedReinstatements(connection: DuckDBConnection, src: number): Promise<number> {
  return queryNumber(
    connection,
    `SELECT count(*) FROM leie_stage r
     WHERE r.src = $1 AND ${ACCEPTED_REINSTATEMENT('r')}
       AND NOT EXISTS (SELECT 1 FROM leie_stage e WHERE e.src < r.src AND ${ACCEPTED_EXCLUSION('e')} AND ${SAME_KEY})`,
    [src],
  );
}

/**
 * Creates `leie_reinstated (row, npi, rein_date)` (the exclusions removed, with their latest reinstatement date) and
 * `leie_in_force` (every staged column and `row`, the staged rowid): run after every LEIE file is staged.
 * Returns the exclusions removed.
 */
export async function applyLeieReinstatements(connection: DuckDBConnection): Promise<number> {
  await connection.run(
    `CREATE OR REPLACE TABLE leie_reinstated AS
     SELECT e.rowid AS row, any_value(e.npi) AS npi, max(r.rein_date) AS rein_date
     FROM leie_stage e JOIN leie_stage r ON r.src > e.src AND ${SAME_KEY}
     WHERE ${ACCEPTED_EXCLUSION('e')} AND ${ACCEPTED_REINSTATEMENT('r')}
     GROUP BY e.rowid`,
  );
  await connection.run(
    `CREATE OR REPLACE TABLE leie_in_force AS
     SELECT s.rowid AS row, s.* FROM leie_stage s
     WHERE ${ACCEPTED_EXCLUSION('s')} AND s.rowid NOT IN (SELECT row FROM leie_reinstated)`,
  );
  return queryNumber(connection, 'SELECT count(*) FROM leie_reinstated');
}

/**
 * Creates `oig_reinstated (npi, rein_date)` (`YYYY-MM-DD`, the latest reinstatement) after `oig_match`: empty when
 * the build reads no LEIE file (`leie_reinstated` absent).
 */
export async function buildOigReinstated(connection: DuckDBConnection, fromFiles: boolean): Promise<number> {
  if (!fromFiles) {
    await connection.run('CREATE OR REPLACE TABLE oig_reinstated (npi VARCHAR, rein_date VARCHAR)');
    return 0;
  }
  await connection.run(
    `CREATE OR REPLACE TABLE oig_reinstated AS
     SELECT npi, strftime(max(rein_date), '%Y-%m-%d') AS rein_date FROM leie_reinstated
     WHERE npi IS NOT NULL AND npi NOT IN (SELECT npi FROM oig_match)
     GROUP BY npi ORDER BY npi`,
  );
  return queryNumber(connection, 'SELECT count(*) FROM oig_reinstated');
}
