/**
 * The snapshot cache: which snapshot is current, its manifest, and its objects on local disk.
 *
 * - The pointer (`current.json`) is re-read at most once per `pointerTtlMs` (default 60 s); concurrent requests
 *   share one read. A new snapshot is picked up without a restart.
 * - A request pins ONE snapshot: {@link SnapshotCache.acquire} resolves the pointer once and returns a lease;
 *   every read of the request goes through that lease's manifest.
 * - Each snapshot's objects are fetched on demand into `<cacheDir>/<snapshot id>/` (`snapshot-files.ts`).
 * - When a snapshot is replaced, its per-snapshot state is closed and its cached files deleted as soon as the
 *   last request holding it has finished.
 *
 * The cache is generic over per-snapshot state `T` (the query layer keeps its in-memory tables there), so this
 * module knows nothing about SQL.
 */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { isSnapshotId, POINTER_KEY, type SnapshotPointer } from '../../data-contracts/layout';
import { InFlight } from '../../platform/in-flight';
import { type Logger, silentLogger } from '../../platform/logger';
import type { ObjectStore } from '../../platform/object-store';
import { createRangedStorage, type RangedStorage } from '../../platform/ranged/storage';
import { readPointer, readServingManifest } from '../../platform/snapshot-protocol';
import { type SnapshotFiles, SnapshotFilesImpl } from './snapshot-files';

/** Default seconds between pointer reads. */
export const DEFAULT_POINTER_TTL_SECONDS = 60;

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
  /** Memory and local disk of ranged reads (platform/ranged). Default 64 MB of memory, no disk. */
  ranged?: RangedStorage;
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
  /** How long its load took: the manifest's read and parse, and the opening of its state. */
  timings: { manifest_ms: number; open_ms: number };
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
  /** The one pointer read in progress, shared by concurrent callers. */
  private readonly pointerReads = new InFlight<'pointer', void>();
  private readonly ttlMs: number;
  private readonly ranged: RangedStorage;
  private readonly nowMs: () => number;
  private readonly logger: Logger;
  private closed = false;

  constructor(private readonly options: SnapshotCacheOptions<T>) {
    this.ttlMs = Math.max(0, options.pointerTtlMs ?? DEFAULT_POINTER_TTL_SECONDS * 1000);
    this.nowMs = options.nowMs ?? Date.now;
    this.logger = options.logger ?? silentLogger;
    this.ranged = options.ranged ?? createRangedStorage();
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
    return this.pointerReads.run('pointer', () => this.readPointer());
  }

  /** Closes every snapshot's state. Cached files stay for the next process. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pointerReads.settled();
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
      const started = performance.now();
      const entry = await this.load(pointer);
      const previous = this.current;
      this.current = entry;
      this.checkedAtMs = this.nowMs();
      this.logger.info('snapshot_loaded', {
        snapshot_id: entry.files.id,
        previous: previous?.files.id ?? null,
        load_ms: Math.round(performance.now() - started),
        ...entry.timings,
        manifest_objects: entry.files.manifest.objects.length + entry.files.npiBuckets.size,
      });
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
    const started = performance.now();
    const { manifest, npiBuckets } = await readServingManifest(this.options.store, pointer.snapshot_id);
    const read = performance.now();
    const files = new SnapshotFilesImpl(
      manifest,
      this.options.store,
      path.join(this.options.cacheDir, manifest.snapshot_id),
      this.ranged,
      npiBuckets,
    );
    const state = await this.options.open(files);
    const timings = { manifest_ms: Math.round(read - started), open_ms: Math.round(performance.now() - read) };
    return { files, state, leases: 0, retired: false, timings };
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

function errorName(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
