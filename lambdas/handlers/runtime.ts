/**
 * The API's process-wide objects, built once (at module scope in `api.ts`, at start in `local/start.ts`):
 * object store, snapshot cache, DuckDB, key lookup, meter, the response caches, and the app over them. Nothing
 * below holds process state at module scope: each runtime (a test's, a measuring tool's) has its own.
 */
import path from 'node:path';
import type { Hono } from 'hono';
import type { MemoryPlan } from '../../data-contracts/memory-budget';
import { createLazyDuckDb, type DuckDb, type DuckDbOptions } from '../../platform/duckdb/pool';
import { FolderObjectStore } from '../../platform/folder-store';
import type { Logger } from '../../platform/logger';
import type { ObjectStore } from '../../platform/object-store';
import { createRangedStorage } from '../../platform/ranged/storage';
import { createS3Client, S3ObjectStore } from '../../platform/s3-store';
import { CachedKeyLookup } from '../access/cached-key-lookup';
import { createDynamoClient } from '../access/dynamo';
import { RememberingMeter } from '../access/exhausted-keys';
import { KeyStore } from '../access/key-store';
import { DynamoMeter } from '../access/metering';
import type { CoreDeps, KeyLookup, Meter } from '../core/ports';
import { ProviderViews } from '../core/present-provider';
import { type AppOptions, createApp } from '../http/app';
import { ListBodyCache } from '../http/list-formats';
import { IdentityPartitions } from '../query/identity-partitions';
import { NpiBuckets } from '../query/npi-buckets';
import { createSnapshotSource, VerticalMatchCache } from '../query/provider-queries';
import { SearchIndexes } from '../query/search-indexes';
import { closeSnapshotTables, openSnapshotTables, type SnapshotTables } from '../query/snapshot-tables';
import { createReceiptKeys, ephemeralReceiptSource, type ReceiptKeySource } from '../signing/receipt-keys';
import { SnapshotCache } from '../storage/snapshot-cache';
import type { ApiConfig, DataStoreConfig } from './config';

/** Local disk (`/tmp` on Lambda) that blocks read in place may take: beyond it they stay in memory only. */
export const RANGED_DISK_BYTES = 1024 * 1024 * 1024;

/** The resolved DynamoDB tables (a deployment's, or the local dynalite's). */
export interface TablesConfig {
  keysTable: string;
  usageTable: string;
  endpoint?: string;
  region?: string;
}

/** Inputs of {@link createApiRuntime}. */
export interface RuntimeOptions {
  store: DataStoreConfig | ObjectStore;
  cacheDir: string;
  pointerTtlSeconds: number;
  tables: TablesConfig;
  meterTimeoutMs: number;
  keyCacheSeconds: number;
  /**
   * How long a key read from the keys table keeps answering while the table cannot be read (stale-if-error).
   * Default and maximum 300 s (`CachedKeyLookup`).
   */
  keyStaleSeconds?: number;
  logger: Logger;
  /** The process's memory budget: DuckDB's limit and the identity indexes kept in memory. */
  memory: MemoryPlan;
  /** Local disk the NPI arena may take. Default `DEFAULT_NPI_ARENA_BYTES` (lambdas/query/npi-buckets.ts). */
  npiArenaBytes?: number;
  app?: AppOptions;
  /**
   * Where the receipts' key comes from (loaded on the first receipt). Default: a random key of this runtime's own,
   * for tests and measuring tools (its receipts verify only against its own public key).
   */
  receipts?: ReceiptKeySource;
  duckdb?: Omit<DuckDbOptions, 'allowedDirectory'>;
  /** Overrides for tests: a clock for the pointer TTL, or other key/meter implementations. */
  nowMs?: () => number;
  keys?: KeyLookup;
  meter?: Meter;
}

/**
 * The memo caches of the request path, sized as before they were owned here: provider views per row, list bodies
 * (16 MB of recent pages), matches of the last 256 filters per vertical layer.
 */
export interface ApiCaches {
  views: ProviderViews;
  bodies: ListBodyCache;
  matches: VerticalMatchCache;
  /** Empties every cache (a measurement of a cold process, a test that must not see another's answers). */
  clear(): void;
}

/** A new, empty set of {@link ApiCaches}. */
export function createApiCaches(): ApiCaches {
  const views = new ProviderViews();
  const bodies = new ListBodyCache();
  const matches = new VerticalMatchCache();
  return {
    views,
    bodies,
    matches,
    clear() {
      views.clear();
      bodies.clear();
      matches.clear();
    },
  };
}

/** What the entry points hold for the life of the process. */
export interface ApiRuntime {
  app: Hono;
  deps: CoreDeps;
  caches: ApiCaches;
  snapshots: SnapshotCache<SnapshotTables>;
  db: DuckDb;
  identity: IdentityPartitions;
  close(): Promise<void>;
}

/** The runtime options a loaded config gives, for the resolved tables (a deployment's or the local dynalite's). */
export function runtimeOptionsFrom(config: ApiConfig, tables: TablesConfig, logger: Logger): RuntimeOptions {
  return {
    store: config.store,
    cacheDir: config.cacheDir,
    pointerTtlSeconds: config.pointerTtlSeconds,
    tables,
    meterTimeoutMs: config.access.meterTimeoutMs,
    keyCacheSeconds: config.access.keyCacheSeconds,
    logger,
    memory: config.memory,
    npiArenaBytes: config.npiArenaBytes,
    ...(config.originSecret ? { app: { originSecret: config.originSecret } } : {}),
    ...(config.receipts ? { receipts: config.receipts } : {}),
  };
}

/** Builds the object store of a config. */
export function createObjectStore(config: DataStoreConfig): ObjectStore {
  if (config.kind === 'folder') return new FolderObjectStore(config.dir);
  const client = createS3Client({
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.region ? { region: config.region } : {}),
  });
  return new S3ObjectStore(client, config.bucket, config.prefix);
}

/**
 * @example
 * const runtime = await createApiRuntime({ store: { kind: 'folder', dir }, cacheDir, pointerTtlSeconds: 60, tables, ... });
 * serveNode(runtime.app, { port: 8787 });
 */
export async function createApiRuntime(options: RuntimeOptions): Promise<ApiRuntime> {
  const store = 'kind' in options.store ? createObjectStore(options.store) : options.store;
  // Created on the first query that runs SQL (the taxonomy map, the vertical layer, the change feed's months).
  const db = createLazyDuckDb({
    memoryLimit: `${options.memory.duckdbMb}MB`,
    ...options.duckdb,
    allowedDirectory: options.cacheDir,
  });
  const identity = new IdentityPartitions({
    residentBytes: options.memory.identityResidentBytes,
    logger: options.logger,
  });
  // The NPI arena lives beside the snapshot folders (the snapshot cache only removes snapshot-id folders).
  const npi = new NpiBuckets({
    arenaDir: path.join(options.cacheDir, 'npi-arena'),
    ...(options.npiArenaBytes !== undefined ? { maxArenaBytes: options.npiArenaBytes } : {}),
    logger: options.logger,
  });
  const search = new SearchIndexes();
  const snapshots = new SnapshotCache<SnapshotTables>({
    store,
    cacheDir: options.cacheDir,
    // Verified blocks of the objects read in place: 64 MB of memory, and up to 1 GB of the cache folder's disk.
    ranged: createRangedStorage({ diskBytes: RANGED_DISK_BYTES }),
    pointerTtlMs: options.pointerTtlSeconds * 1000,
    open: (files) => openSnapshotTables(files, db, identity, npi, search),
    close: (tables) => closeSnapshotTables(tables),
    logger: options.logger,
    ...(options.nowMs ? { nowMs: options.nowMs } : {}),
  });
  const dynamo = createDynamoClient({
    ...(options.tables.endpoint ? { endpoint: options.tables.endpoint } : {}),
    ...(options.tables.region ? { region: options.tables.region } : {}),
  });
  const keys =
    options.keys ??
    new CachedKeyLookup(new KeyStore({ client: dynamo, tableName: options.tables.keysTable }), {
      ttlSeconds: options.keyCacheSeconds,
      ...(options.keyStaleSeconds !== undefined ? { staleIfErrorSeconds: options.keyStaleSeconds } : {}),
      logger: options.logger,
      ...(options.nowMs ? { nowMs: options.nowMs } : {}),
    });
  // Keys seen exhausted this month are refused before any work, without a DynamoDB write (exhausted-keys.ts).
  const meter = new RememberingMeter(
    options.meter ??
      new DynamoMeter({
        client: dynamo,
        tableName: options.tables.usageTable,
        timeoutMs: options.meterTimeoutMs,
        logger: options.logger,
      }),
  );
  const caches = createApiCaches();
  const deps: CoreDeps = {
    snapshots: createSnapshotSource(snapshots, caches.matches),
    keys,
    meter,
    clock: () => new Date(),
    logger: options.logger,
    views: caches.views,
    // Loaded on the first receipt, never at start (a deployment's is read from Secrets Manager).
    receipts: createReceiptKeys(options.receipts ?? ephemeralReceiptSource(), options.logger),
  };
  return {
    app: createApp(deps, { ...options.app, bodies: caches.bodies }),
    deps,
    caches,
    snapshots,
    db,
    identity,
    async close() {
      await snapshots.close();
      npi.close();
      db.close();
      dynamo.destroy();
    },
  };
}
