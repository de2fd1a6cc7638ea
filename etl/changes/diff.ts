/**
 * The changes of one step (data-contracts/changes.ts, "What is a change"), computed with DuckDB between the
 * previous snapshot and the new one, into the `changes_step` table (kind, npi, entity_id, vertical, field, old_value,
 * new_value; the step's snapshot ids and as-of times are added when the step is kept).
 *
 * - Identity kinds: a full outer join of the previous basis and the new one on `npi`. An NPI the new basis lacks
 *   (its row rejected this time, say) is reported by no kind: nothing is known about it. The OIG candidates of the
 *   NPIs whose candidate list differs are unnested and matched by key; a basis without `oig_candidates` (written
 *   before candidates, or carried from one) on either side compares as "unchanged".
 * - Vertical kinds: a full outer join of the previous snapshot's tracked vertical partitions and the new ones on
 *   `entity_id`, keeping only records `verified` on at least one side, so `internal_only` records never appear.
 *
 * Values are JSON text built by DuckDB (`to_json`, `json_object`), so nulls and escaping follow JSON; an absent value
 * is SQL NULL. Only the rows that differ are materialised before the kinds are read off them.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryNumber, queryRows } from '../../platform/duckdb/statements';
import { sqlPath } from '../../platform/sql';
import { parquetColumns } from './basis';

export const STEP_TABLE = 'changes_step' as const;

/** Creates the empty {@link STEP_TABLE}. */
export async function createStepTable(connection: DuckDBConnection): Promise<void> {
  await connection.run(
    `CREATE OR REPLACE TABLE ${STEP_TABLE} (kind VARCHAR, npi VARCHAR, entity_id VARCHAR, vertical VARCHAR,
      field VARCHAR, old_value VARCHAR, new_value VARCHAR)`,
  );
}

/** `json_object` of a basis side's OIG cells (`o` or `n`). */
const oigValue = (side: 'o' | 'n') => `json_object('type', ${side}_oig_type, 'date', ${side}_oig_date)::VARCHAR`;
const jsonText = (expr: string) => `to_json(${expr})::VARCHAR`;
/** Why an NPI is no longer matched: reinstated by a supplement of the build (and when), else no longer listed. */
const removedValue = `CASE WHEN n_rein IS NOT NULL THEN json_object('reason', 'reinstated', 'date', n_rein)
  ELSE json_object('reason', 'not_listed') END::VARCHAR`;
/** One side's candidates (`o` or `n`) of the NPIs whose list changed: npi, key, candidate (JSON text). */
const candidateSide = (side: 'o' | 'n') => `
  SELECT npi, e->>'key' AS key, (e->'candidate')::VARCHAR AS candidate
  FROM (SELECT npi, unnest(from_json(${side}_cand, '["JSON"]')) AS e FROM changes_identity_diff
        WHERE ${side}_cand IS NOT NULL AND o_cand IS DISTINCT FROM n_cand)`;

/**
 * Adds the identity changes between the previous basis (a Parquet file) and the new basis table to
 * {@link STEP_TABLE}. Returns the rows added.
 */
export async function addIdentityChanges(
  connection: DuckDBConnection,
  oldBasisFile: string,
  newBasisTable: string,
): Promise<number> {
  const before = await queryNumber(connection, `SELECT count(*) FROM ${STEP_TABLE}`);
  const newColumns = new Set(
    (await queryRows(connection, `DESCRIBE ${newBasisTable}`)).map((r) => String(r.column_name)),
  );
  // Candidates are compared only when both bases have them; otherwise both sides read the new one's (no change).
  const compared =
    (await parquetColumns(connection, oldBasisFile)).has('oig_candidates') && newColumns.has('oig_candidates');
  const newCandidates = newColumns.has('oig_candidates') ? 'n.oig_candidates' : 'NULL::VARCHAR';
  const oldCandidates = compared ? 'o.oig_candidates' : newCandidates;
  const reinstated = newColumns.has('oig_reinstated') ? 'n.oig_reinstated' : 'NULL::VARCHAR';
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE changes_identity_diff AS
     SELECT n.npi, o.npi IS NOT NULL AS had,
       o.status AS o_status, n.status AS n_status, o.deactivation_date AS o_deact, n.deactivation_date AS n_deact,
       o.name AS o_name, n.name AS n_name, o.primary_taxonomy AS o_tax, n.primary_taxonomy AS n_tax,
       o.state AS o_state, n.state AS n_state,
       coalesce(o.oig_excluded, false) AS o_oig, coalesce(n.oig_excluded, false) AS n_oig,
       o.oig_type AS o_oig_type, o.oig_date AS o_oig_date, n.oig_type AS n_oig_type, n.oig_date AS n_oig_date,
       ${oldCandidates} AS o_cand, ${newCandidates} AS n_cand, ${reinstated} AS n_rein
     FROM read_parquet(${sqlPath(oldBasisFile)}) o FULL OUTER JOIN ${newBasisTable} n ON o.npi = n.npi
     WHERE n.npi IS NOT NULL AND (o.npi IS NULL
       OR o.status IS DISTINCT FROM n.status OR o.name IS DISTINCT FROM n.name
       OR o.primary_taxonomy IS DISTINCT FROM n.primary_taxonomy OR o.state IS DISTINCT FROM n.state
       OR coalesce(o.oig_excluded, false) <> coalesce(n.oig_excluded, false)
       OR ${oldCandidates} IS DISTINCT FROM ${newCandidates})`,
  );
  const bothActive = "had AND o_status = 'active' AND n_status = 'active'";
  const fieldChange = (field: string, o: string, n: string) =>
    `SELECT '${field}_changed', npi, '${field}', ${jsonText(o)}, ${jsonText(n)} FROM changes_identity_diff
     WHERE ${bothActive} AND ${o} IS DISTINCT FROM ${n}`;
  await connection.run(
    `INSERT INTO ${STEP_TABLE} (kind, npi, field, old_value, new_value)
     SELECT 'oig_excluded', npi, NULL, NULL, ${oigValue('n')} FROM changes_identity_diff WHERE n_oig AND NOT o_oig
     UNION ALL
     SELECT 'oig_removed', npi, NULL, ${oigValue('o')}, ${removedValue}
     FROM changes_identity_diff WHERE had AND o_oig AND NOT n_oig
     UNION ALL
     SELECT 'npi_deactivated', npi, NULL, NULL, json_object('deactivation_date', n_deact)::VARCHAR
     FROM changes_identity_diff WHERE had AND o_status = 'active' AND n_status = 'deactivated'
     UNION ALL
     SELECT 'npi_reactivated', npi, NULL, json_object('deactivation_date', o_deact)::VARCHAR, NULL
     FROM changes_identity_diff WHERE had AND o_status = 'deactivated' AND n_status = 'active'
     UNION ALL
     SELECT 'npi_enumerated', npi, NULL, NULL,
       json_object('name', n_name, 'primary_taxonomy', n_tax, 'state', n_state)::VARCHAR
     FROM changes_identity_diff WHERE NOT had
     UNION ALL ${fieldChange('name', 'o_name', 'n_name')}
     UNION ALL ${fieldChange('primary_taxonomy', 'o_tax', 'n_tax')}
     UNION ALL ${fieldChange('state', 'o_state', 'n_state')}`,
  );
  await addCandidateChanges(connection);
  await connection.run('DROP TABLE changes_identity_diff');
  return (await queryNumber(connection, `SELECT count(*) FROM ${STEP_TABLE}`)) - before;
}

/**
 * Adds `oig_candidate_added` / `oig_candidate_removed` for the NPIs of `changes_identity_diff` whose candidate list
 * changed: a candidate whose key the other side lacks. A strength or evidence change alone keeps the key: no change.
 */
async function addCandidateChanges(connection: DuckDBConnection): Promise<void> {
  await connection.run(`CREATE OR REPLACE TEMP TABLE changes_candidates_old AS ${candidateSide('o')}`);
  await connection.run(`CREATE OR REPLACE TEMP TABLE changes_candidates_new AS ${candidateSide('n')}`);
  await connection.run(
    `INSERT INTO ${STEP_TABLE} (kind, npi, field, old_value, new_value)
     SELECT 'oig_candidate_added', n.npi, NULL, NULL, n.candidate FROM changes_candidates_new n
     WHERE NOT EXISTS (SELECT 1 FROM changes_candidates_old o WHERE o.npi = n.npi AND o.key = n.key)
     UNION ALL
     SELECT 'oig_candidate_removed', o.npi, NULL, o.candidate, NULL FROM changes_candidates_old o
     WHERE NOT EXISTS (SELECT 1 FROM changes_candidates_new n WHERE n.npi = o.npi AND n.key = o.key)`,
  );
  await connection.run('DROP TABLE changes_candidates_old');
  await connection.run('DROP TABLE changes_candidates_new');
}

/** The vertical columns the comparison reads. */
const VERTICAL_COMPARED = [
  'entity_id',
  'vertical',
  'npi',
  'name',
  'state',
  'publish_tier',
  'certification_status',
  'license_status',
  'fda_status',
  'price_range',
  'price_monthly_min',
  'price_monthly_max',
] as const;

/** The signals whose status is compared (`field` of `signal_changed`; `price` is compared apart). */
const STATUS_SIGNALS = ['certification', 'license', 'fda'] as const;

/** A SELECT of the compared columns over Parquet files, or an empty typed SELECT when there are none. */
function verticalSide(files: readonly string[]): string {
  const columns = VERTICAL_COMPARED.join(', ');
  if (files.length === 0) {
    return `SELECT ${VERTICAL_COMPARED.map((c) => (c.startsWith('price_monthly') ? `NULL::DOUBLE AS ${c}` : `NULL::VARCHAR AS ${c}`)).join(', ')} WHERE false`;
  }
  return `SELECT ${columns} FROM read_parquet([${files.map(sqlPath).join(', ')}])`;
}

/**
 * Adds the vertical changes between the previous snapshot's tracked partitions and the new snapshot's to
 * {@link STEP_TABLE}. Returns the rows added.
 */
export async function addVerticalChanges(
  connection: DuckDBConnection,
  oldTracked: readonly string[],
  newTracked: readonly string[],
): Promise<number> {
  const before = await queryNumber(connection, `SELECT count(*) FROM ${STEP_TABLE}`);
  const pair = VERTICAL_COMPARED.map((c) => `o.${c} AS o_${c}, n.${c} AS n_${c}`).join(', ');
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE changes_vertical_diff AS
     SELECT coalesce(n.entity_id, o.entity_id) AS entity_id, ${pair},
       coalesce(o.publish_tier = 'verified', false) AS o_verified, coalesce(n.publish_tier = 'verified', false) AS n_verified
     FROM (${verticalSide(oldTracked)}) o FULL OUTER JOIN (${verticalSide(newTracked)}) n ON o.entity_id = n.entity_id
     WHERE o.publish_tier = 'verified' OR n.publish_tier = 'verified'`,
  );
  const both = 'o_verified AND n_verified';
  const statusChange = (signal: (typeof STATUS_SIGNALS)[number]) =>
    `SELECT 'signal_changed', n_npi, entity_id, n_vertical, '${signal}',
       ${jsonText(`o_${signal}_status`)}, ${jsonText(`n_${signal}_status`)}
     FROM changes_vertical_diff WHERE ${both} AND o_${signal}_status IS DISTINCT FROM n_${signal}_status`;
  const price = (side: 'o' | 'n') =>
    `json_object('range', ${side}_price_range, 'monthly_min', ${side}_price_monthly_min, 'monthly_max', ${side}_price_monthly_max)::VARCHAR`;
  await connection.run(
    `INSERT INTO ${STEP_TABLE} (kind, npi, entity_id, vertical, field, old_value, new_value)
     SELECT 'verified_added', n_npi, entity_id, n_vertical, NULL, NULL, json_object('name', n_name, 'state', n_state)::VARCHAR
     FROM changes_vertical_diff WHERE n_verified AND NOT o_verified
     UNION ALL
     SELECT 'verified_removed', o_npi, entity_id, o_vertical, NULL, json_object('name', o_name, 'state', o_state)::VARCHAR, NULL
     FROM changes_vertical_diff WHERE o_verified AND NOT n_verified
     UNION ALL ${STATUS_SIGNALS.map(statusChange).join('\n     UNION ALL ')}
     UNION ALL
     SELECT 'signal_changed', n_npi, entity_id, n_vertical, 'price', ${price('o')}, ${price('n')}
     FROM changes_vertical_diff WHERE ${both}
       AND (o_price_range IS DISTINCT FROM n_price_range OR o_price_monthly_min IS DISTINCT FROM n_price_monthly_min
         OR o_price_monthly_max IS DISTINCT FROM n_price_monthly_max)`,
  );
  await connection.run('DROP TABLE changes_vertical_diff');
  return (await queryNumber(connection, `SELECT count(*) FROM ${STEP_TABLE}`)) - before;
}
