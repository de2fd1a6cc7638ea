/**
 * The identity search scenarios of `bench:api`: a name prefix + state (`name=<2 to 6 letters>&state=XX`) and a postal
 * code + state, drawn from the snapshot's own search index entries over every state, each state as often as it
 * holds NPIs (so the largest states come up most, as with real traffic), prefixes of 2 to 6 characters in random
 * letter case.
 */
import path from 'node:path';
import type { SnapshotManifest } from '../../../data-contracts/layout';
import { FileSource } from '../../../platform/binary/file-source';
import { SearchIndexReader } from '../../../platform/search-index/reader';
import type { Random } from '../../demo/random';
import { GOALS } from './goals';
import { UrlCycle } from './http-load';
import type { Scenario } from './scenarios';

/** Distinct URLs drawn per scenario. */
const DRAWS = 4000;

/** The two search scenarios over the folder store at `dataDir`, or none when the snapshot has no search indexes. */
export function buildSearchScenarios(dataDir: string, manifest: SnapshotManifest, rng: Random): Scenario[] {
  const objects = manifest.objects.filter((o) => o.kind === 'search' && (o.rows ?? 0) > 0);
  if (objects.length === 0) return [];
  const total = objects.reduce((sum, o) => sum + (o.rows ?? 0), 0);
  const names: string[] = [];
  const postals: string[] = [];
  // The first query of each state, sent before the warm-up: a state's index is fetched and opened on its first use
  // (about 1.6 GB of indexes at 9,000,000 rows), which would otherwise land in the measured seconds.
  const firstName = new Map<string, string>();
  const firstPostal = new Map<string, string>();
  for (const object of objects) {
    const source = new FileSource(path.join(dataDir, object.key));
    try {
      const reader = SearchIndexReader.open(source);
      const draws = Math.max(1, Math.round((DRAWS * reader.entries) / total));
      for (let k = 0; k < draws; k += 1) {
        const entry = reader.entryAt(rng.int(0, reader.entries - 1));
        const prefix = [...entry.key].slice(0, rng.int(2, 6)).join('');
        if ([...prefix].length >= 2) {
          const asked = rng.int(0, 1) === 0 ? prefix.toUpperCase() : prefix;
          const url = `/api/v1/providers?name=${encodeURIComponent(asked)}&state=${reader.state}`;
          names.push(url);
          if (!firstName.has(reader.state)) firstName.set(reader.state, url);
        }
        if (entry.postalCode !== null) {
          const url = `/api/v1/providers?postal_code=${entry.postalCode}&state=${reader.state}`;
          postals.push(url);
          if (!firstPostal.has(reader.state)) firstPostal.set(reader.state, url);
        }
      }
    } finally {
      source.close();
    }
  }
  return [
    {
      name: 'search name + state',
      urls: new UrlCycle(rng.shuffle(names)),
      prime: [...firstName.values()],
      primeUnit: 'state',
      p99GoalMs: GOALS.p99Ms,
    },
    {
      name: 'search postal + state',
      urls: new UrlCycle(rng.shuffle(postals)),
      prime: [...firstPostal.values()],
      primeUnit: 'state',
      p99GoalMs: GOALS.p99Ms,
    },
  ];
}
