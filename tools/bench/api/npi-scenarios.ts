/**
 * The NPI lookup scenarios of `bench:api`: a single NPI (`/npi/{npi}`) and a batch of 100 (`/npi?numbers=`), with
 * NPIs drawn uniformly from the snapshot's own NPI buckets (active NPIs only, so every answer is a 200), over every
 * bucket, so the server's bucket cache is exercised as spread traffic would.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { SnapshotManifest } from '../../../data-contracts/layout';
import type { Random } from '../../demo/random';
import { GOALS } from './goals';
import { UrlCycle } from './http-load';
import type { Scenario } from './scenarios';

/** NPIs drawn per bucket at most (the draw stays bounded at national scale: 2,000 buckets). */
const PER_BUCKET = 4;

/**
 * The two NPI scenarios over the folder store at `dataDir` (the bench's snapshot), or none when the snapshot has
 * no NPI buckets.
 */
export async function buildNpiScenarios(dataDir: string, manifest: SnapshotManifest, rng: Random): Promise<Scenario[]> {
  const npis: string[] = [];
  for (const object of manifest.objects.filter((o) => o.kind === 'npi')) {
    const lines = gunzipSync(await readFile(path.join(dataDir, object.key)))
      .toString('utf8')
      .split('\n')
      .filter((l) => l.includes('"status":"active"'));
    for (const line of rng.shuffle(lines).slice(0, PER_BUCKET)) npis.push(line.slice(8, 18));
  }
  if (npis.length === 0) return [];
  const drawn = rng.shuffle(npis);
  const batches: string[] = [];
  for (let i = 0; i < 200; i += 1) {
    batches.push(`/api/v1/npi?numbers=${Array.from({ length: 100 }, () => rng.pick(drawn)).join(',')}`);
  }
  return [
    { name: 'npi lookup', urls: new UrlCycle(drawn.map((n) => `/api/v1/npi/${n}`)), p99GoalMs: GOALS.p99Ms },
    { name: 'npi batch of 100', urls: new UrlCycle(batches) },
  ];
}
