/**
 * The OIG possible-match tables the later steps read, created empty when the sources step did not make them: the
 * identity rows and NPI heads (`oig_candidate`) and the change feed's basis (`oig_candidate`, `oig_reinstated`) then
 * hold "none" rather than failing on a missing table.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { OIG_CANDIDATE_COLUMNS } from '../sources/oig-candidates';

/** Creates `oig_candidate` and `oig_reinstated` when they do not exist. */
export async function ensureOigCandidateTables(connection: DuckDBConnection): Promise<void> {
  await connection.run(`CREATE TABLE IF NOT EXISTS oig_candidate (${OIG_CANDIDATE_COLUMNS})`);
  await connection.run('CREATE TABLE IF NOT EXISTS oig_reinstated (npi VARCHAR, rein_date VARCHAR)');
}
