/**
 * The snapshot cache: which snapshot is current, its manifest, and its objects on local disk.
 *
 * - The pointer (`current.json`) is re-read at most once per `pointerTtlMs` (default 60 s); concurrent requests
 *   share one read. A new snapshot is picked up without a restart.
 * - A request pins ONE snapshot: {@link SnapshotCache.acquire} resolves the pointer once and returns a lease;
 *   every read of the request goes through that lease's manifest.
 * - Objects are fetched on demand into `<cacheDir>/<snapshot id>/`, named by a hash of key and ETag, written
 *   atomically by the object store (temp file + rename). Concurrent requests for one object share one download.
 * - When a snapshot is replaced, its per-snapshot state is closed and its cached files deleted as soon as the
 *   last request holding it has finished.
 *
 * The cache is generic over per-snapshot state `T` (the query layer keeps its in-memory tables there), so this
 * module knows nothing about SQL.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  isSnapshotId,
  type ManifestObject,
  POINTER_KEY,
  type SnapshotManifest,
  type SnapshotPointer,
} from '../../data-contracts/layout';
import { type Logger, silentLogger } from '../../platform/logger';
import type { ObjectStore } from '../../platform/object-store';
import { readManifest, readPointer } from '../../platform/snapshot-protocol';

/** Default seconds between pointer reads. */
export const DEFAULT_POINTER_TTL_SECONDS = 60;

/** One immutable snapshot: its manifest and on-demand access to its objects. */
export interface SnapshotFiles {
  readonly id: string;
  readonly manifest: SnapshotManifest;
  /** The manifest's objects of one kind. */
  objectsOf(kind: ManifestObject['kind']): ManifestObject[];
  /** True when `key` is an object of this snapshot. */
  has(key: string): boolean;
  /**
   * The local path of an object of this snapshot, downloading it first if needed. Throws for a key that is
   * not in the manifest: no path is ever built from anything else.
   */
  localPath(key: string): Promise<string>;
  /** The bytes of a small object of this snapshot (static JSON/CSV), kept in memory for the snapshot's life. */
  readSmall(key: string): Promise<Buffer>;
}

/** A pinned snapshot; call `release` exactly once when the request is done. */
export interface SnapshotLease<T> {
  readonly files: SnapshotFiles;
  readonly state: T;
  release(): void;
}

/** Options of {@link SnapshotCache}. */
export interface SnapshotCacheOptions<T> {
  store: ObjectStore;
  /** Local folder for downloaded objects (`/tmp/...` on Lambda). */
  cacheDir: string;
  /** Milliseconds between pointer reads. Default 60,000. */
  pointerTtlMs?: number;
  /** Builds the per-snapshot state once, when a snapshot becomes current (e.g. in-memory tables). */
  open: (files: SnapshotFiles) => Promise<T>;
  /** Frees the per-snapshot state once no request holds the snapshot any more. */
  close?: (state: T, files: SnapshotFiles) => Promise<void>;
  /** Clock in epoch milliseconds; tests inject one. Default `Date.now`. */
  nowMs?: () => number;
  logger?: Logger;
}

/** No snapshot has been published yet, or the first one could not be loaded. */
export class SnapshotUnavailableError extends Error {
  override readonly name = 'SnapshotUnavailableError';
}

interface Entry<T> {
  files: SnapshotFilesImpl;
  state: T;
  leases: number;
  retired: boolean;
}

/**
 * @example
 * const cache = new SnapshotCache({ store, cacheDir: '/tmp/pf-cache', open: async (files) => loadTables(files) });
 * const lease = await cache.acquire();
 * try { ... lease.files.localPath(key) ... } finally { lease.release(); }
 */
export class SnapshotCache<T> {
  private current: Entry<T> | null = null;
  private readonly retired = new Set<Entry<T>>();
  private checkedAtMs = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | null = null;
  private readonly ttlMs: number;
  private readonly nowMs: () => number;
  private readonly logger: Logger;
  private closed = false;

  constructor(private readonly options: SnapshotCacheOptions<T>) {
    this.ttlMs = Math.max(0, options.pointerTtlMs ?? DEFAULT_POINTER_TTL_SECONDS * 1000);
    this.nowMs = options.nowMs ?? Date.now;
    this.logger = options.logger ?? silentLogger;
  }

  /** The id of the snapshot that new requests get, or null before the first load. */
  get currentId(): string | null {
    return this.current?.files.id ?? null;
  }

  /** Pins the current snapshot for one request, re-reading the pointer first when its TTL has passed. */
  async acquire(): Promise<SnapshotLease<T>> {
    if (this.closed) throw new Error('snapshot cache is closed');
    if (this.current === null || this.nowMs() - this.checkedAtMs >= this.ttlMs) await this.refresh();
    const entry = this.current;
    if (entry === null) throw new SnapshotUnavailableError('no snapshot is available');
    entry.leases += 1;
    let released = false;
    return {
      files: entry.files,
      state: entry.state,
      release: () => {
        if (released) return;
        released = true;
        entry.leases -= 1;
        if (entry.retired && entry.leases === 0) void this.dispose(entry);
      },
    };
  }

  /** Reads the pointer now (shared by concurrent callers) and switches snapshot if it changed. */
  refresh(): Promise<void> {
    this.refreshing ??= this.readPointer().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Closes every snapshot's state. Cached files stay for the next process. */
  async close(): Promise<void> {
    this.closed = true;
    await this.refreshing?.catch(() => undefined);
    const entries = [...this.retired, ...(this.current ? [this.current] : [])];
    this.current = null;
    this.retired.clear();
    for (const entry of entries) await this.options.close?.(entry.state, entry.files);
  }

  private async readPointer(): Promise<void> {
    let pointer: SnapshotPointer;
    try {
      const found = await readPointer(this.options.store);
      if (found === null) throw new SnapshotUnavailableError(`no ${POINTER_KEY} in ${this.options.store.location}`);
      pointer = found;
    } catch (err) {
      // Keep serving the snapshot we have; try again after the TTL rather than on every request.
      this.checkedAtMs = this.nowMs();
      if (this.current !== null) {
        this.logger.warn('snapshot_pointer_unreadable', { error: errorName(err) });
        return;
      }
      throw err instanceof SnapshotUnavailableError ? err : new SnapshotUnavailableError(`pointer unreadable: ${err}`);
    }
    if (pointer.snapshot_id === this.current?.files.id) {
      this.checkedAtMs = this.nowMs();
      return;
    }
    try {
      const entry = await this.load(pointer);
      const previous = this.current;
      this.current = entry;
      this.checkedAtMs = this.nowMs();
      this.logger.info('snapshot_loaded', { snapshot_id: entry.files.id, previous: previous?.files.id ?? null });
      if (previous) this.retire(previous);
      else void this.removeStrayFolders(entry.files.id);
    } catch (err) {
      this.checkedAtMs = this.nowMs();
      if (this.current !== null) {
        this.logger.error('snapshot_load_failed', { snapshot_id: pointer.snapshot_id, error: err });
        return;
      }
      throw new SnapshotUnavailableError(`snapshot ${pointer.snapshot_id} could not be loaded: ${err}`);
    }
  }

  private async load(pointer: SnapshotPointer): Promise<Entry<T>> {
    const manifest = await readManifest(this.options.store, pointer.snapshot_id);
    const files = new SnapshotFilesImpl(
      manifest,
      this.options.store,
      path.join(this.options.cacheDir, manifest.snapshot_id),
    );
    const state = await this.options.open(files);
    return { files, state, leases: 0, retired: false };
  }

  private retire(entry: Entry<T>): void {
    entry.retired = true;
    this.retired.add(entry);
    if (entry.leases === 0) void this.dispose(entry);
  }

  private async dispose(entry: Entry<T>): Promise<void> {
    if (!this.retired.delete(entry)) return;
    try {
      await this.options.close?.(entry.state, entry.files);
      await rm(entry.files.dir, { recursive: true, force: true });
      this.logger.info('snapshot_released', { snapshot_id: entry.files.id });
    } catch (err) {
      this.logger.warn('snapshot_cleanup_failed', { snapshot_id: entry.files.id, error: errorName(err) });
    }
  }

  /** Folders of snapshots that an earlier process cached and that are no longer current. */
  private async removeStrayFolders(keep: string): Promise<void> {
    try {
      const names = await readdir(this.options.cacheDir);
      for (const name of names) {
        if (name !== keep && isSnapshotId(name)) {
          await rm(path.join(this.options.cacheDir, name), { recursive: true, force: true });
        }
      }
    } catch {
      // Nothing cached yet.
    }
  }
}

class SnapshotFilesImpl implements SnapshotFiles {
  readonly id: string;
  private readonly byKey: Map<string, ManifestObject>;
  private readonly downloads = new Map<string, Promise<string>>();
  private readonly small = new Map<string, Promise<Buffer>>();

  constructor(
    readonly manifest: SnapshotManifest,
    private readonly store: ObjectStore,
    readonly dir: string,
  ) {
    this.id = manifest.snapshot_id;
    this.byKey = new Map(manifest.objects.map((o) => [o.key, o]));
  }

  objectsOf(kind: ManifestObject['kind']): ManifestObject[] {
    return this.manifest.objects.filter((o) => o.kind === kind);
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  localPath(key: string): Promise<string> {
    const object = this.objectOf(key);
    let pending = this.downloads.get(key);
    if (pending === undefined) {
      pending = this.fetch(object);
      this.downloads.set(key, pending);
      // A failed download is not remembered: the next request tries again.
      pending.catch(() => this.downloads.delete(key));
    }
    return pending;
  }

  readSmall(key: string): Promise<Buffer> {
    this.objectOf(key);
    let pending = this.small.get(key);
    if (pending === undefined) {
      pending = this.store.getBytes(key).then((found) => {
        if (found === null) throw new Error(`object ${key} of the manifest is missing from the store`);
        return found.body;
      });
      this.small.set(key, pending);
      pending.catch(() => this.small.delete(key));
    }
    return pending;
  }

  private objectOf(key: string): ManifestObject {
    const object = this.byKey.get(key);
    if (object === undefined) throw new Error(`key is not in the manifest of ${this.id}`);
    return object;
  }

  private async fetch(object: ManifestObject): Promise<string> {
    const info = await this.store.head(object.key);
    if (info === null) throw new Error(`object ${object.key} of the manifest is missing from the store`);
    const file = path.join(this.dir, `${cacheName(object.key, info.etag)}${path.extname(object.key)}`);
    // A file of the same key and ETag from an earlier process (a warm Lambda's /tmp, a restarted local server).
    const existing = await stat(file).catch(() => null);
    if (existing !== null && existing.size === object.bytes) return file;
    await mkdir(this.dir, { recursive: true });
    const downloaded = await this.store.download(object.key, file);
    if (downloaded === null) throw new Error(`object ${object.key} vanished during download`);
    return file;
  }
}

function cacheName(key: string, etag: string): string {
  return createHash('sha256').update(`${key}\n${etag}`).digest('hex').slice(0, 40);
}

function errorName(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
