/**
 * OIG LEIE files (unquoted header, quoted fields, `YYYYMMDD` dates, `0000000000` for "no NPI") to the `leie_stage`
 * table: the full `UPDATED.csv` first, then the monthly supplements (same 18 columns), in order. A row with REINDATE
 * set (not empty, not `00000000`) is a reinstatement: it removes the matching exclusion of an earlier file
 * (sources/leie-reinstatements.ts) and is never an exclusion itself.
 *
 * Rejected rows: a row that cannot be read (csv/scan.ts), a value longer than its column's width in the OIG record
 * layout (`LEIE_FIELD_BOUNDS`), an NPI that is neither the placeholder nor a valid NPI, an EXCLDATE that is not a
 * calendar date or is after the snapshot date (an exclusion cannot be dated later), and a REINDATE that is not a
 * calendar date, is after the snapshot date or before the row's EXCLDATE. Rows with the placeholder NPI are accepted
 * (they are real exclusions): they never match by NPI, and are the ones the possible matches are computed for
 * (sources/oig-candidates.ts), with the identifying columns staged here (DOB only for the reinstatement key: it is
 * never published).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryNumber, queryRows, runBound } from '../../platform/duckdb/statements';
import { readCsvHeader, requireColumns } from '../csv/read';
import { capRawSql } from '../csv/rejects';
import { collectScanRejects, prepareCsvScan, rowByRowCsvSql, withLinesSql } from '../csv/scan';
import { withCsvErrors } from '../errors';
import { compactDateSql, LEIE_NO_DATE } from '../transforms/dates';
import { overlongFieldSql } from '../transforms/field-bounds';
import { cleanTextSql } from '../transforms/names';
import { LEIE_NO_NPI, npiCheckSql } from '../transforms/npi';
import { LEIE_FIELD_BOUNDS } from './field-bounds';
import { unmatchedReinstatements } from './leie-reinstatements';

/** The LEIE columns the ETL reads (every file must have them). */
export const LEIE_COLUMNS = {
  lastName: 'LASTNAME',
  firstName: 'FIRSTNAME',
  middleName: 'MIDNAME',
  businessName: 'BUSNAME',
  general: 'GENERAL',
  specialty: 'SPECIALTY',
  npi: 'NPI',
  dob: 'DOB',
  city: 'CITY',
  state: 'STATE',
  zip: 'ZIP',
  exclType: 'EXCLTYPE',
  exclDate: 'EXCLDATE',
  reinDate: 'REINDATE',
} as const;

/** Upper-cased, trimmed, inner spaces collapsed, blank as NULL. */
const textSql = (column: string) => `upper(${cleanTextSql(`"${column}"`)})`;

export interface LeieFileCounts {
  file: string;
  read: number;
  accepted: number;
  rejected: number;
  /** Accepted exclusions that carry a real NPI. */
  with_npi: number;
  /** Accepted reinstatement rows (REINDATE set), and those that matched no exclusion of an earlier file. */
  reinstatements: number;
  reinstatements_unmatched: number;
}

export async function createLeieStage(connection: DuckDBConnection): Promise<void> {
  await connection.run(
    `CREATE OR REPLACE TABLE leie_stage (src INTEGER, npi VARCHAR, excl_type VARCHAR, excl_date DATE, reason VARCHAR,
      last_name VARCHAR, first_name VARCHAR, mid_name VARCHAR, bus_name VARCHAR, general VARCHAR, specialty VARCHAR,
      city VARCHAR, state VARCHAR, zip VARCHAR, dob VARCHAR, rein_date DATE)`,
  );
}

/**
 * Stages one LEIE file and records its rejects (with their lines). `snapshotDate` is the run's date (`YYYY-MM-DD`);
 * `workDir` takes the file's copy when a line has to be blanked before the scan.
 */
export async function stageLeieFile(
  connection: DuckDBConnection,
  file: string,
  src: number,
  displayName: string,
  opts: { workDir: string; snapshotDate: string },
): Promise<LeieFileCounts> {
  const header = await readCsvHeader(file);
  requireColumns(file, header, Object.values(LEIE_COLUMNS));
  const C = LEIE_COLUMNS;
  const prepared = await prepareCsvScan(connection, file, opts.workDir, { source: 'leie', displayName });
  const base = await queryNumber(connection, 'SELECT count(*) FROM leie_stage');
  await withCsvErrors(file, () =>
    runBound(
      connection,
      `INSERT INTO leie_stage
       WITH raw AS (
         SELECT ${overlongFieldSql(header, LEIE_FIELD_BOUNDS)} AS overlong,
           nullif(trim("NPI"), '') AS npi, nullif(trim("EXCLTYPE"), '') AS excl_type,
           nullif(trim("EXCLDATE"), '') AS date_raw, nullif(trim("REINDATE"), '') AS rein_raw,
           ${textSql(C.lastName)} AS last_name, ${textSql(C.firstName)} AS first_name,
           ${textSql(C.middleName)} AS mid_name, ${textSql(C.businessName)} AS bus_name,
           ${textSql(C.general)} AS general, ${textSql(C.specialty)} AS specialty,
           ${textSql(C.city)} AS city, ${textSql(C.state)} AS state,
           nullif(regexp_extract(trim("ZIP"), '^[0-9]{5}'), '') AS zip, nullif(trim("DOB"), '') AS dob
         FROM ${rowByRowCsvSql(prepared.scanFile, header)}
       ), parsed AS (
         SELECT *, ${compactDateSql('date_raw')} AS excl_date, coalesce(rein_raw <> $4, false) AS reinstates,
           CASE WHEN rein_raw <> $4 THEN ${compactDateSql('rein_raw')} END AS rein_date
         FROM raw
       )
       SELECT $1::INTEGER, CASE WHEN npi = $2 THEN NULL ELSE npi END, excl_type, excl_date,
         CASE
           WHEN overlong IS NOT NULL THEN overlong
           WHEN npi IS NULL THEN 'NPI is empty (LEIE writes 0000000000 for no NPI)'
           WHEN npi <> $2 AND NOT ${npiCheckSql('npi')} THEN 'invalid NPI: ' || npi
           WHEN excl_date IS NULL THEN 'unparseable EXCLDATE: ' || coalesce(date_raw, '(empty)')
           WHEN excl_date > $3::DATE THEN 'EXCLDATE after the snapshot date: ' || date_raw
           WHEN reinstates AND rein_date IS NULL THEN 'unparseable REINDATE: ' || rein_raw
           WHEN rein_date > $3::DATE THEN 'REINDATE after the snapshot date: ' || rein_raw
           WHEN rein_date < excl_date THEN 'REINDATE before EXCLDATE: ' || rein_raw
         END,
         last_name, first_name, mid_name, bus_name, general, specialty, city, state, zip, dob, rein_date
       FROM parsed`,
      [src, LEIE_NO_NPI, opts.snapshotDate, LEIE_NO_DATE],
    ),
  );
  const staged = (await queryNumber(connection, 'SELECT count(*) FROM leie_stage')) - base;
  const unreadable = await collectScanRejects(connection, { source: 'leie', file, displayName, staged, prepared });
  await runBound(
    connection,
    `INSERT INTO rejects
     SELECT 'leie', $1, line, reason, ${capRawSql("'NPI=' || coalesce(npi, '')")}
     FROM (${withLinesSql('SELECT rowid - $2 AS ordinal, reason, npi FROM leie_stage WHERE src = $3 AND reason IS NOT NULL')})`,
    [displayName, base, src],
  );
  const [row = {}] = await queryRows(
    connection,
    `SELECT count(*)::BIGINT AS n, count(reason)::BIGINT AS bad,
       count(*) FILTER (reason IS NULL AND npi IS NOT NULL AND rein_date IS NULL)::BIGINT AS npis,
       count(*) FILTER (reason IS NULL AND rein_date IS NOT NULL)::BIGINT AS reins
     FROM leie_stage WHERE src = $1`,
    [src],
  );
  const rejected = Number(row.bad ?? 0) + unreadable;
  const read = Number(row.n ?? 0) + unreadable;
  return {
    file: displayName,
    read,
    accepted: read - rejected,
    rejected,
    with_npi: Number(row.npis ?? 0),
    reinstatements: Number(row.reins ?? 0),
    reinstatements_unmatched: await unmatchedReinstatements(connection, src),
  };
}

/**
 * Creates `oig_match (npi, oig_type, oig_date, oig_checked_at)`: the latest exclusion in force per NPI (`leie_in_force`,
 * after the reinstatements). `asOf` is the last LEIE file's release time (the files themselves carry none).
 */
export async function buildOigMatch(connection: DuckDBConnection, asOf: string | null): Promise<number> {
  await runBound(
    connection,
    `CREATE OR REPLACE TABLE oig_match AS
     SELECT npi, excl_type AS oig_type, strftime(excl_date, '%Y-%m-%d') AS oig_date, $1::VARCHAR AS oig_checked_at
     FROM leie_in_force WHERE npi IS NOT NULL
     QUALIFY row_number() OVER (PARTITION BY npi ORDER BY excl_date DESC, src DESC, row DESC) = 1`,
    [asOf],
  );
  return queryNumber(connection, 'SELECT count(*) FROM oig_match');
}
