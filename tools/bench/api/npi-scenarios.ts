/**
 * The NPI lookup scenarios of `bench:api`: a single NPI (`/npi/{npi}`) and a batch of 100 (`/npi?numbers=`), with
 * NPIs drawn uniformly from the snapshot's own NPI buckets (active NPIs only, so every answer is a 200), over every
 * bucket, so the server's bucket cache is exercised as spread traffic would; the lookup scenario first primes
 * the server with one lookup per bucket (each bucket is unzipped once per process). The buckets are read with the API's
 * own reader (platform/npi-index/reader.ts), which also gives the index's size.
 */

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SnapshotManifest } from '../../../data-contracts/layout';
import { BufferSource } from '../../../platform/binary/byte-source';
import { storedNpiBucket } from '../../../platform/npi-index/format';
import { NpiIndexReader } from '../../../platform/npi-index/reader';
import type { Random } from '../../demo/random';
import { GOALS } from './goals';
import { UrlCycle } from './http-load';
import type { NpiIndexSize } from './report';
import type { Scenario } from './scenarios';

/** NPIs drawn per bucket at most (the draw stays bounded at national scale: 2,000 buckets). */
const PER_BUCKET = 4;
const ACTIVE = Buffer.from('"status":"active"');

export interface NpiScenarios {
  scenarios: Scenario[];
  size: NpiIndexSize | null;
  /** One drawn active NPI (the cold lookup's), or null. */
  sample: string | null;
}

/**
 * The two NPI scenarios over the folder store at `dataDir` (the bench's snapshot), or none when the snapshot has
 * no NPI buckets.
 */
export async function buildNpiScenarios(
  dataDir: string,
  manifest: SnapshotManifest,
  rng: Random,
): Promise<NpiScenarios> {
  const npis: string[] = [];
  /** One NPI per bucket: the priming pass. */
  const firsts: string[] = [];
  const size: NpiIndexSize = { buckets: 0, npis: 0, storedBytes: 0, rawBytes: 0 };
  for (const object of manifest.objects.filter((o) => o.kind === 'npi')) {
    const gz = await readFile(path.join(dataDir, object.key));
    const raw = storedNpiBucket(object.key, gz);
    const reader = NpiIndexReader.open(new BufferSource(raw));
    size.buckets += 1;
    size.npis += reader.count;
    size.storedBytes += gz.length;
    size.rawBytes += raw.length;
    let drawn = 0;
    for (const i of rng.shuffle(Array.from({ length: reader.count }, (_, i) => i))) {
      if (drawn >= PER_BUCKET) break;
      if (reader.recordBytes(i).includes(ACTIVE)) {
        if (drawn === 0) firsts.push(reader.npiAt(i));
        npis.push(reader.npiAt(i));
        drawn += 1;
      }
    }
  }
  if (npis.length === 0) return { scenarios: [], size: size.buckets > 0 ? size : null, sample: null };
  const drawn = rng.shuffle(npis);
  const batches: string[] = [];
  for (let i = 0; i < 200; i += 1) {
    batches.push(`/api/v1/npi?numbers=${Array.from({ length: 100 }, () => rng.pick(drawn)).join(',')}`);
  }
  return {
    scenarios: [
      {
        name: 'npi lookup',
        urls: new UrlCycle(drawn.map((n) => `/api/v1/npi/${n}`)),
        // Every bucket's first use in the process unzips it (once): done before the warm figures are measured, as
        // the identity scenarios open their partitions first. The cold cost is the cold NPI lookup of the report.
        prime: firsts.map((n) => `/api/v1/npi/${n}`),
        primeUnit: 'bucket',
        p99GoalMs: GOALS.npiP99Ms,
      },
      { name: 'npi batch of 100', urls: new UrlCycle(batches), p99GoalMs: GOALS.npiBatchP99Ms },
    ],
    size,
    sample: drawn[0] ?? null,
  };
}
