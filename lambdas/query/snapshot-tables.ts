/**
 * Per-snapshot state of the query layer, built once when a snapshot becomes current:
 * - the vertical layer (small: thousands of rows) read once, on the first query that needs it (not at the snapshot's
 *   load: a cold instance's first identity, search or NPI answer does not wait for it), with DuckDB from its Parquet
 *   partitions into JS arrays, one per boundary, sorted by name then entity_id, with entity_id/slug indexes: list and detail
 *   queries are then typed filters over memory (a DuckDB round trip costs milliseconds per query, the in-memory
 *   filter a fraction of one: docs/performance.md);
 * - the NUCC taxonomy map in JS maps, so a taxonomy parameter resolves without a query;
 * - the identity partitions by classification key: each partition's serving index (written by the ETL) is opened on
 *   its first query and read without DuckDB, in place (verified byte ranges of the object, docs/read-in-place.md)
 *   or from memory within the process's budget (`identity-partitions.ts`).
 */
import { LIVE_VERTICALS, type PublishBoundary } from '../../data-contracts/constants';
import { snapshotPrefix, UNMAPPED_CLASSIFICATION_KEY, VERTICAL_TABLE } from '../../data-contracts/layout';
import type { VerticalRow } from '../../data-contracts/rows';
import type { DuckDb, SqlRow } from '../../platform/duckdb/pool';
import { unitVectors } from '../../platform/geo/distance';
import { ZipTable } from '../../platform/geo/zip-table';
import { InFlight } from '../../platform/in-flight';
import { sqlIdentifier, sqlStringLiteral } from '../../platform/sql';
import { StringIntern } from '../../platform/string-intern';
import type { SnapshotFiles } from '../storage/snapshot-files';
import { SnapshotChanges } from './changes';
import type { IdentityPartitions } from './identity-partitions';
import { NpiBuckets } from './npi-buckets';
import { SearchIndexes } from './search-indexes';
import type { NearCircle, TaxonomyResolution } from './types';

/** A NUCC code: 10 characters, digits and capital letters (compared upper-cased). */
const CODE_PATTERN = /^[0-9A-Z]{10}$/;

/** One boundary's vertical records in list order, with lookups. */
export interface VerticalLayer {
  /** Sorted by name, then entity_id (the list order). */
  readonly rows: readonly VerticalRow[];
  /**
   * The filter columns of `rows[i]` in parallel arrays (city lower-cased): a list scan then reads small
   * monomorphic arrays instead of 35-property row objects, about 20 times faster on 10,000 rows.
   */
  readonly vertical: readonly string[];
  readonly state: readonly (string | null)[];
  readonly cityLower: readonly (string | null)[];
  readonly businessMode: readonly string[];
  /**
   * Where each row is placed for a radius query: its coordinates, or NaN when it is not placed (no coordinates, or
   * `online` only).
   */
  readonly latitude: Float64Array;
  readonly longitude: Float64Array;
  /** The unit vectors of the placed rows (NaN when not placed): a radius query's cheap first test. */
  readonly vectors: { x: Float64Array; y: Float64Array; z: Float64Array };
  readonly byEntityId: ReadonlyMap<string, VerticalRow>;
  readonly bySlug: ReadonlyMap<string, VerticalRow>;
}

/** The query layer's state of one snapshot. */
export interface SnapshotTables {
  readonly files: SnapshotFiles;
  /**
   * The vertical layer, loaded on the first query that needs it (once per snapshot; a failed load is tried again):
   * an identity, search or NPI query on a cold instance never waits for it.
   */
  vertical(): Promise<Record<PublishBoundary, VerticalLayer>>;
  /** Identity partition (the manifest key of its serving index, and its rows) per classification key. */
  readonly identityPartitions: ReadonlyMap<string, IdentityPartition>;
  /** The process's open identity indexes (shared by every snapshot). */
  readonly identity: IdentityPartitions;
  /** The process's open NPI lookup buckets (shared by every snapshot). */
  readonly npi: NpiBuckets;
  /** The process's open search indexes (shared by every snapshot). */
  readonly search: SearchIndexes;
  /** This snapshot's search index object per state. */
  readonly searchKeys: ReadonlyMap<string, string>;
  /** The width of this snapshot's NPI buckets, or null when it has none (older snapshots). */
  readonly npiBucketDigits: number | null;
  /**
   * This snapshot's NPI bucket objects by bucket (NPI prefix): a lookup finds its bucket's key without building and
   * hashing a new key string per NPI (a batch looks up 100).
   */
  readonly npiBucketKeys: Pick<ReadonlyMap<string, string>, 'get'>;
  /** The change feed's kept changes. */
  readonly changes: SnapshotChanges;
  /**
   * Loads the taxonomy map (once per snapshot; started when the snapshot loads, awaited by the identity queries that
   * need it, so that an NPI answer on a cold instance does not wait for it). A failed load is tried again.
   */
  ensureTaxonomy(): Promise<void>;
  /** Resolves once the loads started for this snapshot (taxonomy, vertical layer) have settled, whatever their outcome. */
  settled(): Promise<void>;
  /** Resolves a taxonomy parameter; the map must be loaded ({@link ensureTaxonomy}). */
  resolveTaxonomy(taxonomy: string): TaxonomyResolution;
  /**
   * The snapshot's ZIP table (read once, on the first radius query), or null when the snapshot has none (built
   * before radius search). A failed read is tried again.
   */
  zipTable(): Promise<ZipTable | null>;
  /** Resolved circles of this snapshot, least recently used first (lambdas/query/provider-queries.ts). */
  readonly circles: Map<string, NearCircle>;
}

/** One identity partition of the manifest: the key of its serving index. */
export interface IdentityPartition {
  readonly key: string;
  readonly rows: number;
}

interface TaxonomyEntry {
  classificationKey: string;
}

/** The vertical columns in their contract order: the only column list any query selects. */
export const VERTICAL_COLUMNS = Object.keys(VERTICAL_TABLE) as (keyof typeof VERTICAL_TABLE)[];

/**
 * Opens one snapshot's tables: the taxonomy map starts loading (not awaited); the vertical layer and the identity
 * partitions are loaded later, by the queries that need them.
 */
export async function openSnapshotTables(
  files: SnapshotFiles,
  db: DuckDb,
  identity: IdentityPartitions,
  npi: NpiBuckets = new NpiBuckets(),
  search: SearchIndexes = new SearchIndexes(),
): Promise<SnapshotTables> {
  let loaded: Record<PublishBoundary, VerticalLayer> | null = null;
  const loads = new InFlight<'vertical', Record<PublishBoundary, VerticalLayer>>();
  const vertical = () =>
    loaded !== null
      ? Promise.resolve(loaded)
      : loads.run('vertical', async () => {
          loaded = await loadVerticalLayer(files, db);
          return loaded;
        });

  let taxonomy: TaxonomyMaps | null = null;
  const taxonomyLoads = new InFlight<'taxonomy', TaxonomyMaps>();
  const ensureTaxonomy = async () => {
    taxonomy ??= await taxonomyLoads.run('taxonomy', () => loadTaxonomy(files, db));
  };
  // Started now, not awaited: usually loaded before the first identity query asks for it.
  ensureTaxonomy().catch(() => undefined);
  let zips: ZipTable | null = null;
  const zipLoads = new InFlight<'zips', ZipTable>();
  const zipObject = files.objectsOf('zip_table')[0];
  const zipTable = async () => {
    if (zipObject === undefined) return null;
    zips ??= await zipLoads.run('zips', async () => ZipTable.decode(await files.readSmall(zipObject.key)));
    return zips;
  };
  const identityPartitions = new Map<string, IdentityPartition>();
  for (const object of files.objectsOf('identity_index')) {
    if (object.classification_key) {
      identityPartitions.set(object.classification_key, { key: object.key, rows: object.rows ?? 0 });
    }
  }
  return {
    files,
    vertical,
    identityPartitions,
    identity,
    npi,
    search,
    searchKeys: new Map(files.objectsOf('search').flatMap((o) => (o.state ? [[o.state, o.key] as const] : []))),
    npiBucketDigits: files.npiBuckets.digits,
    npiBucketKeys: { get: (bucket) => files.npiBuckets.keyOf(bucket) },
    changes: new SnapshotChanges(files, db),
    ensureTaxonomy,
    settled: async () => {
      await Promise.all([taxonomyLoads.settled(), loads.settled(), zipLoads.settled()]);
    },
    zipTable,
    circles: new Map(),
    resolveTaxonomy: (value) => {
      if (taxonomy === null) throw new Error('the taxonomy map is not loaded yet (ensureTaxonomy)');
      return resolveTaxonomy(value, taxonomy);
    },
  };
}

/** Releases a snapshot's state once no request holds it: waits for its loads, closes its indexes and NPI buckets. */
export async function closeSnapshotTables(tables: SnapshotTables): Promise<void> {
  // A load started in the background (the taxonomy map) may still be writing to the cache folder: wait for it, so
  // that nothing of a closed snapshot is written after its close.
  await tables.settled();
  tables.identity.forget(snapshotPrefix(tables.files.id));
  tables.npi.forget(snapshotPrefix(tables.files.id));
  tables.search.forget(snapshotPrefix(tables.files.id));
  tables.changes.close();
}

/** The vertical layer of a snapshot, both boundaries, from its vertical partitions. */
async function loadVerticalLayer(files: SnapshotFiles, db: DuckDb): Promise<Record<PublishBoundary, VerticalLayer>> {
  // One read serves both boundaries: a `tracked` partition holds every record of its vertical and state, the
  // `verified` one the verified subset of the same rows (etl/writers/parquet.ts), so the verified layer is the tracked
  // rows filtered by publish_tier. A vertical with verified partitions only (none tracked) is read from those.
  const live = files
    .objectsOf('vertical')
    .filter((o) => o.vertical !== undefined && LIVE_VERTICALS.includes(o.vertical));
  const trackedVerticals = new Set(live.filter((o) => o.boundary === 'tracked').map((o) => o.vertical));
  const objects = live.filter(
    (o) => o.boundary === 'tracked' || (o.boundary === 'verified' && !trackedVerticals.has(o.vertical)),
  );
  const paths = await Promise.all(objects.map((o) => files.localPath(o.key)));
  const rows = await loadVerticalRows(db, paths);
  return {
    tracked: verticalLayer(rows),
    // Defence in depth: the verified layer keeps verified records only, whatever a partition holds.
    verified: verticalLayer(rows.filter((r) => r.publish_tier === 'verified')),
  };
}

/**
 * Reads the vertical partitions' rows, each cast to the contract's types, frozen, in list order. The statement is
 * assembled only from fixed fragments, the contract's column list and file paths that the snapshot cache made
 * from the manifest's allow-list.
 */
async function loadVerticalRows(db: DuckDb, paths: string[]): Promise<VerticalRow[]> {
  if (paths.length === 0) return [];
  const select = VERTICAL_COLUMNS.map(
    (c) => `CAST(${sqlIdentifier(c)} AS ${VERTICAL_TABLE[c]}) AS ${sqlIdentifier(c)}`,
  );
  const files = paths.map(sqlStringLiteral).join(', ');
  const raw = await db.query(`SELECT ${select.join(', ')} FROM read_parquet([${files}]) ORDER BY name, entity_id`);
  // The result's keys are exactly the contract's columns (the select list above), NULL as null. Each row is copied
  // once: the driver builds its rows by keyed stores, which leave V8 objects of more than a dozen properties in
  // dictionary mode (a spread copy is a fast object of one shared shape, several times smaller), and its strings
  // are one copy per cell (sources, statuses and dates repeat across rows).
  // A table of this load's own (not the process's: most of these strings are unique, and would push out the index
  // readers' dates and cities).
  const copies = new StringIntern(Number.POSITIVE_INFINITY);
  return raw.map((r) => {
    const row: SqlRow = { ...r };
    for (const column of VERTICAL_COLUMNS) {
      const value = row[column];
      if (typeof value === 'string') row[column] = copies.intern(value);
    }
    return Object.freeze(row as VerticalRow);
  });
}

/** A coordinate of a placed row (a number, and not an online-only record), else NaN. */
function placed(row: VerticalRow, value: unknown): number {
  if (row.business_mode === 'online' || row.latitude === null || row.longitude === null) return Number.NaN;
  const n = typeof value === 'number' ? value : Number.NaN;
  return Number.isFinite(n) ? n : Number.NaN;
}

/** One boundary's layer over rows in list order. */
function verticalLayer(rows: VerticalRow[]): VerticalLayer {
  const byEntityId = new Map<string, VerticalRow>();
  const bySlug = new Map<string, VerticalRow>();
  for (const row of rows) {
    byEntityId.set(String(row.entity_id), row);
    bySlug.set(String(row.slug), row);
  }
  const latitude = Float64Array.from(rows, (r) => placed(r, r.latitude));
  const longitude = Float64Array.from(rows, (r) => placed(r, r.longitude));
  return {
    rows,
    vertical: rows.map((r) => String(r.vertical)),
    state: rows.map((r) => (typeof r.state === 'string' ? r.state : null)),
    cityLower: rows.map((r) => (typeof r.city === 'string' ? r.city.toLowerCase() : null)),
    businessMode: rows.map((r) => String(r.business_mode)),
    latitude,
    longitude,
    vectors: unitVectors(latitude, longitude),
    byEntityId,
    bySlug,
  };
}

interface TaxonomyMaps {
  byCode: Map<string, TaxonomyEntry>;
  /** Lower-cased classification name to its key and canonical spelling. */
  byClassification: Map<string, { classification: string; classificationKey: string }>;
}

async function loadTaxonomy(files: SnapshotFiles, db: DuckDb): Promise<TaxonomyMaps> {
  const maps: TaxonomyMaps = { byCode: new Map(), byClassification: new Map() };
  const object = files.objectsOf('taxonomy')[0];
  if (object === undefined) return maps;
  const file = await files.localPath(object.key);
  const rows = await db.query(
    `SELECT code, classification, classification_key FROM read_parquet(${sqlStringLiteral(file)})`,
  );
  for (const row of rows) {
    const code = typeof row.code === 'string' ? row.code.toUpperCase() : null;
    const classification = typeof row.classification === 'string' ? row.classification : null;
    const key = typeof row.classification_key === 'string' ? row.classification_key : null;
    if (code === null || key === null) continue;
    maps.byCode.set(code, { classificationKey: key });
    if (classification !== null) {
      maps.byClassification.set(normaliseName(classification), { classification, classificationKey: key });
    }
  }
  return maps;
}

function normaliseName(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * A taxonomy parameter to the one partition it reads: a known code, else a known classification name
 * (case-insensitive), else a code-shaped string that NUCC does not know (the `unmapped` partition), else unknown.
 * "Pharmacist" is 10 letters: it is tried as a code first and, being no code, resolves as a classification.
 */
export function resolveTaxonomy(value: string, maps: TaxonomyMaps): TaxonomyResolution {
  const upper = value.trim().toUpperCase();
  const asCode = CODE_PATTERN.test(upper) ? maps.byCode.get(upper) : undefined;
  if (asCode) return { kind: 'code', code: upper, classificationKey: asCode.classificationKey };
  const asName = maps.byClassification.get(normaliseName(value));
  if (asName) {
    return {
      kind: 'classification',
      classification: asName.classification,
      classificationKey: asName.classificationKey,
    };
  }
  if (CODE_PATTERN.test(upper)) return { kind: 'code', code: upper, classificationKey: UNMAPPED_CLASSIFICATION_KEY };
  return { kind: 'unknown' };
}
