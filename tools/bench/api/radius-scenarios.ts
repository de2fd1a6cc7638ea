/**
 * The radius search scenarios of `bench:api` and their correctness check.
 *
 * Points are drawn from the data's own rows: a reservoir sample of the identity rows over every partition (so a ZIP
 * comes up as often as it holds providers, and a taxonomy as often as it is held), each query a drawn row's code
 * (half of them as its classification name) around the row's own practice ZIP, at radii of 5, 25 and 100 miles. The
 * dense scenarios ask 100 miles around the ZIP with the most rows near New York, Los Angeles and Chicago for the
 * largest classification, at offset 0 and at a deep offset. The vertical scenario draws its points from the glp1
 * layer's placed rows.
 *
 * The check, before timing: drawn queries of each radius must answer exactly what DuckDB computes over the
 * identity Parquet with the snapshot's ZIP table and the same great-circle formula (platform/geo/distance.ts
 * `greatCircleSql`): the total, the NPIs of the page in order and their distances (within 0.01 mile of the
 * unrounded distance rounded to one decimal).
 */
import { readFile } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { classificationKey, type SnapshotManifest } from '../../../data-contracts/layout';
import { roundedMiles } from '../../../data-contracts/near';
import { appendRows, createTable } from '../../../platform/duckdb/statements';
import { greatCircleSql } from '../../../platform/geo/distance';
import { ZipTable } from '../../../platform/geo/zip-table';
import { sqlStringLiteral } from '../../../platform/sql';
import type { Random } from '../../demo/random';
import type { HotPartition } from './bench-snapshot';
import { GOALS } from './goals';
import { request, UrlCycle } from './http-load';
import type { Scenario } from './scenarios';

/** Distinct drawn queries per radius. */
const DRAWS = 2000;
/** The radii of the drawn scenarios; the goal is on 25 miles. */
export const RADII = [5, 25, 100] as const;
/** Drawn queries checked against DuckDB per radius. */
export const RADIUS_CHECKS = 12;
/** The metros of the dense scenarios: their centres. */
const METROS = [
  { name: 'New York', latitude: 40.7506, longitude: -73.9973 },
  { name: 'Los Angeles', latitude: 34.0522, longitude: -118.2437 },
  { name: 'Chicago', latitude: 41.8781, longitude: -87.6298 },
] as const;

/** One drawn radius query: what it asks, for the check. */
export interface RadiusQuery {
  path: string;
  taxonomy: { kind: 'code'; code: string } | { kind: 'classification'; key: string };
  zip: string;
  radius: number;
  limit: number;
  offset: number;
}

export interface RadiusWorkload {
  scenarios: Scenario[];
  /** The queries the check sends, per radius. */
  checks: RadiusQuery[];
  /** The dense scenarios' ZIPs and totals. */
  dense: { metro: string; zip: string; total: number; deepOffset: number }[];
  placedShare: number;
}

/**
 * Loads the snapshot's ZIP table into DuckDB (`bench_zip`) and draws the radius scenarios; none when the snapshot
 * has no ZIP table. The `identity` and `taxonomy` views of identity-workload.ts must exist.
 */
export async function buildRadiusScenarios(
  conn: DuckDBConnection,
  dataDir: string,
  manifest: SnapshotManifest,
  hot: HotPartition,
  rng: Random,
  seed: number,
): Promise<RadiusWorkload | null> {
  const object = manifest.objects.find((o) => o.kind === 'zip_table');
  if (object === undefined) return null;
  const table = ZipTable.decode(await readFile(path.join(dataDir, object.key)));
  const columns = { zip: 'VARCHAR', latitude: 'DOUBLE', longitude: 'DOUBLE' } as const;
  await createTable(conn, 'bench_zip', columns);
  await appendRows(
    conn,
    'bench_zip',
    columns,
    Array.from({ length: table.size }, (_, rank) => table.at(rank)),
  );
  const placed = await rows(
    conn,
    `SELECT avg(CASE WHEN z.zip IS NULL THEN 0 ELSE 1 END) AS share
     FROM identity i LEFT JOIN bench_zip z ON z.zip = i.postal_code`,
  );
  const sample = await rows(
    conn,
    `SELECT s.taxonomy_code AS code, s.postal_code AS zip, t.classification AS classification
     FROM (SELECT taxonomy_code, postal_code FROM identity
           USING SAMPLE reservoir(${Math.trunc(DRAWS * 2)} ROWS) REPEATABLE (${Math.trunc(seed)})) s
     JOIN bench_zip z ON z.zip = s.postal_code
     LEFT JOIN taxonomy t ON t.code = s.taxonomy_code`,
  );
  const drawn = rng.shuffle(sample);
  const scenarios: Scenario[] = [];
  const checks: RadiusQuery[] = [];
  for (const radius of RADII) {
    const queries = drawn.slice(0, DRAWS).map((r, i): RadiusQuery => {
      const byName = i % 2 === 1 && typeof r.classification === 'string';
      const asked = byName ? String(r.classification) : String(r.code);
      return {
        path: `/api/v1/providers?taxonomy=${encodeURIComponent(asked)}&near=${r.zip}&radius_miles=${radius}&limit=50`,
        taxonomy: byName
          ? { kind: 'classification', key: classificationKey(String(r.classification)) }
          : { kind: 'code', code: String(r.code) },
        zip: String(r.zip),
        radius,
        limit: 50,
        offset: 0,
      };
    });
    checks.push(...queries.slice(0, RADIUS_CHECKS));
    // Primed with one query per distinct taxonomy: each partition is opened before the warm-up (as the identity
    // scenarios do); its first use is the cold scenarios' and the rehearsal's.
    const firstOf = new Map<string, string>();
    for (const q of queries) {
      const t = q.taxonomy.kind === 'code' ? q.taxonomy.code : q.taxonomy.key;
      if (!firstOf.has(t)) firstOf.set(t, q.path);
    }
    scenarios.push({
      name: `radius ${radius} mi: taxonomy + near, limit 50`,
      urls: new UrlCycle(queries.map((q) => q.path)),
      prime: [...firstOf.values()],
      primeUnit: 'taxonomy',
      // The goal is on 25 miles; 5 and 100 miles are measured beside it.
      ...(radius === 25 ? { p99GoalMs: GOALS.radiusP99Ms, rpsGoal: GOALS.radiusRps } : {}),
    });
  }

  // Dense: the ZIP with the most rows of the largest classification within 20 miles of each metro's centre.
  const dense: RadiusWorkload['dense'] = [];
  const denseUrls: { first: string[]; deep: string[] } = { first: [], deep: [] };
  const name = encodeURIComponent(hot.classification);
  for (const metro of METROS) {
    const top = await rows(
      conn,
      `SELECT i.postal_code AS zip, count(*) AS n FROM identity i JOIN bench_zip z ON z.zip = i.postal_code
       WHERE i.classification_key = $1 AND i.class_rep
         AND ${greatCircleSql('$2::DOUBLE', '$3::DOUBLE', 'z.latitude', 'z.longitude')} <= 20
       GROUP BY 1 ORDER BY n DESC, zip LIMIT 1`,
      [hot.classificationKey, metro.latitude, metro.longitude],
    );
    const zip = top[0]?.zip;
    if (typeof zip !== 'string') continue;
    const base: Omit<RadiusQuery, 'path' | 'offset'> = {
      taxonomy: { kind: 'classification', key: hot.classificationKey },
      zip,
      radius: 100,
      limit: 50,
    };
    const { total } = await expectedRadius(conn, { ...base, path: '', offset: 0 });
    const deepOffset = Math.max(0, Math.min(total - 50, Math.floor(total * 0.9)));
    dense.push({ metro: metro.name, zip, total, deepOffset });
    const url = (offset: number) =>
      `/api/v1/providers?taxonomy=${name}&near=${zip}&radius_miles=100&limit=50&offset=${offset}`;
    denseUrls.first.push(url(0));
    denseUrls.deep.push(url(deepOffset));
    checks.push({ ...base, path: url(0), offset: 0 }, { ...base, path: url(deepOffset), offset: deepOffset });
  }
  if (denseUrls.first.length > 0) {
    scenarios.push(
      {
        name: '100 mi around NY/LA/Chicago, offset 0',
        urls: new UrlCycle(denseUrls.first),
        p99GoalMs: GOALS.radiusDenseP99Ms,
      },
      {
        name: '100 mi around NY/LA/Chicago, deep offset',
        urls: new UrlCycle(denseUrls.deep),
        p99GoalMs: GOALS.radiusDenseP99Ms,
      },
    );
  }

  // Vertical: points drawn from the glp1 layer's placed rows.
  const verticalFiles = manifest.objects
    .filter((o) => o.kind === 'vertical' && o.vertical === 'glp1' && o.boundary === 'verified')
    .map((o) => path.join(dataDir, o.key));
  if (verticalFiles.length > 0) {
    const points = await rows(
      conn,
      `SELECT latitude, longitude FROM read_parquet([${verticalFiles.map(sqlStringLiteral).join(', ')}])
       WHERE latitude IS NOT NULL AND longitude IS NOT NULL AND business_mode <> 'online'`,
    );
    const urls = rng
      .shuffle(points)
      .slice(0, DRAWS)
      .map(
        (p) =>
          `/api/v1/providers?vertical=glp1&near=${Number(p.latitude).toFixed(4)},${Number(p.longitude).toFixed(4)}&radius_miles=25&limit=50`,
      );
    if (urls.length > 0) {
      scenarios.push({
        name: 'vertical near 25 mi, limit 50',
        urls: new UrlCycle(urls),
        p99GoalMs: GOALS.radiusVerticalP99Ms,
      });
    }
  }
  return { scenarios, checks, dense, placedShare: Number(placed[0]?.share ?? 0) };
}

/** DuckDB's answer to a radius query: the total, and the page's NPIs and unrounded distances. */
export async function expectedRadius(
  conn: DuckDBConnection,
  q: RadiusQuery,
): Promise<{ total: number; npis: string[]; miles: number[] }> {
  const filter = q.taxonomy.kind === 'code' ? 'i.taxonomy_code = $1' : 'i.class_rep AND i.classification_key = $1';
  const value = q.taxonomy.kind === 'code' ? q.taxonomy.code : q.taxonomy.key;
  const distance = greatCircleSql('c.latitude', 'c.longitude', 'z.latitude', 'z.longitude');
  const sql = `
    WITH c AS (SELECT latitude, longitude FROM bench_zip WHERE zip = $2),
    hits AS (
      SELECT i.npi, ${distance} AS miles
      FROM identity i JOIN bench_zip z ON z.zip = i.postal_code CROSS JOIN c
      WHERE ${filter}
    )
    SELECT npi, miles, count(*) OVER () AS total FROM hits WHERE miles <= $3::DOUBLE
    ORDER BY miles, npi`;
  const all = await rows(conn, sql, [value, q.zip, q.radius]);
  const page = all.slice(q.offset, q.offset + q.limit);
  return {
    total: all.length,
    npis: page.map((r) => String(r.npi)),
    miles: page.map((r) => Number(r.miles)),
  };
}

/**
 * Sends every check query and compares the answer with DuckDB's: total, NPIs in order, distances. Throws on any
 * mismatch, listing them all; returns how many were checked and how many had rows.
 */
export async function checkRadiusAnswers(
  conn: DuckDBConnection,
  agent: http.Agent,
  port: number,
  key: string,
  queries: readonly RadiusQuery[],
): Promise<{ checked: number; nonEmpty: number }> {
  const mismatches: string[] = [];
  let nonEmpty = 0;
  for (const q of queries) {
    const expected = await expectedRadius(conn, q);
    if (expected.total > 0) nonEmpty += 1;
    const res = await request(agent, port, q.path, key);
    if (res.status !== 200) {
      mismatches.push(`${q.path}: HTTP ${res.status} ${res.body.slice(0, 200)}`);
      continue;
    }
    const body = JSON.parse(res.body) as {
      pagination: { total: number };
      data: { npi: string; distance_miles: number }[];
    };
    const npis = body.data.map((d) => d.npi);
    const far = body.data.filter(
      (d, i) => Math.abs(d.distance_miles - roundedMiles(expected.miles[i] as number)) > 0.01,
    );
    if (body.pagination.total !== expected.total) {
      mismatches.push(`${q.path}: total ${body.pagination.total}, DuckDB ${expected.total}`);
    } else if (npis.join(',') !== expected.npis.join(',')) {
      mismatches.push(`${q.path}: the page's NPIs differ from DuckDB's`);
    } else if (far.length > 0) {
      mismatches.push(`${q.path}: ${far.length} distances differ from DuckDB's`);
    }
  }
  if (mismatches.length > 0) throw new Error(`radius answers differ from DuckDB:\n${mismatches.join('\n')}`);
  return { checked: queries.length, nonEmpty };
}

async function rows(
  conn: DuckDBConnection,
  sql: string,
  params: (string | number)[] = [],
): Promise<Record<string, unknown>[]> {
  const reader = params.length > 0 ? await conn.runAndReadAll(sql, params) : await conn.runAndReadAll(sql);
  return reader.getRowObjectsJson() as Record<string, unknown>[];
}
