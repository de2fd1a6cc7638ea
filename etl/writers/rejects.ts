/**
 * The run's rejects as `rejects.csv` (columns REJECTS_COLUMNS of data-contracts/layout.ts), from the `rejects` table
 * that csv/rejects.ts collects into.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { REJECTS_COLUMNS } from '../../data-contracts/layout';
import { queryNumber, runBound } from '../../platform/duckdb/statements';
import { sqlIdentifier, sqlPath } from '../../platform/sql';
import { REJECT_SOURCES } from '../csv/rejects';

/** Writes the rejects table as RFC 4180 CSV (header row, quoted when needed), ordered by source, file and line. */
export async function writeRejectsCsv(connection: DuckDBConnection, outFile: string): Promise<number> {
  // Sources in REJECT_SOURCES order: list_position of the row's source in the bound list.
  await runBound(
    connection,
    `COPY (SELECT ${REJECTS_COLUMNS.map(sqlIdentifier).join(', ')} FROM rejects
      ORDER BY list_position($1::VARCHAR[], source), file, line) TO ${sqlPath(outFile)} (FORMAT csv, HEADER true)`,
    [REJECT_SOURCES],
  );
  return queryNumber(connection, 'SELECT count(*)::INTEGER AS n FROM rejects');
}
