/**
 * The vertical feed ETL: builds a new snapshot from a curation feed uploaded to the bucket, reusing the current
 * snapshot's identity layer, taxonomy map and screening lists (`reuseIdentityFrom: 'current'`; the objects are
 * copied into the new snapshot, so every snapshot stays self-contained).
 *
 * Invoked by the data team (not by an S3 trigger: a feed is two files), with the event
 * `{ "prefix": "inputs/glp1/2026-11-21/" }` where `<prefix>providers.csv` and `<prefix>observations.csv` are the
 * feed. Optional: `"leie": ["inputs/leie/UPDATED.csv", "inputs/leie/2610REIN.csv"]` with `"leie_as_of"`: one ISO
 * date-time per file, or one for the first file with the rest from the keys' names (`YYYY-MM-DD`, `YYYYMMDD`, OIG's
 * `YYMMEXCL.csv` / `YYMMREIN.csv`), and
 * `"fda": ["inputs/fda/warning-letters.csv"]` to screen against newer lists; `"snapshot_time"` (ISO) to pin the
 * snapshot time. Keys are relative to the store (bucket and PF_DATA_PREFIX). The safety limits
 * (docs/data-team.md): `"max_reject_share"` and `"max_shrink_share"` (0-1; defaults from PF_ETL_MAX_REJECT_SHARE
 * and PF_ETL_MAX_SHRINK_SHARE, else 0.01 and 0.1) and `"allow_shrink": true` to publish a feed that shrinks a layer.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { createJsonLogger } from '../../platform/logger';
import type { ObjectStore } from '../../platform/object-store';
import { createS3Client, S3ObjectStore } from '../../platform/s3-store';
import { type BuildSummary, buildSnapshot } from '../build';
import { present } from '../config';
import { FEED_FILES } from '../sources/feed';
import { LeieAsOfError, resolveLeieAsOfs } from '../transforms/leie-as-of';
import { loadEtlLambdaConfig } from './config';

export interface FeedEvent {
  prefix: string;
  leie?: string[];
  leie_as_of?: string | string[];
  fda?: string[];
  snapshot_time?: string;
  max_reject_share?: number;
  max_shrink_share?: number;
  allow_shrink?: boolean;
}

const config = loadEtlLambdaConfig(process.env);
const logger = createJsonLogger({ level: config.logLevel, base: { fn: 'feed' } });
const store = new S3ObjectStore(
  createS3Client({ region: config.region, endpoint: config.endpoint }),
  config.bucket,
  config.prefix,
);

function assertEvent(event: unknown): FeedEvent {
  const e = event as Partial<FeedEvent> | null;
  if (!e || typeof e.prefix !== 'string' || e.prefix === '')
    throw new Error('event.prefix (the feed folder key) is required');
  if (e.leie !== undefined && (!Array.isArray(e.leie) || !e.leie.every((k) => typeof k === 'string' && k !== ''))) {
    throw new Error('event.leie must be a list of keys');
  }
  const asOf = e.leie_as_of;
  if (
    asOf !== undefined &&
    typeof asOf !== 'string' &&
    !(Array.isArray(asOf) && asOf.every((a) => typeof a === 'string'))
  )
    throw new Error('event.leie_as_of must be an ISO date-time or a list of them');
  if (e.leie?.length && (asOf === undefined || asOf.length === 0)) throw new Error('event.leie needs event.leie_as_of');
  for (const name of ['max_reject_share', 'max_shrink_share'] as const) {
    const v = e[name];
    if (v !== undefined && (typeof v !== 'number' || !(v >= 0 && v <= 1))) {
      throw new Error(`event.${name} must be a number between 0 and 1`);
    }
  }
  return { ...e, prefix: e.prefix.endsWith('/') ? e.prefix : `${e.prefix}/` } as FeedEvent;
}

/** One as-of per LEIE key (transforms/leie-as-of.ts), or an Error naming the problem. */
function leieAsOfsOf(e: FeedEvent): string[] {
  try {
    return resolveLeieAsOfs(e.leie ?? [], e.leie_as_of ?? []);
  } catch (err) {
    if (err instanceof LeieAsOfError) throw new Error(`event.leie_as_of: ${err.message}`);
    throw err;
  }
}

async function fetchTo(source: ObjectStore, key: string, file: string): Promise<string> {
  if (!(await source.download(key, file))) throw new Error(`${key} does not exist in ${source.location}`);
  return file;
}

/** Downloads the event's inputs and runs the build; exported for tests with another store. */
export async function runFeedBuild(
  event: unknown,
  deps: { store: ObjectStore; workDir: string; maxRejectShare?: number; maxShrinkShare?: number },
): Promise<BuildSummary> {
  const e = assertEvent(event);
  await mkdir(deps.workDir, { recursive: true });
  const local = await mkdtemp(path.join(deps.workDir, 'feed-'));
  try {
    const feedDir = path.join(local, 'feed');
    for (const name of Object.values(FEED_FILES))
      await fetchTo(deps.store, `${e.prefix}${name}`, path.join(feedDir, name));
    // Resolved on the keys, before any download; each file keeps its name (the manifest's leie_files says it).
    const leieAsOfs = leieAsOfsOf(e);
    const leie = await Promise.all(
      (e.leie ?? []).map((key, i) =>
        fetchTo(deps.store, key, path.join(local, 'leie', String(i), path.posix.basename(key))),
      ),
    );
    const fda = await Promise.all(
      (e.fda ?? []).map((key, i) => fetchTo(deps.store, key, path.join(local, 'fda', `${i}.csv`))),
    );
    return await buildSnapshot({
      store: deps.store,
      inputs: {
        nppes: [],
        nucc: '',
        leie,
        leieAsOf: leieAsOfs,
        fda,
        feeds: [feedDir],
        reuseIdentityFrom: 'current',
      },
      workDir: deps.workDir,
      logger,
      ...(e.snapshot_time ? { snapshotTime: new Date(e.snapshot_time) } : {}),
      ...present('maxRejectShare', e.max_reject_share ?? deps.maxRejectShare),
      ...present('maxShrinkShare', e.max_shrink_share ?? deps.maxShrinkShare),
      ...(e.allow_shrink === true ? { allowShrink: true } : {}),
    });
  } finally {
    await rm(local, { recursive: true, force: true });
  }
}

export const handler = async (event: unknown): Promise<BuildSummary> =>
  runFeedBuild(event, {
    store,
    workDir: config.workDir,
    ...present('maxRejectShare', config.maxRejectShare),
    ...present('maxShrinkShare', config.maxShrinkShare),
  });
