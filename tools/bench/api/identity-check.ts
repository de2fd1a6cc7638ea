/**
 * The correctness check of `bench:api`, before any timing: drawn identity queries must answer exactly what DuckDB
 * computes over the identity Parquet (`pagination.total`, and the NPIs of `data` in order).
 */
import type http from 'node:http';
import type { DuckDBConnection } from '@duckdb/node-api';
import { request } from './http-load';
import {
  expectedAnswer,
  type IdentityQuery,
  type IdentityScenarioId,
  type IdentityWorkload,
} from './identity-workload';

/** Drawn identity queries checked against DuckDB before timing, per scenario. */
export const CHECKS: Record<IdentityScenarioId, number> = { a: 8, b: 8, c: 6, d: 8 };
/** One checked query and the expected answer's size. */
export interface CheckRecord {
  scenario: IdentityScenarioId;
  path: string;
  total: number;
  page: number;
}

/**
 * Sends the first drawn queries of each scenario and compares every answer with DuckDB's over the Parquet:
 * `pagination.total` and the NPIs of `data` in order. Throws on any mismatch, listing them all.
 */
export async function checkIdentityAnswers(
  conn: DuckDBConnection,
  agent: http.Agent,
  port: number,
  key: string,
  workload: IdentityWorkload,
): Promise<CheckRecord[]> {
  const checked: CheckRecord[] = [];
  const mismatches: string[] = [];
  const queries: IdentityQuery[] = (Object.keys(CHECKS) as IdentityScenarioId[]).flatMap((id) =>
    workload.queries[id].slice(0, CHECKS[id]),
  );
  for (const q of queries) {
    const expected = await expectedAnswer(conn, q);
    const res = await request(agent, port, q.path, key);
    if (res.status !== 200) {
      mismatches.push(`${q.scenario} ${q.path}: HTTP ${res.status} ${res.body.slice(0, 200)}`);
      continue;
    }
    const body = JSON.parse(res.body) as { pagination: { total: number }; data: { npi: string }[] };
    const npis = body.data.map((p) => p.npi);
    const problems: string[] = [];
    if (body.pagination.total !== expected.total)
      problems.push(`total ${body.pagination.total}, expected ${expected.total}`);
    if (npis.length !== expected.npis.length)
      problems.push(`${npis.length} rows on the page, expected ${expected.npis.length}`);
    const differs = expected.npis.findIndex((npi, i) => npis[i] !== npi);
    if (differs >= 0) problems.push(`page row ${differs} is NPI ${npis[differs]}, expected ${expected.npis[differs]}`);
    if (problems.length > 0) mismatches.push(`${q.scenario} ${q.path}: ${problems.join('; ')}`);
    checked.push({ scenario: q.scenario, path: q.path, total: expected.total, page: expected.npis.length });
  }
  if (mismatches.length > 0) {
    throw new Error(
      `the identity path answered ${mismatches.length} of ${queries.length} checked queries differently from ` +
        `DuckDB over the Parquet:\n  ${mismatches.join('\n  ')}`,
    );
  }
  return checked;
}
