/**
 * Row-by-row reading of a big source file with DuckDB: a row that cannot be read is set aside with its line, the
 * scan goes on. The line pass (`lines.ts`) sets aside the lines DuckDB would merge with the next ones; DuckDB's
 * `store_rejects` records the rest (invalid UTF-8, too few or too many fields, a quote inside an unquoted field)
 * with its line and raw text: https://duckdb.org/docs/stable/data/csv/reading_faulty_csv_files
 *
 * The dialect is given in full (`auto_detect = false`, the header's columns), so no sniffing runs: a sniffer fails a
 * whole small file on one bad row. Every data line ends up staged, rejected or blank; `withLinesSql` maps a staged
 * row's ordinal back to its line.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { appendRows, queryNumber, runBound } from '../../platform/duckdb/statements';
import { sqlPath, sqlStringLiteral } from '../../platform/sql';
import { EtlInputError } from '../errors';
import { copyWithBlankLines, type LinePass, scanCsvLines } from './lines';
import { capRawSql, type RejectSource } from './rejects';

const SCAN_REJECTS = 'csv_scan_rejects';
const SCAN_REJECT_SCANS = 'csv_scan_reject_scans';
/** Per run: the data lines that are not a staged row (blank or rejected), for the line numbers of staged rows. */
const GAPS = 'csv_scan_gaps';

/** A file prepared for a row-by-row scan. */
export interface PreparedScan {
  /** The file the scan reads: the input, or its copy with the set-aside lines blank. */
  scanFile: string;
  pass: LinePass;
}

const REJECT_ROW = { source: 'VARCHAR', file: 'VARCHAR', line: 'BIGINT', reason: 'VARCHAR', raw: 'VARCHAR' } as const;

/**
 * Runs the line pass over `file`: its set-aside lines go to the `rejects` table (as `source`, `displayName`), its
 * set-aside and blank lines to the gaps table (emptied first); when a line is set aside, the blanked copy is
 * written into `workDir`.
 */
export async function prepareCsvScan(
  connection: DuckDBConnection,
  file: string,
  workDir: string,
  meta: { source: RejectSource; displayName: string },
): Promise<PreparedScan> {
  await connection.run(`CREATE OR REPLACE TEMP TABLE ${GAPS} (line BIGINT)`);
  const pass = await scanCsvLines(file, {
    flush: async (rejects, blankLines) => {
      await appendRows(
        connection,
        'rejects',
        REJECT_ROW,
        rejects.map((r) => ({ source: meta.source, file: meta.displayName, ...r })),
      );
      const lines = [...rejects.map((r) => r.line), ...blankLines].map((line) => ({ line }));
      await appendRows(connection, GAPS, { line: 'BIGINT' }, lines);
    },
  });
  const scanFile =
    pass.setAside.length === 0 ? file : await copyWithBlankLines(file, pass.setAside, workDir, pass.crlf);
  return { scanFile, pass };
}

/**
 * `read_csv(...)` over a prepared file: every column as text, the dialect and the header's column names given, bad
 * rows recorded instead of failing the scan.
 */
export function rowByRowCsvSql(scanFile: string, header: readonly string[]): string {
  const columns = header.map((h) => `${sqlStringLiteral(h)}: 'VARCHAR'`).join(', ');
  return (
    `read_csv(${sqlPath(scanFile)}, auto_detect = false, header = true, delim = ',', quote = '"', escape = '"', ` +
    `strict_mode = true, columns = {${columns}}, store_rejects = true, ` +
    `rejects_table = '${SCAN_REJECTS}', rejects_scan = '${SCAN_REJECT_SCANS}')`
  );
}

/**
 * After a file's scan: moves the rows DuckDB set aside into the `rejects` table, adds their lines to the gaps, and
 * checks that nothing was lost: staged + set aside + blank = the file's data lines. Returns the number of rows that
 * could not be read (DuckDB's and the line pass's).
 */
export async function collectScanRejects(
  connection: DuckDBConnection,
  scan: { source: RejectSource; file: string; displayName: string; staged: number; prepared: PreparedScan },
): Promise<number> {
  const { pass } = scan.prepared;
  // One reject per line (a line may hold several errors: the first by position is its reason).
  await runBound(
    connection,
    `INSERT INTO rejects
     SELECT $1, $2, line, lower(error_type) || ': ' || error_message, ${capRawSql('trim(csv_line, chr(13) || chr(10))')}
     FROM ${SCAN_REJECTS}
     QUALIFY row_number() OVER (PARTITION BY line ORDER BY byte_position) = 1`,
    [scan.source, scan.displayName],
  );
  const unreadable = await queryNumber(connection, `SELECT count(DISTINCT line) FROM ${SCAN_REJECTS}`);
  await connection.run(`INSERT INTO ${GAPS} SELECT DISTINCT line FROM ${SCAN_REJECTS}`);
  await connection.run(`DROP TABLE IF EXISTS ${SCAN_REJECTS}`);
  await connection.run(`DROP TABLE IF EXISTS ${SCAN_REJECT_SCANS}`);
  const gaps = await queryNumber(connection, `SELECT count(DISTINCT line) FROM ${GAPS}`);
  if (scan.staged + gaps !== pass.dataLines) {
    throw new EtlInputError(
      scan.file,
      `rows do not match lines: ${scan.staged} rows read and ${gaps} lines set aside or blank, ` +
        `but the file has ${pass.dataLines} data lines`,
    );
  }
  return unreadable + pass.setAside.length;
}

/**
 * The rows of `staged` (a SELECT with an `ordinal` column: the row's 0-based position among the file's staged rows)
 * with their file `line`: the ordinal-th data line that is not a gap. One ASOF join on the gaps (grouped by the
 * number of staged rows before them), so the cost does not grow with rows times gaps. Valid until the next file's
 * `prepareCsvScan`.
 */
export function withLinesSql(staged: string): string {
  return `WITH s AS (${staged}),
    g AS (
      SELECT staged_before, max(k) AS k FROM (
        SELECT line - 2 - (row_number() OVER (ORDER BY line) - 1) AS staged_before, row_number() OVER (ORDER BY line) AS k
        FROM (SELECT DISTINCT line FROM ${GAPS})
      ) GROUP BY staged_before
    )
    SELECT s.*, s.ordinal + 2 + coalesce(g.k, 0) AS line FROM s ASOF LEFT JOIN g ON s.ordinal >= g.staged_before`;
}
