/**
 * NPPES dissemination CSV (V2, 330 columns) to the identity layer.
 *
 * One DuckDB scan per file reads only the columns below (`all_varchar`, so ZIPs and codes keep their leading zeros)
 * and stages one compact row per record with its validation outcome; everything after that works on the staged
 * table, so the big CSV is read exactly once. Both published forms are accepted by the same scan: CMS's own form
 * (every field quoted, `MM/DD/YYYY`, LF) and the re-saved form (`M/D/YY`, minimal quoting, CRLF, no final line end).
 *
 * Rules (docs/data-team.md repeats them):
 * - a row is rejected for: a value longer than its column's width in the NPPES readme (`NPPES_FIELD_BOUNDS`, checked
 *   first, deactivated rows included); an NPI that is not 10 digits or fails the check digit; a date (Last Update, Deactivation,
 *   Reactivation) that is set but not a date; on an active row, an Entity Type Code other than 1 or 2, no name, or no
 *   taxonomy code;
 * - deactivated = Deactivation Date set and no Reactivation Date on or after it. Deactivated rows are skipped (not
 *   rejects); reactivated NPIs are active;
 * - an NPI present in several files (or twice in one): the row of the file listed last wins, then the later row;
 *   rejected rows never win;
 * - taxonomy: the 15 slots are unpivoted; a code held in several slots is kept once, at its lowest slot, and is
 *   primary when any of those slots carries Primary Taxonomy Switch `Y`.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryNumber, queryRows, runBound, withProgress } from '../../platform/duckdb/statements';
import { sqlIdentifier, sqlStringLiteral } from '../../platform/sql';
import { readCsvHeader, requireColumns } from '../csv/read';
import { capRawSql } from '../csv/rejects';
import { collectScanRejects, prepareCsvScan, rowByRowCsvSql, withLinesSql } from '../csv/scan';
import { withCsvErrors } from '../errors';
import { usDateSql } from '../transforms/dates';
import { overlongFieldSql } from '../transforms/field-bounds';
import { cleanTextSql, individualNameSql } from '../transforms/names';
import { npiCheckSql } from '../transforms/npi';
import {
  licenseNumberColumn,
  licenseStateColumn,
  NPPES_COLUMNS,
  NPPES_FIELD_BOUNDS,
  NPPES_LOOKUP_COLUMNS,
  NPPES_MATCH_COLUMNS,
  NPPES_REQUIRED_COLUMNS,
  NPPES_SLOTS,
  primarySwitchColumn,
  taxonomyCodeColumn,
} from './nppes-columns';
import { NPPES_STATUS } from './nppes-staged';

export interface NppesFileCounts {
  file: string;
  read: number;
  accepted: number;
  rejected: number;
  /** Deactivated rows, skipped. */
  skipped: number;
}

const col = (name: string) => sqlIdentifier(name);

/**
 * The staging SELECT for one file: one output row per input record, in file order. Parameters: `$1` the file's
 * source number, `$2`..`$4` the statuses rejected, deactivated and active.
 */
function stageSql(scanFile: string, header: readonly string[]): string {
  const present = new Set(header);
  const C = NPPES_COLUMNS;
  const M = NPPES_MATCH_COLUMNS;
  const zip5 = (expr: string) => `nullif(substr(regexp_extract(${expr}, '^[0-9]{5}'), 1, 5), '')`;
  const optional = (name: string) => (present.has(name) ? cleanTextSql(col(name)) : 'NULL::VARCHAR');
  const lookups = NPPES_SLOTS.map(
    (s) => `${optional(licenseNumberColumn(s))} AS l${s}, upper(${optional(licenseStateColumn(s))}) AS ls${s}`,
  ).join(',\n        ');
  const codes = NPPES_SLOTS.map((s) => `nullif(upper(trim(${col(taxonomyCodeColumn(s))})), '') AS c${s}`).join(
    ',\n      ',
  );
  const primary = NPPES_SLOTS.map((s) => `WHEN upper(trim(${col(primarySwitchColumn(s))})) = 'Y' THEN ${s}`).join(' ');
  const dateChecks = (
    [
      ['upd', C.lastUpdate],
      ['deact', C.deactivation],
      ['react', C.reactivation],
    ] as const
  )
    .map(
      ([alias, name]) =>
        `WHEN ${alias}_raw IS NOT NULL AND ${alias} IS NULL THEN ${sqlStringLiteral(`unparseable ${name}: `)} || ${alias}_raw`,
    )
    .join('\n        ');
  return `
    WITH raw AS (
      SELECT
        ${overlongFieldSql(header, NPPES_FIELD_BOUNDS)} AS overlong,
        nullif(trim(${col(C.npi)}), '') AS npi,
        nullif(trim(${col(C.entityType)}), '') AS entity_type,
        ${cleanTextSql(col(C.organisationName))} AS org_name,
        ${individualNameSql({
          first: col(C.firstName),
          middle: col(C.middleName),
          last: col(C.lastName),
          suffix: col(C.suffix),
          credential: col(C.credential),
        })} AS person_name,
        ${cleanTextSql(col(C.city))} AS city,
        ${cleanTextSql(col(C.state))} AS state,
        nullif(trim(${col(C.lastUpdate)}), '') AS upd_raw,
        nullif(trim(${col(C.deactivation)}), '') AS deact_raw,
        nullif(trim(${col(C.reactivation)}), '') AS react_raw,
        CASE ${primary} END AS primary_slot,
        ${codes},
        ${cleanTextSql(col(C.lastName))} AS last_name,
        ${cleanTextSql(col(C.firstName))} AS first_name,
        substr(regexp_extract(${optional(NPPES_LOOKUP_COLUMNS.postalCode)}, '^[0-9]{5}'), 1, 5) AS postal_raw,
        {'middle_name': ${cleanTextSql(col(C.middleName))}, 'other_org_name': ${optional(M.otherOrganisationName)},
          'mail_city': ${optional(M.mailingCity)}, 'mail_state': ${optional(M.mailingState)},
          'mail_postal': ${zip5(optional(M.mailingPostalCode))}} AS match_fields,
        ${optional(NPPES_LOOKUP_COLUMNS.enumerationDate)} AS enum_raw,
        ${lookups}
      FROM ${rowByRowCsvSql(scanFile, header)}
    ), parsed AS (
      SELECT *,
        ${usDateSql('upd_raw')} AS upd,
        ${usDateSql('deact_raw')} AS deact,
        ${usDateSql('react_raw')} AS react,
        ${usDateSql('enum_raw')} AS enumerated,
        ${npiCheckSql('npi')} AS npi_ok,
        CASE entity_type WHEN '1' THEN person_name WHEN '2' THEN org_name END AS name,
        coalesce(${NPPES_SLOTS.map((s) => `c${s}`).join(', ')}) IS NOT NULL AS has_code
      FROM raw
    ), judged AS (
      SELECT *,
        CASE
        WHEN overlong IS NOT NULL THEN overlong
        WHEN npi IS NULL THEN 'invalid NPI: empty'
        WHEN NOT regexp_full_match(npi, '[0-9]{10}') THEN 'invalid NPI: not 10 digits: ' || npi
        WHEN NOT npi_ok THEN 'invalid NPI: check digit fails: ' || npi
        ${dateChecks}
        WHEN deact IS NOT NULL AND (react IS NULL OR react < deact) THEN NULL
        WHEN entity_type IS NULL OR entity_type NOT IN ('1', '2') THEN 'unknown Entity Type Code: ' || coalesce(entity_type, '(empty)')
        WHEN name IS NULL THEN 'active NPI without a name'
        WHEN NOT has_code THEN 'active NPI without a taxonomy code'
        END AS reason,
        deact IS NOT NULL AND (react IS NULL OR react < deact) AS deactivated
      FROM parsed
    )
    SELECT $1::INTEGER AS src, npi,
      CASE WHEN reason IS NOT NULL THEN $2::TINYINT WHEN deactivated THEN $3::TINYINT ELSE $4::TINYINT END AS status,
      reason, name, city, state, strftime(upd, '%Y-%m-%d') AS checked_at, primary_slot,
      ${NPPES_SLOTS.map((s) => `c${s}`).join(', ')},
      entity_type, org_name, last_name, first_name, nullif(postal_raw, '') AS postal_code,
      strftime(enumerated, '%Y-%m-%d') AS enumerated_on,
      CASE WHEN deactivated THEN strftime(deact, '%Y-%m-%d') END AS deactivated_on,
      ${NPPES_SLOTS.map((s) => `l${s}, ls${s}`).join(', ')},
      match_fields
    FROM judged`;
}

/**
 * Checks the header, then stages every record of `file` (one scan). Rows that cannot be read and rows that fail
 * validation are inserted into the `rejects` table with their line number (header = line 1); `workDir` takes the
 * file's copy when a line has to be blanked before the scan (csv/lines.ts).
 */
export async function stageNppesFile(
  connection: DuckDBConnection,
  file: string,
  src: number,
  displayName: string,
  workDir: string,
  onProgress?: (percent: number, rows: number) => void,
): Promise<NppesFileCounts> {
  const header = await readCsvHeader(file);
  requireColumns(file, header, NPPES_REQUIRED_COLUMNS);
  const prepared = await prepareCsvScan(connection, file, workDir, { source: 'nppes', displayName });
  // rowids are dense and in insertion order (no deletes), so rowid - base is the record's 0-based ordinal.
  const base = await queryNumber(connection, 'SELECT count(*) FROM nppes_stage');
  await withCsvErrors(file, () =>
    withProgress(connection, onProgress, () =>
      runBound(connection, `INSERT INTO nppes_stage ${stageSql(prepared.scanFile, header)}`, [
        src,
        NPPES_STATUS.rejected,
        NPPES_STATUS.deactivated,
        NPPES_STATUS.active,
      ]),
    ),
  );
  const staged = (await queryNumber(connection, 'SELECT count(*) FROM nppes_stage')) - base;
  const unreadable = await collectScanRejects(connection, {
    source: 'nppes',
    file,
    displayName,
    staged,
    prepared,
  });
  await runBound(
    connection,
    `INSERT INTO rejects
     SELECT 'nppes', $1, line, reason, ${capRawSql("'NPI=' || coalesce(npi, '')")}
     FROM (${withLinesSql('SELECT rowid - $2 AS ordinal, reason, npi FROM nppes_stage WHERE src = $3 AND status = $4')})`,
    [displayName, base, src, NPPES_STATUS.rejected],
  );
  const rows = await queryRows(
    connection,
    'SELECT status, count(*)::BIGINT AS n FROM nppes_stage WHERE src = $1 GROUP BY status',
    [src],
  );
  const byStatus = new Map(rows.map((r) => [Number(r.status), Number(r.n)]));
  const accepted = byStatus.get(NPPES_STATUS.active) ?? 0;
  const skipped = byStatus.get(NPPES_STATUS.deactivated) ?? 0;
  const rejected = (byStatus.get(NPPES_STATUS.rejected) ?? 0) + unreadable;
  return { file: displayName, read: accepted + skipped + rejected, accepted, rejected, skipped };
}
