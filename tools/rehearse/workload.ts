/**
 * What the rehearsal asks: the query kinds of the issue, each a list of URLs drawn over the whole snapshot exactly
 * as bench:api draws them (tools/bench/api: identity rows sampled uniformly over every partition, NPIs from every
 * bucket, search prefixes and ZIPs from every state's index as often as the state holds NPIs, rosters from the
 * whole change basis), plus the vertical list (verified rows' states as often as they occur) and the change feed
 * since last month's snapshot (pages at offsets over all its changes), and radius search (taxonomy + near 25 miles of
 * drawn rows' ZIPs, and the vertical layer's near: tools/bench/api/radius-scenarios.ts), cold answers only: the
 * fleet's mix is the earlier issue's.
 */
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { SnapshotManifest } from '../../data-contracts/layout';
import { sqlStringLiteral } from '../../platform/sql';
import { probeHotPartition } from '../bench/api/bench-snapshot';
import { buildChangesScenarios } from '../bench/api/changes-scenarios';
import { drawIdentityWorkload, openIdentityViews } from '../bench/api/identity-workload';
import { buildNpiScenarios } from '../bench/api/npi-scenarios';
import { buildRadiusScenarios } from '../bench/api/radius-scenarios';
import type { Scenario } from '../bench/api/scenarios';
import { buildSearchScenarios } from '../bench/api/search-scenarios';
import type { Random } from '../demo/random';

export const QUERY_KINDS = [
  'identity_a',
  'identity_b',
  'identity_c',
  'identity_d',
  'npi_single',
  'npi_batch',
  'search_name',
  'search_zip',
  'changes_roster',
  'changes_since',
  'vertical_list',
  'radius_identity',
  'radius_vertical',
] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];

/** The fleet's mix (shares of requests), as the issue gives it. */
export const FLEET_MIX: Partial<Record<QueryKind, number>> = {
  identity_a: 0.15,
  identity_b: 0.15,
  identity_c: 0.05,
  identity_d: 0.05,
  npi_single: 0.25,
  npi_batch: 0.1,
  search_name: 0.05,
  search_zip: 0.05,
  vertical_list: 0.1,
  changes_roster: 0.05,
};

export type Workload = Record<QueryKind, string[]>;

const CHANGES_PAGE = 1000;

/** Draws every kind's URLs from the folder snapshot at `dataDir`. */
export async function drawWorkload(
  dataDir: string,
  manifest: SnapshotManifest,
  rng: Random,
  draws: number,
): Promise<Workload> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    const identityFiles = manifest.objects.filter((o) => o.kind === 'identity').map((o) => path.join(dataDir, o.key));
    const taxonomy = manifest.objects.find((o) => o.kind === 'taxonomy');
    if (taxonomy === undefined) throw new Error('the snapshot has no taxonomy object');
    await openIdentityViews(conn, identityFiles, path.join(dataDir, taxonomy.key));
    const identity = await drawIdentityWorkload(conn, {
      files: identityFiles,
      taxonomyFile: path.join(dataDir, taxonomy.key),
      draws,
      deepQueries: Math.max(200, draws / 10),
      seed: 1,
      rng,
    });
    const npi = await buildNpiScenarios(dataDir, manifest, rng);
    const search = buildSearchScenarios(dataDir, manifest, rng);
    const changes = await buildChangesScenarios(conn, dataDir, manifest, rng);
    // Radius search: taxonomy + near within 25 miles of drawn rows' ZIPs, and the vertical layer's near.
    const radius = await buildRadiusScenarios(
      conn,
      dataDir,
      manifest,
      await probeHotPartition(conn, manifest, dataDir),
      rng,
      1,
    );
    const urlsOf = (list: Scenario[], name: string) =>
      list.find((s) => s.name.startsWith(name))?.urls.paths.slice() ?? [];

    const verified = manifest.objects
      .filter((o) => o.kind === 'vertical' && o.boundary === 'verified')
      .map((o) => sqlStringLiteral(path.join(dataDir, o.key)));
    const vertical: string[] = [];
    if (verified.length > 0) {
      const rows = (
        await conn.runAndReadAll(
          `SELECT state FROM read_parquet([${verified.join(', ')}]) WHERE state IS NOT NULL
           USING SAMPLE reservoir(2000 ROWS) REPEATABLE (3)`,
        )
      ).getRowObjectsJson();
      for (const row of rows) vertical.push(`/api/v1/providers?vertical=glp1&state=${String(row.state)}&limit=50`);
    }
    const step = manifest.changes?.steps.at(-1);
    const since: string[] = [];
    if (step !== undefined && step.changes > 0) {
      const pages = Math.max(1, Math.ceil(step.changes / CHANGES_PAGE));
      for (let i = 0; i < 400; i += 1) {
        const offset = CHANGES_PAGE * rng.int(0, pages - 1);
        since.push(`/api/v1/changes?since=${step.from_snapshot}&limit=${CHANGES_PAGE}&offset=${offset}`);
      }
    }
    return {
      identity_a: identity.queries.a.map((q) => q.path),
      identity_b: identity.queries.b.map((q) => q.path),
      identity_c: identity.queries.c.map((q) => q.path),
      identity_d: identity.queries.d.map((q) => q.path),
      npi_single: urlsOf(npi.scenarios, 'npi lookup'),
      npi_batch: urlsOf(npi.scenarios, 'npi batch'),
      search_name: urlsOf(search, 'search name'),
      search_zip: urlsOf(search, 'search postal'),
      changes_roster: urlsOf(changes.scenarios, 'changes: roster'),
      changes_since: since,
      vertical_list: rng.shuffle(vertical),
      radius_identity: urlsOf(radius?.scenarios ?? [], 'radius 25 mi'),
      radius_vertical: urlsOf(radius?.scenarios ?? [], 'vertical near'),
    };
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}
