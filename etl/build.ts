/**
 * `buildSnapshot`: the batch ETL from source files to a published snapshot.
 *
 * Steps (names usable with the `failAfterStep` test hook, in order): `sources` (NUCC, LEIE, NPPES staged; FDA and
 * feed read), `identity`, `vertical`, `parquet` (every file written locally), `static` (coverage and sample computed
 * from those files and validated), `upload` (data objects, static objects, rejects), `manifest`, `pointer`, `public`.
 * A failure before `pointer` completes leaves the store's pointer and every existing snapshot untouched.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  identityIndexKey,
  identityPartitionKey,
  type ManifestObject,
  PUBLIC_KEYS,
  rejectsKey,
  type SnapshotManifest,
  type SourceSummary,
  STATIC_FILES,
  snapshotPrefix,
  staticKey,
  taxonomyKey,
  verticalPartitionKey,
} from '../data-contracts/layout';
import { isoSeconds } from '../platform/iso-time';
import type { Logger } from '../platform/logger';
import { silentLogger } from '../platform/logger';
import { type ObjectStore, sha256File } from '../platform/object-store';
import { CONTENT_TYPES, newSnapshotId, readCurrentSnapshot, SnapshotPublisher } from '../platform/snapshot-protocol';
import { sqlPath } from '../platform/sql';
import { computeCoverage, computeIdentityLayer, computeSample } from './coverage';
import { displayPath, readCsvHeader, requireColumns } from './csv-read';
import { appendRows, createTable, openEtlDuckDb, queryRows } from './duck';
import { EtlInputError, SimulatedFailure } from './errors';
import { writeIdentityIndexFiles } from './identity-index-out';
import {
  loadVerticalTable,
  type VerticalFile,
  writeIdentityFiles,
  writeTableFile,
  writeTaxonomyFile,
  writeVerticalFiles,
} from './parquet-out';
import { REJECTS_TABLE, RejectCollector, writeRejectsCsv } from './rejects';
import { screenKey } from './snapshot-keys';
import { type FdaLetter, indexLetters, readFdaFile } from './sources/fda';
import { buildVerticalRecord, FEED_FILES, latestObservations, type OigMatch, readFeeds } from './sources/feed';
import { buildOigMatch, createLeieStage, LEIE_COLUMNS, stageLeieFile } from './sources/leie';
import {
  buildIdentityTable,
  createNppesStage,
  identityClassificationKeys,
  NPPES_REQUIRED_COLUMNS,
  stageNppesFile,
} from './sources/nppes';
import { loadTaxonomyTable, readNucc } from './sources/nucc';
import { openapiJsonText, renderStaticObjects } from './static-objects';

export const BUILD_STEPS = [
  'sources',
  'identity',
  'vertical',
  'parquet',
  'static',
  'upload',
  'manifest',
  'pointer',
  'public',
] as const;
export type BuildStep = (typeof BUILD_STEPS)[number];

/** The source files of a build. Paths are local files (or folders for feeds). */
export interface BuildInputs {
  /** NPPES dissemination CSVs, oldest first (for an NPI in several files, the last file wins). */
  nppes: string[];
  /** NUCC taxonomy CSV. */
  nucc: string;
  /** OIG LEIE `UPDATED.csv` files (or slices of it). */
  leie: string[];
  /** The LEIE release time (ISO date-time): `checked_at` of every OIG match. */
  leieAsOf: string;
  /** FDA warning-letter lists, in either form. */
  fda: string[];
  /** Curation feed folders, each with providers.csv and observations.csv. */
  feeds: string[];
  /**
   * `'current'`: build on the current snapshot instead of NPPES and NUCC (the feed Lambda). Its identity partitions
   * and taxonomy map are copied byte for byte into the new snapshot (a snapshot stays self-contained, so deleting an
   * old one never breaks a newer one), and its screening lists (OIG matches, FDA letters) are reused unless `leie`
   * or `fda` files are given. `nppes` and `nucc` are ignored.
   */
  reuseIdentityFrom?: 'current';
}

export interface BuildProgress {
  phase: string;
  file?: string;
  /** 0–100 when known. */
  percent?: number;
  rows?: number;
  elapsedMs: number;
}

export interface BuildOptions {
  store: ObjectStore;
  inputs: BuildInputs;
  /** The snapshot time (default now, to the second): coverage `generated_at`, clear-screen `verified_at`. */
  snapshotTime?: Date;
  /** Parent of the run's temporary folder (default the OS temp folder). The run's folder is removed at the end. */
  workDir?: string;
  logger?: Logger;
  onProgress?: (progress: BuildProgress) => void;
  /** Test hook: throw right after this step completes, to simulate a crash midway. */
  failAfterStep?: BuildStep;
  /**
   * DuckDB threads (default: the cores, at most 4) and the run's memory budget in MiB (default 2048): DuckDB's
   * memory limit is derived from the budget and DuckDB spills to the work folder beyond it (etl/duck.ts).
   */
  duckdb?: { threads?: number; memoryBudgetMb?: number };
}

export const SOURCE_KINDS = ['nppes', 'nucc', 'leie', 'fda', 'feed_providers', 'feed_observations'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** Read / accepted / rejected counts of one source file. `skipped`: NPPES deactivated rows. */
export interface SourceCounts {
  source: SourceKind;
  file: string;
  read: number;
  accepted: number;
  rejected: number;
  skipped?: number;
}

export interface BuildSummary {
  snapshot_id: string;
  created_at: string;
  store: string;
  manifest_key: string;
  sources: SourceCounts[];
  counts: SnapshotManifest['counts'];
  reused_from?: string;
  duration_ms: number;
}

function checkpoint(step: BuildStep, options: BuildOptions, logger: Logger, started: number): void {
  logger.info('etl step done', { step, elapsed_ms: Date.now() - started });
  if (options.failAfterStep === step) throw new SimulatedFailure(step);
}

/** Fails fast, before any scan, on a missing file or a missing required column. */
async function checkInputs(inputs: BuildInputs): Promise<void> {
  const reuse = inputs.reuseIdentityFrom === 'current';
  if (!reuse) {
    if (inputs.nppes.length === 0) throw new EtlInputError('(inputs)', 'no NPPES file given');
    for (const file of inputs.nppes) requireColumns(file, await readCsvHeader(file), NPPES_REQUIRED_COLUMNS);
    await readCsvHeader(inputs.nucc);
  }
  for (const file of inputs.leie) requireColumns(file, await readCsvHeader(file), Object.values(LEIE_COLUMNS));
  for (const file of inputs.fda) await readCsvHeader(file);
  for (const folder of inputs.feeds) {
    for (const name of Object.values(FEED_FILES)) await readCsvHeader(path.join(folder, name));
  }
  if (inputs.leie.length > 0 && Number.isNaN(Date.parse(inputs.leieAsOf))) {
    throw new EtlInputError('(inputs)', `LEIE as-of time is not an ISO date-time: ${JSON.stringify(inputs.leieAsOf)}`);
  }
}

const FDA_LETTERS_TABLE = {
  normalised: 'VARCHAR',
  company: 'VARCHAR',
  letter_date: 'VARCHAR',
  issuing_office: 'VARCHAR',
  url: 'VARCHAR',
} as const;

async function loadFdaTable(connection: DuckDBConnection, letters: readonly FdaLetter[]): Promise<void> {
  await createTable(connection, 'fda_letters', FDA_LETTERS_TABLE);
  await appendRows(connection, 'fda_letters', FDA_LETTERS_TABLE, letters);
}

async function readFdaTable(connection: DuckDBConnection): Promise<FdaLetter[]> {
  const rows = await queryRows(connection, 'SELECT * FROM fda_letters');
  return rows.map((r) => ({
    normalised: String(r.normalised),
    company: String(r.company),
    letter_date: String(r.letter_date),
    issuing_office: r.issuing_office === null ? null : String(r.issuing_office),
    url: r.url === null ? null : String(r.url),
  }));
}

async function oigMatchesFor(connection: DuckDBConnection, npis: readonly string[]): Promise<Map<string, OigMatch>> {
  const out = new Map<string, OigMatch>();
  if (npis.length === 0) return out;
  await createTable(connection, 'feed_npis', { npi: 'VARCHAR' });
  await appendRows(
    connection,
    'feed_npis',
    { npi: 'VARCHAR' },
    [...new Set(npis)].map((npi) => ({ npi })),
  );
  const rows = await queryRows(connection, 'SELECT o.* FROM oig_match o JOIN feed_npis f USING (npi)');
  for (const r of rows) {
    out.set(String(r.npi), {
      oig_type: r.oig_type === null ? null : String(r.oig_type),
      oig_date: r.oig_date === null ? null : String(r.oig_date),
      oig_checked_at: r.oig_checked_at === null ? null : String(r.oig_checked_at),
    });
  }
  return out;
}

/**
 * Builds a snapshot from the inputs and publishes it to `store`: Parquet partitions (vertical, identity), the
 * taxonomy map, static objects, rejects, the manifest, then the pointer, then the public objects.
 *
 * @example
 * const summary = await buildSnapshot({ store: new FolderObjectStore('.local/data'), inputs: demoBuildInputs() });
 * summary.counts.identity; // active NPIs in the identity layer
 */
export async function buildSnapshot(options: BuildOptions): Promise<BuildSummary> {
  const started = Date.now();
  const logger = options.logger ?? silentLogger;
  const { store, inputs } = options;
  const snapshotDate = new Date(Math.floor((options.snapshotTime ?? new Date()).getTime() / 1000) * 1000);
  const snapshotTime = isoSeconds(snapshotDate);
  const snapshotId = newSnapshotId(snapshotDate);
  const reuse = inputs.reuseIdentityFrom === 'current';
  const progress = (phase: string, extra: Omit<BuildProgress, 'phase' | 'elapsedMs'> = {}) =>
    options.onProgress?.({ phase, ...extra, elapsedMs: Date.now() - started });

  await checkInputs(inputs);
  const current = reuse ? await readCurrentSnapshot(store) : null;
  if (reuse && !current)
    throw new EtlInputError(store.location, 'no current snapshot to reuse the identity layer from');

  const parent = options.workDir ?? tmpdir();
  await mkdir(parent, { recursive: true });
  const work = await mkdtemp(path.join(parent, 'pf-etl-'));
  const db = await openEtlDuckDb({ workDir: work, ...options.duckdb });
  const { connection } = db;
  logger.info('etl build started', {
    snapshot_id: snapshotId,
    store: store.location,
    reuse,
    duckdb_memory_limit_mb: db.memoryLimitMb,
  });
  try {
    const sources: SourceCounts[] = [];
    const rejects = new RejectCollector();
    await createTable(connection, 'rejects', REJECTS_TABLE);

    // --- sources -------------------------------------------------------------------------------------------
    const reused = new Map<string, { file: string; object: ManifestObject }>();
    if (current) {
      // Identity, taxonomy and screening objects of the current snapshot, downloaded for re-upload and reuse.
      const wanted = current.manifest.objects.filter(
        (o) =>
          o.kind === 'identity' ||
          o.kind === 'identity_index' ||
          o.kind === 'taxonomy' ||
          o.kind === 'vertical' ||
          o.key.includes('/screens/'),
      );
      for (const [i, object] of wanted.entries()) {
        const file = path.join(work, 'reuse', `${i}.parquet`);
        if (!(await store.download(object.key, file))) throw new Error(`${object.key} is missing from the store`);
        reused.set(object.key, { file, object });
        progress('reuse', { file: object.key, rows: i + 1 });
      }
    } else {
      progress('nucc', { file: inputs.nucc });
      const nucc = await readNucc(inputs.nucc, rejects);
      await loadTaxonomyTable(connection, nucc.entries);
      sources.push({
        source: 'nucc',
        file: displayPath(inputs.nucc),
        read: nucc.read,
        accepted: nucc.entries.length,
        rejected: nucc.rejected,
      });
    }

    const screenFile = (name: 'oig-leie' | 'fda-letters') =>
      [...reused.values()].find((r) => r.object.key === screenKey(current?.pointer.snapshot_id ?? '', name))?.file;

    await createLeieStage(connection);
    if (inputs.leie.length > 0 || !current) {
      for (const [i, file] of inputs.leie.entries()) {
        progress('leie', { file });
        const c = await stageLeieFile(connection, file, i, displayPath(file));
        sources.push({ source: 'leie', file: c.file, read: c.read, accepted: c.accepted, rejected: c.rejected });
      }
      await buildOigMatch(connection, inputs.leie.length > 0 ? isoSeconds(new Date(inputs.leieAsOf)) : null);
    } else {
      const file = screenFile('oig-leie');
      if (!file) throw new Error('the current snapshot has no OIG screening list to reuse; pass LEIE files');
      await connection.run(`CREATE OR REPLACE TABLE oig_match AS SELECT * FROM read_parquet(${sqlPath(file)})`);
    }

    if (!current) {
      await createNppesStage(connection);
      for (const [i, file] of inputs.nppes.entries()) {
        const name = displayPath(file);
        progress('nppes', { file: name });
        const c = await stageNppesFile(connection, file, i, name, (percent, rows) =>
          progress('nppes', { file: name, percent, rows }),
        );
        sources.push({ source: 'nppes', ...c });
        logger.info('nppes file staged', { ...c });
      }
    }

    let letters: FdaLetter[] = [];
    if (inputs.fda.length > 0 || !current) {
      for (const file of inputs.fda) {
        progress('fda', { file });
        const r = await readFdaFile(file, rejects);
        letters.push(...r.letters);
        sources.push({
          source: 'fda',
          file: displayPath(file),
          read: r.read,
          accepted: r.letters.length,
          rejected: r.rejected,
        });
      }
      await loadFdaTable(connection, letters);
    } else {
      const file = screenFile('fda-letters');
      if (!file) throw new Error('the current snapshot has no FDA letters list to reuse; pass FDA files');
      await connection.run(`CREATE OR REPLACE TABLE fda_letters AS SELECT * FROM read_parquet(${sqlPath(file)})`);
      letters = await readFdaTable(connection);
    }

    progress('feed');
    const feed = await readFeeds(inputs.feeds, rejects);
    for (const c of feed.counts.providers) sources.push({ source: 'feed_providers', ...c, file: displayPath(c.file) });
    for (const c of feed.counts.observations)
      sources.push({ source: 'feed_observations', ...c, file: displayPath(c.file) });
    checkpoint('sources', options, logger, started);

    // --- identity ------------------------------------------------------------------------------------------
    let identityNpis = 0;
    let classificationKeys: string[] = [];
    if (!current) {
      progress('identity');
      const identity = await buildIdentityTable(connection);
      identityNpis = identity.npis;
      classificationKeys = await identityClassificationKeys(connection);
    }
    checkpoint('identity', options, logger, started);

    // --- vertical ------------------------------------------------------------------------------------------
    progress('vertical');
    const latest = latestObservations(feed.observations);
    const oig = await oigMatchesFor(
      connection,
      feed.providers.flatMap((p) => (p.npi ? [p.npi] : [])),
    );
    const newestLetterDate = letters.reduce<string | null>(
      (m, l) => (m === null || l.letter_date > m ? l.letter_date : m),
      null,
    );
    const ctx = { snapshotTime, letters: indexLetters(letters), newestLetterDate, oig };
    const records = feed.providers.map((p) => buildVerticalRecord(p, latest.get(p.entity_id), ctx));
    await loadVerticalTable(connection, records);
    checkpoint('vertical', options, logger, started);

    // --- parquet -------------------------------------------------------------------------------------------
    progress('parquet');
    const out = path.join(work, 'out');
    await rejects.flush(connection);
    const uploads: {
      key: string;
      file: string;
      contentType: string;
      meta: Omit<ManifestObject, 'key' | 'bytes' | 'sha256'>;
    }[] = [];
    let identityFiles: string[] = [];
    let taxonomyRows = 0;
    // Reuse mode: the feed replaces its own verticals; the current snapshot's other verticals are carried over.
    const feedVerticals = new Set(feed.providers.map((p) => p.vertical));
    const carried: VerticalFile[] = [];
    if (current) {
      for (const { file, object } of reused.values()) {
        if (object.kind === 'vertical') {
          if (!object.vertical || feedVerticals.has(object.vertical) || !object.boundary) continue;
          carried.push({
            file,
            rows: object.rows ?? 0,
            boundary: object.boundary,
            vertical: object.vertical,
            state: object.state ?? null,
          });
          continue;
        }
        const key = object.key.replace(snapshotPrefix(current.pointer.snapshot_id), snapshotPrefix(snapshotId));
        const { key: _old, bytes: _b, sha256: _s, ...meta } = object;
        const contentType = object.kind === 'identity_index' ? CONTENT_TYPES.binary : CONTENT_TYPES.parquet;
        uploads.push({ key, file, contentType, meta });
        if (object.kind === 'identity') identityFiles.push(file);
      }
      taxonomyRows = current.manifest.counts.taxonomies;
      identityNpis = current.manifest.counts.identity;
    } else {
      const written = await writeIdentityFiles(
        connection,
        path.join(out, 'identity'),
        classificationKeys,
        (done, total) => progress('parquet', { file: 'identity', rows: done, percent: (100 * done) / total }),
      );
      for (const w of written) {
        uploads.push({
          key: identityPartitionKey(snapshotId, w.classification_key),
          file: w.file,
          contentType: CONTENT_TYPES.parquet,
          meta: { kind: 'identity', rows: w.rows, classification_key: w.classification_key },
        });
      }
      identityFiles = written.map((w) => w.file);
      const indexes = await writeIdentityIndexFiles(
        connection,
        path.join(out, 'identity-index'),
        classificationKeys,
        (done, total) => progress('parquet', { file: 'identity index', rows: done, percent: (100 * done) / total }),
      );
      for (const w of indexes) {
        uploads.push({
          key: identityIndexKey(snapshotId, w.classification_key),
          file: w.file,
          contentType: CONTENT_TYPES.binary,
          meta: { kind: 'identity_index', rows: w.rows, classification_key: w.classification_key },
        });
      }
      const taxonomy = await writeTaxonomyFile(connection, path.join(out, 'taxonomy.parquet'));
      taxonomyRows = taxonomy.rows;
      uploads.push({
        key: taxonomyKey(snapshotId),
        file: taxonomy.file,
        contentType: CONTENT_TYPES.parquet,
        meta: { kind: 'taxonomy', rows: taxonomy.rows },
      });
    }
    if (!current || inputs.leie.length > 0) {
      const oigFile = await writeTableFile(connection, 'oig_match', path.join(out, 'screens', 'oig-leie.parquet'));
      upsertUpload(uploads, screenKey(snapshotId, 'oig-leie'), oigFile.file, oigFile.rows);
    }
    if (!current || inputs.fda.length > 0) {
      const fdaFile = await writeTableFile(connection, 'fda_letters', path.join(out, 'screens', 'fda-letters.parquet'));
      upsertUpload(uploads, screenKey(snapshotId, 'fda-letters'), fdaFile.file, fdaFile.rows);
    }
    const verticalFiles = [...(await writeVerticalFiles(connection, path.join(out, 'vertical'))), ...carried];
    for (const v of verticalFiles) {
      uploads.push({
        key: verticalPartitionKey(snapshotId, v.boundary, v.vertical, v.state),
        file: v.file,
        contentType: CONTENT_TYPES.parquet,
        meta: { kind: 'vertical', rows: v.rows, boundary: v.boundary, vertical: v.vertical, state: v.state },
      });
    }
    const rejectsFile = path.join(out, 'rejects.csv');
    const rejectCount = await writeRejectsCsv(connection, rejectsFile);
    checkpoint('parquet', options, logger, started);

    // --- static --------------------------------------------------------------------------------------------
    progress('static');
    const filesOf = (boundary: VerticalFile['boundary']) =>
      verticalFiles.filter((v) => v.boundary === boundary).map((v) => v.file);
    const identityLayer = await computeIdentityLayer(connection, identityFiles);
    const coverage = await computeCoverage(connection, {
      trackedFiles: filesOf('tracked'),
      verifiedFiles: filesOf('verified'),
      identityLayer,
      snapshotId,
      generatedAt: snapshotTime,
    });
    const sample = await computeSample(connection, filesOf('verified'), snapshotTime);
    const statics = renderStaticObjects(coverage, sample);
    checkpoint('static', options, logger, started);

    // --- upload --------------------------------------------------------------------------------------------
    const publisher = new SnapshotPublisher(store, snapshotId);
    await publisher.uploadFiles(uploads, (done, total) =>
      progress('upload', { rows: done, percent: (100 * done) / total }),
    );
    await publisher.putText(staticKey(snapshotId, STATIC_FILES.coverage), statics.coverage, CONTENT_TYPES.json, {
      kind: 'static',
    });
    await publisher.putText(staticKey(snapshotId, STATIC_FILES.sampleJson), statics.sampleJson, CONTENT_TYPES.json, {
      kind: 'static',
      rows: sample.json.size,
    });
    await publisher.putText(staticKey(snapshotId, STATIC_FILES.sampleCsv), statics.sampleCsv, CONTENT_TYPES.csv, {
      kind: 'static',
      rows: sample.json.size,
    });
    await publisher.putText(staticKey(snapshotId, STATIC_FILES.openapi), openapiJsonText(), CONTENT_TYPES.json, {
      kind: 'static',
    });
    await publisher.uploadFiles([
      {
        key: rejectsKey(snapshotId),
        file: rejectsFile,
        contentType: CONTENT_TYPES.csv,
        meta: { kind: 'rejects', rows: rejectCount },
      },
    ]);
    checkpoint('upload', options, logger, started);

    // --- manifest, pointer, public -------------------------------------------------------------------------
    const counts: SnapshotManifest['counts'] = {
      identity: identityNpis,
      tracked: coverage.tracked.total,
      verified: coverage.verified.total,
      taxonomies: taxonomyRows,
      rejects: rejectCount,
    };
    const manifestSources: Record<string, SourceSummary> = {};
    for (const [i, s] of sources.entries()) {
      manifestSources[`${s.source}#${i}`] = {
        file: s.file,
        sha256: '',
        read: s.read,
        accepted: s.accepted,
        rejected: s.rejected,
        ...(s.source === 'leie' ? { as_of: inputs.leieAsOf } : {}),
      };
    }
    await fillSourceHashes(manifestSources, inputs);
    const manifestKeyValue = await publisher.putManifest({
      created_at: snapshotTime,
      sources: manifestSources,
      counts,
    });
    checkpoint('manifest', options, logger, started);
    await publisher.switchPointer(new Date());
    logger.info('etl pointer switched', { snapshot_id: snapshotId });
    checkpoint('pointer', options, logger, started);
    await store.put(PUBLIC_KEYS.coverage, statics.coverage, CONTENT_TYPES.json);
    await store.put(PUBLIC_KEYS.sampleJson, statics.sampleJson, CONTENT_TYPES.json);
    await store.put(PUBLIC_KEYS.sampleCsv, statics.sampleCsv, CONTENT_TYPES.csv);
    checkpoint('public', options, logger, started);

    const summary: BuildSummary = {
      snapshot_id: snapshotId,
      created_at: snapshotTime,
      store: store.location,
      manifest_key: manifestKeyValue,
      sources,
      counts,
      ...(current ? { reused_from: current.pointer.snapshot_id } : {}),
      duration_ms: Date.now() - started,
    };
    logger.info('etl build done', { snapshot_id: snapshotId, counts, duration_ms: summary.duration_ms });
    return summary;
  } finally {
    db.close();
    await rm(work, { recursive: true, force: true });
  }
}

function upsertUpload(
  uploads: { key: string; file: string; contentType: string; meta: Omit<ManifestObject, 'key' | 'bytes' | 'sha256'> }[],
  key: string,
  file: string,
  rows: number,
): void {
  const item = { key, file, contentType: CONTENT_TYPES.parquet, meta: { kind: 'static' as const, rows } };
  const at = uploads.findIndex((u) => u.key === key);
  if (at >= 0) uploads[at] = item;
  else uploads.push(item);
}

/** The SHA-256 of every input file, for the manifest's provenance. */
async function fillSourceHashes(sources: Record<string, SourceSummary>, inputs: BuildInputs): Promise<void> {
  const byName = new Map<string, string>();
  const files = [
    ...inputs.nppes,
    inputs.nucc,
    ...inputs.leie,
    ...inputs.fda,
    ...inputs.feeds.flatMap((f) => Object.values(FEED_FILES).map((n) => path.join(f, n))),
  ];
  for (const file of files) {
    const name = displayPath(file);
    if (byName.has(name) || !file) continue;
    try {
      byName.set(name, await sha256File(file));
    } catch {
      // Inputs not used in this mode (reuse) may be absent; their entry keeps an empty hash.
    }
  }
  for (const s of Object.values(sources)) s.sha256 = byName.get(s.file) ?? '';
}
