/**
 * OIG LEIE `UPDATED.csv` (unquoted header, quoted fields, `YYYYMMDD` dates, `0000000000` for "no NPI") to the
 * `oig_match` table: one row per NPI with the exclusion of its latest EXCLDATE (ties: the file listed last, then the
 * later row). Matching is by NPI only; the names in LEIE are never used.
 *
 * Rejected rows: a row that cannot be read (csv/scan.ts), a value longer than its column's width in the OIG record
 * layout (`LEIE_FIELD_BOUNDS`), an NPI that is neither the placeholder nor a valid NPI, an
 * EXCLDATE that is not a calendar date, and an EXCLDATE after the snapshot date (an exclusion cannot be dated later).
 * Rows with the placeholder NPI are accepted (they are real exclusions) but can never match.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryNumber, queryRows, runBound } from '../../platform/duckdb/statements';
import { readCsvHeader, requireColumns } from '../csv/read';
import { capRawSql } from '../csv/rejects';
import { collectScanRejects, prepareCsvScan, rowByRowCsvSql, withLinesSql } from '../csv/scan';
import { withCsvErrors } from '../errors';
import { compactDateSql } from '../transforms/dates';
import { overlongFieldSql } from '../transforms/field-bounds';
import { LEIE_NO_NPI, npiCheckSql } from '../transforms/npi';
import { LEIE_FIELD_BOUNDS } from './field-bounds';

export const LEIE_COLUMNS = { npi: 'NPI', exclType: 'EXCLTYPE', exclDate: 'EXCLDATE' } as const;

export interface LeieFileCounts {
  file: string;
  read: number;
  accepted: number;
  rejected: number;
  /** Accepted rows that carry a real NPI. */
  with_npi: number;
}

export async function createLeieStage(connection: DuckDBConnection): Promise<void> {
  await connection.run(
    'CREATE OR REPLACE TABLE leie_stage (src INTEGER, npi VARCHAR, excl_type VARCHAR, excl_date DATE, reason VARCHAR)',
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
  const prepared = await prepareCsvScan(connection, file, opts.workDir, { source: 'leie', displayName });
  const base = await queryNumber(connection, 'SELECT count(*) FROM leie_stage');
  await withCsvErrors(file, () =>
    runBound(
      connection,
      `INSERT INTO leie_stage
       WITH raw AS (
         SELECT ${overlongFieldSql(header, LEIE_FIELD_BOUNDS)} AS overlong,
           nullif(trim("NPI"), '') AS npi, nullif(trim("EXCLTYPE"), '') AS excl_type,
           nullif(trim("EXCLDATE"), '') AS date_raw
         FROM ${rowByRowCsvSql(prepared.scanFile, header)}
       ), parsed AS (SELECT *, ${compactDateSql('date_raw')} AS excl_date FROM raw)
       SELECT $1::INTEGER, CASE WHEN npi = $2 THEN NULL ELSE npi END, excl_type, excl_date,
         CASE
           WHEN overlong IS NOT NULL THEN overlong
           WHEN npi IS NULL THEN 'NPI is empty (LEIE writes 0000000000 for no NPI)'
           WHEN npi <> $2 AND NOT ${npiCheckSql('npi')} THEN 'invalid NPI: ' || npi
           WHEN excl_date IS NULL THEN 'unparseable EXCLDATE: ' || coalesce(date_raw, '(empty)')
           WHEN excl_date > $3::DATE THEN 'EXCLDATE after the snapshot date: ' || date_raw
         END
       FROM parsed`,
      [src, LEIE_NO_NPI, opts.snapshotDate],
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
    `SELECT count(*)::BIGINT AS n, count(reason)::BIGINT AS bad, count(*) FILTER (reason IS NULL AND npi IS NOT NULL)::BIGINT AS npis
     FROM leie_stage WHERE src = $1`,
    [src],
  );
  const rejected = Number(row.bad ?? 0) + unreadable;
  const read = Number(row.n ?? 0) + unreadable;
  return { file: displayName, read, accepted: read - rejected, rejected, with_npi: Number(row.npis ?? 0) };
}

/**
 * Creates `oig_match (npi, oig_type, oig_date, oig_checked_at)`: the latest exclusion per NPI. `asOf` is the LEIE
 * release time given to the ETL (the file itself carries none).
 */
export async function buildOigMatch(connection: DuckDBConnection, asOf: string | null): Promise<number> {
  await runBound(
    connection,
    `CREATE OR REPLACE TABLE oig_match AS
     SELECT npi, excl_type AS oig_type, strftime(excl_date, '%Y-%m-%d') AS oig_date, $1::VARCHAR AS oig_checked_at
     FROM leie_stage WHERE reason IS NULL AND npi IS NOT NULL
     QUALIFY row_number() OVER (PARTITION BY npi ORDER BY excl_date DESC, src DESC, rowid DESC) = 1`,
    [asOf],
  );
  return queryNumber(connection, 'SELECT count(*) FROM oig_match');
}
