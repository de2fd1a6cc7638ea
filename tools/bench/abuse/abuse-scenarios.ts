/**
 * The four scenarios of bench:abuse, each as URL lists drawn from the bench snapshot's own rows over the whole data
 * set (every NPI bucket, every identity partition, every page of the change feed), common values as often as they
 * occur: one list for the warm-up, then one per round, sent by the fresh key and by the exhausted key alike.
 *
 * - npi batch: `/npi?numbers=` with 100 distinct NPIs per call, no NPI asked twice in the run;
 * - roster: `/providers?npi=` with 100 distinct NPIs and `limit=100`, no NPI asked twice either;
 * - identity list: `/providers?taxonomy=&state=&limit=1000`, the taxonomy + state queries of bench:api
 *   (./api/identity-workload.ts, scenario a) with a page of 1000;
 * - changes page: `/changes?since=<last month's snapshot>&limit=1000` at offsets drawn over the whole feed.
 *
 * NPIs are drawn uniformly from every active NPI of the lookup buckets, read with the API's own reader as
 * ./api/npi-scenarios.ts does (which keeps 4 per bucket: too few here, where every call asks 100 new ones).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { NPI_BATCH_MAX } from '../../../data-contracts/constants';
import type { SnapshotManifest } from '../../../data-contracts/layout';
import { BufferSource } from '../../../platform/binary/byte-source';
import { storedNpiBucket } from '../../../platform/npi-index/format';
import { NpiIndexReader } from '../../../platform/npi-index/reader';
import type { Random } from '../../demo/random';
import type { IdentityQuery } from '../api/identity-workload';

export const SCENARIO_IDS = ['npi-batch', 'roster', 'identity-list', 'changes-page'] as const;
export type ScenarioId = (typeof SCENARIO_IDS)[number];

export interface AbuseScenario {
  id: ScenarioId;
  /** The request, as the report names it. */
  name: string;
  /** `sets[0]`: the warm-up's calls; `sets[r + 1]`: round r's calls, sent by both keys. */
  sets: string[][];
  /**
   * Calls that open what the scenario reads (each NPI bucket, identity partition, change-feed page) once before the
   * warm-up: a first use unzips or loads it once per process, which a long series would otherwise measure once.
   */
  prime: string[];
}

/** How many calls each list holds. */
export interface SetSizes {
  warmup: number;
  calls: number;
  rounds: number;
}

const ACTIVE = Buffer.from('"status":"active"');
const PAGE = 1000;

/** Active NPIs drawn from every lookup bucket of the snapshot. */
export interface NpiDraw {
  /** `count` distinct NPIs, uniformly drawn from every active NPI. */
  npis: string[];
  /** One active NPI per bucket, for priming. */
  firstPerBucket: string[];
  buckets: number;
  active: number;
}

/** Draws `count` distinct active NPIs, uniformly over all of them (so each bucket as often as it holds NPIs). */
export async function drawActiveNpis(
  dataDir: string,
  manifest: SnapshotManifest,
  count: number,
  rng: Random,
): Promise<NpiDraw> {
  const all: string[] = [];
  const firstPerBucket: string[] = [];
  let buckets = 0;
  for (const object of manifest.objects.filter((o) => o.kind === 'npi')) {
    const reader = NpiIndexReader.open(
      new BufferSource(storedNpiBucket(object.key, await readFile(path.join(dataDir, object.key)))),
    );
    buckets += 1;
    let first = true;
    for (let i = 0; i < reader.count; i += 1) {
      if (!reader.recordBytes(i).includes(ACTIVE)) continue;
      all.push(reader.npiAt(i));
      if (first) firstPerBucket.push(reader.npiAt(i));
      first = false;
    }
  }
  if (all.length < count) {
    throw new Error(`the snapshot has ${all.length} active NPIs; the NPI scenarios need ${count} distinct ones`);
  }
  // A partial Fisher-Yates shuffle: the first `count` places hold a uniform draw without replacement.
  for (let i = 0; i < count; i += 1) {
    const j = rng.int(i, all.length - 1);
    const tmp = all[i] as string;
    all[i] = all[j] as string;
    all[j] = tmp;
  }
  return { npis: all.slice(0, count), firstPerBucket, buckets, active: all.length };
}

/** NPIs the two NPI scenarios need: 100 per call of every list. */
export function npisNeeded(sizes: SetSizes): number {
  return NPI_BATCH_MAX * (sizes.warmup + sizes.calls * sizes.rounds);
}

/** Cuts `items` into the lists of {@link SetSizes}: the warm-up's, then one per round. */
function cutSets<T>(items: readonly T[], sizes: SetSizes): T[][] {
  const need = sizes.warmup + sizes.calls * sizes.rounds;
  if (items.length < need) throw new Error(`${need} calls needed, ${items.length} drawn`);
  const sets = [items.slice(0, sizes.warmup)];
  for (let r = 0; r < sizes.rounds; r += 1) {
    const from = sizes.warmup + r * sizes.calls;
    sets.push(items.slice(from, from + sizes.calls));
  }
  return sets;
}

function chunks(npis: readonly string[], size: number): string[][] {
  const out: string[][] = [];
  for (let i = 0; i + size <= npis.length; i += size) out.push(npis.slice(i, i + size));
  return out;
}

/** A scenario of calls of 100 distinct NPIs each, `url` making a call's URL; `npis` holds {@link npisNeeded}. */
function npiListScenario(
  id: ScenarioId,
  name: string,
  url: (npis: readonly string[]) => string,
  npis: readonly string[],
  firstPerBucket: readonly string[],
  sizes: SetSizes,
): AbuseScenario {
  return {
    id,
    name,
    sets: cutSets(chunks(npis, NPI_BATCH_MAX).map(url), sizes),
    prime: chunks(firstPerBucket, NPI_BATCH_MAX).map(url),
  };
}

/** `/npi?numbers=` with 100 distinct NPIs per call; `npis` holds {@link npisNeeded} distinct NPIs. */
export function npiBatchScenario(npis: readonly string[], firstPerBucket: readonly string[], sizes: SetSizes) {
  const url = (batch: readonly string[]) => `/api/v1/npi?numbers=${batch.join(',')}`;
  return npiListScenario('npi-batch', '/npi?numbers= (100 NPIs)', url, npis, firstPerBucket, sizes);
}

/** `/providers?npi=` rosters of 100 distinct NPIs, limit 100; `npis` holds {@link npisNeeded} distinct NPIs. */
export function rosterScenario(npis: readonly string[], firstPerBucket: readonly string[], sizes: SetSizes) {
  const url = (roster: readonly string[]) => `/api/v1/providers?npi=${roster.join(',')}&limit=${NPI_BATCH_MAX}`;
  return npiListScenario('roster', '/providers?npi= (roster of 100)', url, npis, firstPerBucket, sizes);
}

/**
 * `/providers?taxonomy=&state=&limit=1000` from bench:api's drawn taxonomy + state queries (limit 50, offset 0),
 * taken in their drawn order with the page raised to 1000. Primed with one query per taxonomy code (limit 1).
 */
export function identityListScenario(queries: readonly IdentityQuery[], sizes: SetSizes) {
  const withLimit = (q: IdentityQuery, limit: number) => {
    if (q.offset !== 0 || !q.path.endsWith(`&limit=${q.limit}`)) throw new Error(`unexpected query ${q.path}`);
    return `${q.path.slice(0, -`${q.limit}`.length)}${limit}`;
  };
  const byCode = new Map<string, IdentityQuery>();
  for (const q of queries) {
    const code = q.taxonomy.kind === 'code' ? q.taxonomy.code.toUpperCase() : q.taxonomy.key;
    if (!byCode.has(code)) byCode.set(code, q);
  }
  return {
    id: 'identity-list',
    name: '/providers?taxonomy=&state=&limit=1000',
    sets: cutSets(
      queries.map((q) => withLimit(q, PAGE)),
      sizes,
    ),
    prime: [...byCode.values()].map((q) => withLimit(q, 1)),
  } satisfies AbuseScenario;
}

/**
 * `/changes?since=<since>&limit=1000` at offsets drawn uniformly over the feed's `total` changes (whole pages of
 * 1000 from offset 0); primed with every page once.
 */
export function changesPageScenario(since: string, total: number, sizes: SetSizes, rng: Random) {
  if (total < 1) throw new Error('the change feed is empty');
  const pages = Math.ceil(total / PAGE);
  const url = (page: number) => `/api/v1/changes?since=${since}&limit=${PAGE}&offset=${page * PAGE}`;
  const need = sizes.warmup + sizes.calls * sizes.rounds;
  return {
    id: 'changes-page',
    name: '/changes?since=&limit=1000',
    sets: cutSets(
      Array.from({ length: need }, () => url(rng.int(0, pages - 1))),
      sizes,
    ),
    prime: Array.from({ length: pages }, (_, page) => url(page)),
  } satisfies AbuseScenario;
}
