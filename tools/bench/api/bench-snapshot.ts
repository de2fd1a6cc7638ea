/**
 * The snapshot `bench:api` runs on: built once per row count with the real ETL from a synthetic NPPES file
 * (deleted once the snapshot is built), a national-size LEIE list drawn for it (tools/bench-data/generate-leie.ts)
 * and the synthetic glp1 feed, then read back (pointer, manifest, and the
 * largest identity partition for the single-partition scenarios).
 */

import { existsSync } from 'node:fs';
import { mkdir, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { LAYOUT_VERSION, type SnapshotManifest, type SnapshotPointer } from '../../../data-contracts/layout';
import { buildSnapshot } from '../../../etl/build';
import { demoBuildInputs } from '../../../etl/cli/demo-inputs';
import { FolderObjectStore } from '../../../platform/folder-store';
import { IDENTITY_INDEX_VERSION, magicVersion } from '../../../platform/identity-index/format';
import { NPI_LOOKUP_BUCKET_VERSION, npiIndexVersionOf, storedNpiBucket } from '../../../platform/npi-index/format';
import { sqlStringLiteral } from '../../../platform/sql';
import { deriveChangedNppes } from '../../bench-data/derive-changed-nppes';
import { generateVerticalFeed } from '../../bench-data/generate-feed';
import { generateLeieFile } from '../../bench-data/generate-leie';
import { generateNppesFile } from '../../bench-data/generate-nppes';
import { PRACTICE_PLACES } from '../../bench-data/practice-places';

/** What a snapshot build took, kept in `build.json` next to the snapshot. */
export interface BuildInfo {
  rows: number;
  providers: number;
  snapshot_id: string;
  generate_seconds: number;
  etl_seconds: number;
  nppes_bytes: number;
  built_at: string;
  /**
   * The change feed: the snapshot above is the second of two, built a month after the first from inputs in which 1%
   * of the NPIs changed (tools/bench-data/derive-changed-nppes.ts). Absent in a cache built before: rebuilt.
   */
  changes?: { first_snapshot_id: string; second_etl_seconds: number; changes: number };
  /** The national-size LEIE list both builds screened with (tools/bench-data/generate-leie.ts). Absent: rebuilt. */
  leie?: { rows: number; with_npi: number };
  /**
   * How the NPPES file's practice places were drawn (tools/bench-data/practice-places.ts): `zip-table`, real ZIPs
   * with centroids and their cities. Absent (random ZIPs a radius search cannot place) or another: rebuilt.
   */
  places?: string;
}

/** The two snapshots' times: a month apart, so the change feed's roster scenario reads a month of changes. */
const FIRST_SNAPSHOT_TIME = new Date('2026-10-01T00:00:00Z');
const SECOND_SNAPSHOT_TIME = new Date('2026-11-01T00:00:00Z');

/** The folders of one row count: `.bench/api/rows-<N>`, its snapshot, the server's local root and cache. */
export interface SnapshotDirs {
  root: string;
  data: string;
  local: string;
  cache: string;
}

/** The folders of a row count under `benchDir` (`.bench/api`), shared by bench:api and bench:pg. */
export function snapshotDirs(benchDir: string, rows: number, providers: number): SnapshotDirs {
  const root = path.join(benchDir, providers === 10_000 ? `rows-${rows}` : `rows-${rows}-providers-${providers}`);
  return {
    root,
    data: path.join(root, 'data'),
    local: path.join(root, 'local'),
    cache: path.join(root, 'local', 'cache'),
  };
}

function say(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** Builds the snapshot of `rows` NPPES rows unless it is cached; the NPPES file is deleted once it is built. */
export async function ensureSnapshot(
  dirs: SnapshotDirs,
  rows: number,
  providers: number,
  repoRoot: string,
): Promise<BuildInfo | null> {
  const infoFile = path.join(dirs.root, 'build.json');
  if (existsSync(path.join(dirs.data, 'current.json'))) {
    const info = (await readFile(infoFile, 'utf8')
      .then((text) => JSON.parse(text) as BuildInfo)
      .catch(() => null)) as BuildInfo | null;
    const { manifest } = await readSnapshot(dirs.data);
    const hasRosterIndex = manifest.objects.some((o) => o.kind === 'changes_npi');
    const indexVersion = await identityIndexVersion(dirs.data, manifest);
    const npiVersion = await npiBucketVersion(dirs.data, manifest);
    const stale =
      info?.changes === undefined || !hasRosterIndex
        ? 'has no change feed'
        : info.leie === undefined
          ? 'was built without the national-size LEIE list'
          : info.places !== PRACTICE_PLACES
            ? `was generated with practice places "${info.places ?? 'random-zip'}", not "${PRACTICE_PLACES}"`
            : manifest.layout_version !== LAYOUT_VERSION
              ? `is of layout ${manifest.layout_version}, not ${LAYOUT_VERSION}`
              : indexVersion !== IDENTITY_INDEX_VERSION
                ? `has identity indexes of version ${indexVersion}, not ${IDENTITY_INDEX_VERSION}`
                : npiVersion !== NPI_LOOKUP_BUCKET_VERSION
                  ? `has NPI buckets of version ${npiVersion}, not ${NPI_LOOKUP_BUCKET_VERSION}`
                  : null;
    if (stale !== null) {
      say(`the cached snapshot in ${path.relative(repoRoot, dirs.data)} ${stale}: rebuilding it`);
      await rm(dirs.root, { recursive: true, force: true });
      await mkdir(dirs.root, { recursive: true });
      return ensureSnapshot(dirs, rows, providers, repoRoot);
    }
    say(
      `using the cached snapshot in ${path.relative(repoRoot, dirs.data)} (delete ${path.relative(repoRoot, dirs.root)} to rebuild)` +
        (info
          ? `: built ${info.built_at} in ${(info.generate_seconds + info.etl_seconds).toFixed(1)} s ` +
            `(NPPES file ${info.generate_seconds.toFixed(1)} s, ETL ${info.etl_seconds.toFixed(1)} s)`
          : ''),
    );
    return info;
  }
  // A half-built snapshot (an interrupted run) is thrown away.
  await rm(dirs.data, { recursive: true, force: true });
  const inputs = path.join(dirs.root, 'inputs');
  await mkdir(inputs, { recursive: true });
  const nppesFile = path.join(inputs, 'nppes.csv');
  const changedFile = path.join(inputs, 'nppes-changed.csv');
  const leieFile = path.join(inputs, 'leie-national.csv');
  // The date in the name is the supplement's as-of (the ETL reads it from the name when --leie-as-of is given once).
  const changedLeie = path.join(inputs, 'leie-changed-2026-10-20.csv');
  const feedDir = path.join(inputs, 'feed', 'glp1');
  let generateSeconds = 0;
  let etlSeconds = 0;
  let secondSeconds = 0;
  let nppesBytes = 0;
  let leie: { rows: number; with_npi: number } = { rows: 0, with_npi: 0 };
  let first: Awaited<ReturnType<typeof buildSnapshot>>;
  let summary: Awaited<ReturnType<typeof buildSnapshot>>;
  try {
    let t = performance.now();
    say(`generating ${rows.toLocaleString('en-US')} NPPES rows...`);
    await generateNppesFile({ rows, outFile: nppesFile, seed: 1 });
    generateSeconds = (performance.now() - t) / 1000;
    nppesBytes = (await stat(nppesFile)).size;
    say(`  ${generateSeconds.toFixed(1)} s, ${(nppesBytes / 1024 ** 3).toFixed(2)} GB`);
    leie = await generateLeieFile({ nppesFile, outFile: leieFile });
    say(
      `  national-size LEIE list: ${leie.rows.toLocaleString('en-US')} rows, ${leie.with_npi.toLocaleString('en-US')} with an NPI`,
    );
    generateVerticalFeed({ providers, outDir: feedDir, seed: 1 });
    t = performance.now();
    say('building the snapshot with the ETL...');
    const demo = demoBuildInputs(repoRoot);
    first = await buildSnapshot({
      store: new FolderObjectStore(dirs.data),
      inputs: { ...demo, nppes: [nppesFile], leie: [leieFile], feeds: [feedDir] },
      snapshotTime: FIRST_SNAPSHOT_TIME,
      workDir: dirs.root,
    });
    etlSeconds = (performance.now() - t) / 1000;
    say(
      `  first snapshot built in ${etlSeconds.toFixed(1)} s; deriving next month's inputs (1% of the NPIs change)...`,
    );
    const derived = await deriveChangedNppes({
      nppesIn: nppesFile,
      nppesOut: changedFile,
      leieOut: changedLeie,
      leieHeaderFrom: path.join(repoRoot, 'test', 'fixtures', 'source-data', 'leie.csv'),
    });
    say(`  ${JSON.stringify(derived)}`);
    await rm(nppesFile, { force: true });
    t = performance.now();
    summary = await buildSnapshot({
      store: new FolderObjectStore(dirs.data),
      inputs: { ...demo, nppes: [changedFile], leie: [leieFile, changedLeie], feeds: [feedDir] },
      snapshotTime: SECOND_SNAPSHOT_TIME,
      workDir: dirs.root,
    });
    secondSeconds = (performance.now() - t) / 1000;
  } finally {
    // About 1.1 GB per million rows: never left behind, built or not.
    await Promise.all([nppesFile, changedFile, leieFile, changedLeie].map((f) => rm(f, { force: true })));
  }
  const info: BuildInfo = {
    rows,
    providers,
    snapshot_id: summary.snapshot_id,
    generate_seconds: Math.round(generateSeconds * 10) / 10,
    etl_seconds: Math.round(etlSeconds * 10) / 10,
    nppes_bytes: nppesBytes,
    built_at: new Date().toISOString(),
    changes: {
      first_snapshot_id: first.snapshot_id,
      second_etl_seconds: Math.round(secondSeconds * 10) / 10,
      changes: summary.changes.step?.changes ?? 0,
    },
    leie: { rows: leie.rows, with_npi: leie.with_npi },
    places: PRACTICE_PLACES,
  };
  await writeFile(infoFile, `${JSON.stringify(info, null, 2)}\n`);
  say(
    `  snapshot built in ${(generateSeconds + etlSeconds).toFixed(1)} s (NPPES file ${generateSeconds.toFixed(1)} s, ` +
      `ETL ${etlSeconds.toFixed(1)} s); the NPPES file is deleted, the snapshot kept`,
  );
  return info;
}

/** The format version of the snapshot's identity serving indexes (the first one's magic), null if none is one. */
async function identityIndexVersion(dataDir: string, manifest: SnapshotManifest): Promise<number | null> {
  const index = manifest.objects.find((o) => o.kind === 'identity_index');
  if (index === undefined) return null;
  const file = await open(path.join(dataDir, index.key), 'r');
  try {
    const head = Buffer.alloc(8);
    await file.read(head, 0, 8, 0);
    return magicVersion(head);
  } finally {
    await file.close();
  }
}

/** The version of the snapshot's NPI lookup buckets (the first one's magic), null if it has none. */
async function npiBucketVersion(dataDir: string, manifest: SnapshotManifest): Promise<number | null> {
  const bucket = manifest.objects.find((o) => o.kind === 'npi');
  if (bucket === undefined) return null;
  return npiIndexVersionOf(storedNpiBucket(bucket.key, await readFile(path.join(dataDir, bucket.key))));
}

export async function readSnapshot(dataDir: string): Promise<{ pointer: SnapshotPointer; manifest: SnapshotManifest }> {
  const pointer = JSON.parse(await readFile(path.join(dataDir, 'current.json'), 'utf8')) as SnapshotPointer;
  const manifest = JSON.parse(
    await readFile(path.join(dataDir, 'snapshots', pointer.snapshot_id, 'manifest.json'), 'utf8'),
  ) as SnapshotManifest;
  return { pointer, manifest };
}

export interface HotPartition {
  classification: string;
  classificationKey: string;
  partitionRows: number;
  classificationRows: number;
  code: string;
  states: string[];
  verifiedTotal: number;
}

/**
 * The largest identity partition (by rows), its classification name, its commonest code and the states where
 * that code has a page of rows: the single-partition scenarios kept from the first version of this bench.
 */
export async function probeHotPartition(
  conn: DuckDBConnection,
  manifest: SnapshotManifest,
  dataDir: string,
): Promise<HotPartition> {
  const largest = manifest.objects
    .filter((o) => o.kind === 'identity')
    .sort((a, b) => (b.rows ?? 0) - (a.rows ?? 0))[0];
  if (!largest?.classification_key) throw new Error('the snapshot has no identity partition');
  const key = largest.classification_key;
  const one = async (sql: string, params: string[]) =>
    (await conn.runAndReadAll(sql, params)).getRowObjectsJson()[0] as Record<string, unknown> | undefined;
  const top = await one(
    `SELECT taxonomy_code AS code, count(*) AS n FROM identity WHERE classification_key = $1 GROUP BY ALL ORDER BY n DESC LIMIT 1`,
    [key],
  );
  const name = await one(`SELECT min(classification) AS name FROM taxonomy WHERE classification_key = $1`, [key]);
  const reps = await one(`SELECT count(*) AS n FROM identity WHERE classification_key = $1 AND class_rep`, [key]);
  const code = String(top?.code);
  const states = (
    await conn.runAndReadAll(
      `SELECT state FROM identity WHERE taxonomy_code = $1 AND state IS NOT NULL GROUP BY state HAVING count(*) >= 50 ORDER BY state`,
      [code],
    )
  )
    .getRowObjectsJson()
    .map((r) => String(r.state));
  const verifiedFiles = manifest.objects
    .filter((o) => o.kind === 'vertical' && o.boundary === 'verified')
    .map((o) => sqlStringLiteral(path.join(dataDir, o.key)));
  const verified = verifiedFiles.length
    ? (
        await conn.runAndReadAll(`SELECT count(*) AS n FROM read_parquet([${verifiedFiles.join(', ')}])`)
      ).getRowObjectsJson()[0]
    : { n: 0 };
  return {
    classification: name?.name === null || name?.name === undefined ? code : String(name.name),
    classificationKey: key,
    partitionRows: largest.rows ?? 0,
    classificationRows: Number(reps?.n),
    code,
    states,
    verifiedTotal: Number(verified?.n),
  };
}
