/**
 * The change feed's scenario of `bench:api`: a compliance team's monthly re-screen, `GET /changes?since=<last
 * month's snapshot>&npi=<a roster of 100>`. Rosters are drawn uniformly from every NPI the current snapshot knows
 * (its change basis: active and deactivated), so a roster holds changed NPIs as often as the registry does (about
 * 1 in 100 at the bench's 1%), across every month partition and row group.
 */
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { SnapshotManifest } from '../../../data-contracts/layout';
import { sqlStringLiteral } from '../../../platform/sql';
import type { Random } from '../../demo/random';
import { GOALS } from './goals';
import { UrlCycle } from './http-load';
import type { Scenario } from './scenarios';

const ROSTERS = 400;
const ROSTER_SIZE = 100;
const DRAWN_NPIS = 40_000;

/** The roster scenario over the folder store at `dataDir`, or none when the snapshot keeps no step of changes. */
export async function buildChangesScenarios(
  conn: DuckDBConnection,
  dataDir: string,
  manifest: SnapshotManifest,
  rng: Random,
): Promise<{ scenarios: Scenario[]; changes: number; since: string | null }> {
  const step = manifest.changes?.steps.at(-1);
  const basis = manifest.objects.find((o) => o.kind === 'changes_basis');
  if (step === undefined || basis === undefined) return { scenarios: [], changes: 0, since: null };
  const rows = (
    await conn.runAndReadAll(
      `SELECT npi FROM read_parquet(${sqlStringLiteral(path.join(dataDir, basis.key))}) USING SAMPLE reservoir(${DRAWN_NPIS} ROWS) REPEATABLE (7)`,
    )
  ).getRowObjectsJson();
  const npis = rng.shuffle(rows.map((r) => String(r.npi)));
  const urls: string[] = [];
  for (let i = 0; i < ROSTERS; i += 1) {
    const roster = Array.from({ length: ROSTER_SIZE }, () => rng.pick(npis));
    urls.push(`/api/v1/changes?since=${step.from_snapshot}&npi=${roster.join(',')}`);
  }
  return {
    scenarios: [
      {
        name: 'changes: roster of 100, a month',
        urls: new UrlCycle(urls),
        prime: urls.slice(0, 1),
        primeUnit: 'change feed',
        p99GoalMs: GOALS.changesRosterP99Ms,
      },
    ],
    changes: step.changes,
    since: step.from_snapshot,
  };
}
