/**
 * The base layers of a snapshot (identity partitions, their serving indexes, the taxonomy map, and the screening
 * lists new vertical records are screened against), as a strategy chosen once per build:
 * - `freshLayers`: built from NPPES and NUCC (a full build);
 * - `reuseCurrentLayers`: copied from the current snapshot (the feed Lambda), so that a feed-only build needs no NPPES.
 */
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  identityIndexKey,
  identityPartitionKey,
  LAYOUT_VERSION,
  type ManifestObject,
  npiBucketKey,
  SCREEN_NAMES,
  type ScreenName,
  screenKey,
  searchIndexKey,
  snapshotPrefix,
  taxonomyKey,
} from '../../data-contracts/layout';
import { setDuckDbMemoryLimit } from '../../platform/duckdb/batch';
import type { ObjectStore } from '../../platform/object-store';
import { allOrFirstError } from '../../platform/settle';
import { CONTENT_TYPES, readCurrentSnapshot } from '../../platform/snapshot-protocol';
import { displayPath } from '../csv-read';
import { EtlInputError } from '../errors';
import { writeIdentityIndexFiles } from '../identity-index-out';
import { writeNpiBucketFiles } from '../npi-out';
import { type VerticalFile, writeIdentityFiles, writeTaxonomyFile } from '../parquet-out';
import { writeSearchIndexFiles } from '../search-index-out';
import { buildNpiLookupTable } from '../sources/npi-lookup';
import { buildIdentityTable, createNppesStage, identityClassificationKeys, stageNppesFile } from '../sources/nppes';
import { loadTaxonomyTable, readNucc } from '../sources/nucc';
import type { BuildContext, PendingUpload } from './context';

/** The base-layer objects of the new snapshot, written (or copied) locally by the parquet step. */
export interface BaseLayerFiles {
  uploads: PendingUpload[];
  /** Local identity partitions (for the coverage's identity figures). */
  identityFiles: string[];
  identityNpis: number;
  taxonomyRows: number;
}

export interface BaseLayers {
  /** The snapshot whose layers are reused, or null when they are built. */
  readonly reusedFrom: string | null;
  /** Sources step, first: the taxonomy table (fresh) or the local copies of the objects to reuse. */
  loadBase(ctx: BuildContext): Promise<void>;
  /** Sources step: NPPES staged (fresh); nothing to do when reusing. */
  stageIdentitySources(ctx: BuildContext): Promise<void>;
  /** The local copy of a screening list to reuse, or null when the list is built from its input files. */
  reusedScreen(name: ScreenName): string | null;
  /** Identity step: the identity and NPI lookup tables (fresh); nothing to do when reusing. */
  buildIdentity(ctx: BuildContext): Promise<void>;
  /**
   * Parquet step: the identity, identity-index, NPI lookup and taxonomy objects (and, when reusing, the screening
   * lists).
   */
  writeLayers(ctx: BuildContext, outDir: string): Promise<BaseLayerFiles>;
  /** Vertical partitions carried over into the new snapshot: when reusing, those of verticals the feed lacks. */
  carriedVerticals(feedVerticals: ReadonlySet<string>): VerticalFile[];
}

class FreshLayers implements BaseLayers {
  readonly reusedFrom = null;
  private classificationKeys: string[] = [];
  private identityNpis = 0;

  async loadBase(ctx: BuildContext): Promise<void> {
    const { inputs } = ctx;
    ctx.progress('nucc', { file: inputs.nucc });
    const nucc = await readNucc(inputs.nucc, ctx.rejects);
    await loadTaxonomyTable(ctx.connection, nucc.entries);
    ctx.sources.push({
      source: 'nucc',
      file: displayPath(inputs.nucc),
      read: nucc.read,
      accepted: nucc.entries.length,
      rejected: nucc.rejected,
    });
  }

  async stageIdentitySources(ctx: BuildContext): Promise<void> {
    await createNppesStage(ctx.connection);
    for (const [i, file] of ctx.inputs.nppes.entries()) {
      const name = displayPath(file);
      ctx.progress('nppes', { file: name });
      const c = await stageNppesFile(ctx.connection, file, i, name, ctx.work, (percent, rows) =>
        ctx.progress('nppes', { file: name, percent, rows }),
      );
      ctx.sources.push({ source: 'nppes', ...c });
      ctx.logger.info('nppes file staged', { ...c });
    }
  }

  reusedScreen(): null {
    return null;
  }

  async buildIdentity(ctx: BuildContext): Promise<void> {
    ctx.progress('identity');
    const identity = await buildIdentityTable(ctx.connection);
    this.identityNpis = identity.npis;
    this.classificationKeys = await identityClassificationKeys(ctx.connection);
    await buildNpiLookupTable(ctx.connection);
  }

  /**
   * Two lanes side by side, each on its own DuckDB connection: the search indexes (the longest writer), and the
   * identity Parquet, its serving indexes and the NPI buckets one after the other. The writers spend most of their
   * time in JS (decoding rows, encoding files) while DuckDB scans and sorts for the other lane on its own threads:
   * at 1,000,000 rows the step took 36 s instead of 43 s in a row. Four lanes were 1 s faster but held 230 MB more
   * at peak (README, "Memory and time").
   */
  async writeLayers(ctx: BuildContext, outDir: string): Promise<BaseLayerFiles> {
    const { connection, snapshotId } = ctx;
    const uploads: PendingUpload[] = [];
    const progress = (file: string) => (done: number, total: number) =>
      ctx.progress('parquet', { file, rows: done, percent: (100 * done) / total });
    const identityLane = async () => {
      const written = await timedWriter(ctx, 'identity', () =>
        writeIdentityFiles(connection, path.join(outDir, 'identity'), this.classificationKeys, progress('identity')),
      );
      const indexes = await timedWriter(ctx, 'identity-index', () =>
        writeIdentityIndexFiles(
          connection,
          path.join(outDir, 'identity-index'),
          this.classificationKeys,
          progress('identity index'),
        ),
      );
      const buckets = await timedWriter(ctx, 'npi', () => writeNpiBucketFiles(connection, path.join(outDir, 'npi')));
      return { written, indexes, buckets };
    };
    // DuckDB works with less memory while the writers hold theirs in JS (platform/duckdb/batch.ts).
    await setDuckDbMemoryLimit(connection, ctx.duckDbMemory.writersLimitMb);
    const [{ written, indexes, buckets }, search] = await allOrFirstError([
      identityLane(),
      timedWriter(ctx, 'search', () =>
        withConnection(ctx, (c) => writeSearchIndexFiles(c, path.join(outDir, 'search'))),
      ),
    ]).finally(() => setDuckDbMemoryLimit(connection, ctx.duckDbMemory.limitMb));
    for (const w of written) {
      uploads.push({
        key: identityPartitionKey(snapshotId, w.classification_key),
        file: w.file,
        contentType: CONTENT_TYPES.parquet,
        meta: { kind: 'identity', rows: w.rows, classification_key: w.classification_key },
      });
    }
    for (const w of indexes) {
      uploads.push({
        key: identityIndexKey(snapshotId, w.classification_key),
        file: w.file,
        contentType: CONTENT_TYPES.binary,
        meta: { kind: 'identity_index', rows: w.rows, classification_key: w.classification_key },
      });
    }
    for (const w of buckets) {
      uploads.push({
        key: npiBucketKey(snapshotId, w.bucket),
        file: w.file,
        contentType: CONTENT_TYPES.binary,
        meta: { kind: 'npi', rows: w.rows, npi_bucket: w.bucket },
      });
    }
    for (const w of search) {
      uploads.push({
        key: searchIndexKey(snapshotId, w.state),
        file: w.file,
        contentType: CONTENT_TYPES.binary,
        meta: { kind: 'search', rows: w.rows, state: w.state },
      });
    }
    const taxonomy = await writeTaxonomyFile(connection, path.join(outDir, 'taxonomy.parquet'));
    uploads.push({
      key: taxonomyKey(snapshotId),
      file: taxonomy.file,
      contentType: CONTENT_TYPES.parquet,
      meta: { kind: 'taxonomy', rows: taxonomy.rows },
    });
    return {
      uploads,
      identityFiles: written.map((w) => w.file),
      identityNpis: this.identityNpis,
      taxonomyRows: taxonomy.rows,
    };
  }

  carriedVerticals(): VerticalFile[] {
    return [];
  }
}

const SCREEN_MISSING: Record<ScreenName, string> = {
  'oig-leie': 'the current snapshot has no OIG screening list to reuse; pass LEIE files',
  'fda-letters': 'the current snapshot has no FDA letters list to reuse; pass FDA files',
};

type Current = NonNullable<Awaited<ReturnType<typeof readCurrentSnapshot>>>;

class ReusedLayers implements BaseLayers {
  readonly reusedFrom: string;
  /** The objects to carry over, in manifest order, with their local copies. */
  private readonly reused: { file: string; object: ManifestObject }[] = [];

  constructor(private readonly current: Current) {
    this.reusedFrom = current.pointer.snapshot_id;
  }

  /** The screening list `object` is, if any (snapshots before the `screen` kind listed them as `static`). */
  private screenOf(object: ManifestObject): ScreenName | undefined {
    return SCREEN_NAMES.find((name) => object.key === screenKey(this.reusedFrom, name));
  }

  async loadBase(ctx: BuildContext): Promise<void> {
    // Identity, NPI lookup, taxonomy, vertical and screening objects of the current snapshot, downloaded for re-upload and reuse.
    const wanted = this.current.manifest.objects.filter(
      (o) =>
        o.kind === 'identity' ||
        o.kind === 'identity_index' ||
        o.kind === 'npi' ||
        o.kind === 'search' ||
        o.kind === 'taxonomy' ||
        o.kind === 'vertical' ||
        o.kind === 'screen' ||
        this.screenOf(o) !== undefined,
    );
    for (const [i, object] of wanted.entries()) {
      const file = path.join(ctx.work, 'reuse', `${i}.parquet`);
      if (!(await ctx.store.download(object.key, file))) throw new Error(`${object.key} is missing from the store`);
      this.reused.push({ file, object });
      ctx.progress('reuse', { file: object.key, rows: i + 1 });
    }
  }

  async stageIdentitySources(): Promise<void> {}

  reusedScreen(name: ScreenName): string {
    const found = this.reused.find((r) => this.screenOf(r.object) === name);
    if (!found) throw new Error(SCREEN_MISSING[name]);
    return found.file;
  }

  async buildIdentity(): Promise<void> {}

  async writeLayers(ctx: BuildContext): Promise<BaseLayerFiles> {
    const uploads: PendingUpload[] = [];
    const identityFiles: string[] = [];
    for (const { file, object } of this.reused) {
      if (object.kind === 'vertical') continue;
      const key = object.key.replace(snapshotPrefix(this.reusedFrom), snapshotPrefix(ctx.snapshotId));
      const { key: _old, bytes: _b, sha256: _s, ...meta } = object;
      if (this.screenOf(object) !== undefined) meta.kind = 'screen';
      const binary = object.kind === 'identity_index' || object.kind === 'npi' || object.kind === 'search';
      const contentType = binary ? CONTENT_TYPES.binary : CONTENT_TYPES.parquet;
      uploads.push({ key, file, contentType, meta });
      if (object.kind === 'identity') identityFiles.push(file);
    }
    const { counts } = this.current.manifest;
    return { uploads, identityFiles, identityNpis: counts.identity, taxonomyRows: counts.taxonomies };
  }

  carriedVerticals(feedVerticals: ReadonlySet<string>): VerticalFile[] {
    // The feed replaces its own verticals; the current snapshot's other verticals are carried over.
    const carried: VerticalFile[] = [];
    for (const { file, object } of this.reused) {
      if (object.kind !== 'vertical' || !object.vertical || feedVerticals.has(object.vertical) || !object.boundary)
        continue;
      carried.push({
        file,
        rows: object.rows ?? 0,
        boundary: object.boundary,
        vertical: object.vertical,
        state: object.state ?? null,
      });
    }
    return carried;
  }
}

/**
 * Runs one writer of the parquet step and logs its time (`etl writer done`, with `writer`, `files`, `elapsed_ms`):
 * the step's writers run side by side, so the step's own time does not say which one is long.
 */
async function timedWriter<T extends readonly unknown[]>(
  ctx: BuildContext,
  writer: string,
  work: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const files = await work();
  ctx.logger.info('etl writer done', {
    writer,
    files: files.length,
    elapsed_ms: Math.round(performance.now() - started),
  });
  return files;
}

/** Runs `work` on a new connection of the run's DuckDB, closed afterwards. */
async function withConnection<T>(ctx: BuildContext, work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const connection = await ctx.connect();
  try {
    return await work(connection);
  } finally {
    connection.closeSync();
  }
}

/** A full build's base layers, built from NPPES and NUCC. */
export function freshLayers(): BaseLayers {
  return new FreshLayers();
}

/**
 * The current snapshot's base layers, for a build that reuses them.
 * @throws EtlInputError when the store has no current snapshot.
 */
export async function reuseCurrentLayers(store: ObjectStore): Promise<BaseLayers> {
  let current: Awaited<ReturnType<typeof readCurrentSnapshot>>;
  try {
    current = await readCurrentSnapshot(store);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new EtlInputError(
      store.location,
      `the current snapshot cannot be reused (${why}); run a full build with the NPPES and NUCC inputs first`,
    );
  }
  if (!current) throw new EtlInputError(store.location, 'no current snapshot to reuse the identity layer from');
  if (current.manifest.layout_version !== LAYOUT_VERSION) {
    throw new EtlInputError(
      store.location,
      `the current snapshot has layout ${current.manifest.layout_version}, this build writes ${LAYOUT_VERSION}; ` +
        'run a full build with the NPPES and NUCC inputs first',
    );
  }
  return new ReusedLayers(current);
}
