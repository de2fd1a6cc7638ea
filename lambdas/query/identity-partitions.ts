/**
 * The process's identity serving indexes (platform/identity-index), one per identity partition, within a memory
 * budget that does not depend on the data's size.
 *
 * - A partition's index is opened on its first query (the local file first fetched by the snapshot cache;
 *   concurrent first queries share one open) and answers AT ONCE from the file with positional reads: no query ever
 *   waits for a partition to load, and none can fail for lack of memory. Its meta region (directory and
 *   dictionaries, a few percent of the file) is held in memory while it is open if the budget has room for it
 *   (else it is read from disk like the rest), so a page costs three reads (its slice of a posting list, its
 *   records, its names).
 * - In the background the whole file is read into memory when it fits in `residentBytes`; the reader then switches
 *   to the in-memory bytes. When memory is full, a partition is admitted only if it has been used more often than
 *   every partition it would push out (use counts are halved every {@link AGING_USES} uses, so the hot set follows
 *   the traffic), and such a swap happens at most once per {@link SWAP_INTERVAL_MS}: each load allocates a whole
 *   file, and under spread traffic unbounded swapping turned into full garbage collections (18 in 12 s instead of
 *   3 on query b). A one-off query never flushes the hot set.
 *   Positional reads of a file in the page cache cost about as much as reads of memory, so a partition left on
 *   disk is slower by a few microseconds, not by a load.
 * - Loads reserve their bytes before reading, so the resident bytes never pass the budget, however many loads run.
 *
 * One cache serves every snapshot of the process (its keys hold the snapshot id), so the budget is the process's
 * even while an old snapshot drains; `forget` closes a snapshot's partitions when it is released.
 */
import { readFile } from 'node:fs/promises';
import { BLOCK_CACHE_BLOCKS, BlockCache } from '../../platform/binary/block-cache';
import { BufferSource, type ByteSource, HeadInMemorySource } from '../../platform/binary/byte-source';
import { FileSource } from '../../platform/binary/file-source';
import { IdentityIndexReader } from '../../platform/identity-index/reader';
import { InFlight } from '../../platform/in-flight';
import { type Logger, silentLogger } from '../../platform/logger';
import { readInPlace } from '../../platform/ranged/read-in-place';
import type { IndexFile } from '../storage/snapshot-files';

/** Every this many uses, every partition's use count is halved. */
export const AGING_USES = 4096;
/** At most one partition is loaded in place of others per this many milliseconds. */
export const SWAP_INTERVAL_MS = 10_000;

export interface IdentityPartitionsOptions {
  /** Bytes of index files held in memory at most. 0 keeps every partition on disk. */
  residentBytes: number;
  /** Index files kept open at most (a file descriptor and a few decoded strings each). Default 512. */
  maxOpenFiles?: number;
  logger?: Logger;
  /** Clock in epoch milliseconds (the swap interval); tests inject one. Default `Date.now`. */
  nowMs?: () => number;
}

interface Handle {
  readonly key: string;
  /** The local file of the whole object (null: read in place from the object store, never loaded whole). */
  readonly path: string | null;
  readonly file: ByteSource & { close(): void };
  /** Checks a whole copy read from `path` before the reader uses it (objects with block digests). */
  readonly verifyWhole: ((bytes: Buffer) => Promise<void>) | null;
  /** The source when the file is not in memory: its meta region in memory when the budget allows. */
  readonly onDisk: ByteSource;
  /** Bytes of the meta region held (0 when it did not fit). */
  readonly metaBytes: number;
  readonly reader: IdentityIndexReader;
  readonly bytes: number;
  state: 'disk' | 'loading' | 'resident';
  /** Uses, halved every AGING_USES uses of the cache. */
  hits: number;
  refs: number;
}

export class IdentityPartitions {
  /** Open partitions, least recently used first. */
  private readonly handles = new Map<string, Handle>();
  private readonly opening = new InFlight<string, Handle>();
  /** The blocks read from the files on disk, shared by every open partition: this instance's own, 4 MB. */
  private readonly blocks = new BlockCache(BLOCK_CACHE_BLOCKS);
  private readonly residentBytes: number;
  private readonly maxOpenFiles: number;
  private readonly logger: Logger;
  /** Bytes of resident and loading partitions. */
  private reserved = 0;
  private uses = 0;
  private readonly nowMs: () => number;
  private lastSwapMs = Number.NEGATIVE_INFINITY;

  constructor(options: IdentityPartitionsOptions) {
    this.residentBytes = Math.max(0, options.residentBytes);
    this.maxOpenFiles = Math.max(1, options.maxOpenFiles ?? 512);
    this.logger = options.logger ?? silentLogger;
    this.nowMs = options.nowMs ?? Date.now;
  }

  /**
   * Runs `work` over the reader of partition `key`, which `file(cache)` opens: a local file's path, or an
   * {@link IndexFile} (lambdas/storage/snapshot-files.ts: read in place, ranges fetched between runs of `work`).
   * @example await partitions.use(key, (cache) => files.openIndex(key, cache), (reader) => reader.query(q))
   */
  async use<T>(
    key: string,
    file: (cache: BlockCache) => Promise<string | IndexFile>,
    work: (reader: IdentityIndexReader) => T,
  ): Promise<T> {
    const handle = this.handles.get(key) ?? (await this.opening.run(key, () => this.open(key, file)));
    this.handles.delete(key);
    this.handles.set(key, handle);
    this.count(handle);
    handle.refs += 1;
    try {
      this.promote(handle);
      return await readInPlace(() => work(handle.reader));
    } finally {
      handle.refs -= 1;
    }
  }

  /** Closes the partitions whose key starts with `prefix` (a released snapshot's). */
  forget(prefix: string): void {
    for (const handle of [...this.handles.values()]) {
      if (handle.key.startsWith(prefix)) this.close(handle);
    }
  }

  /** What is open and what is in memory (`residentBytes`: whole files and meta regions), for tests and logs. */
  stats(): { open: string[]; resident: string[]; loading: string[]; residentBytes: number } {
    const of = (state: Handle['state']) =>
      [...this.handles.values()].filter((h) => h.state === state).map((h) => h.key);
    return {
      open: [...this.handles.keys()],
      resident: of('resident'),
      loading: of('loading'),
      residentBytes: this.reserved,
    };
  }

  private async open(key: string, file: (cache: BlockCache) => Promise<string | IndexFile>): Promise<Handle> {
    const opened = await file(this.blocks);
    const { source, path, verifyWhole } =
      typeof opened === 'string'
        ? { source: new FileSource(opened, this.blocks), path: opened, verifyWhole: null }
        : opened;
    let reader: IdentityIndexReader;
    try {
      reader = await readInPlace(() => IdentityIndexReader.open(source));
    } catch (err) {
      source.close();
      throw new Error(`identity index ${key} is unreadable`, { cause: err });
    }
    // The meta region in memory (a few percent of the file), when the budget holds it beside the others'. A
    // ranged object holds its meta region already (its prefetch ranges, platform/ranged).
    const metaBytes = path !== null && this.makeRoom(reader.metaLength) ? reader.metaLength : 0;
    const onDisk = metaBytes > 0 ? new HeadInMemorySource(source.slice(0, metaBytes), source) : source;
    reader.source = onDisk;
    this.reserved += metaBytes;
    const handle: Handle = {
      key,
      path,
      verifyWhole,
      file: source,
      onDisk,
      metaBytes,
      reader,
      bytes: source.size,
      state: 'disk',
      hits: 0,
      refs: 0,
    };
    this.handles.set(key, handle);
    this.trimOpenFiles();
    return handle;
  }

  /**
   * Frees budget for `bytes` of meta by taking whole files out of memory (least used first). Other partitions'
   * meta regions stay: when they fill the budget, the new partition reads its meta from disk too. Closing idle
   * partitions to make room instead (as before) reopened them on their next query, over and over under spread
   * traffic, and a small budget then answered slower than none (docs/performance.md).
   */
  private makeRoom(bytes: number): boolean {
    const free = () => this.residentBytes - this.reserved;
    if (free() >= bytes) return true;
    const resident = [...this.handles.values()].filter((h) => h.state === 'resident').sort((a, b) => a.hits - b.hits);
    for (const handle of resident) {
      if (free() >= bytes) return true;
      this.demote(handle);
    }
    return free() >= bytes;
  }

  private count(handle: Handle): void {
    handle.hits += 1;
    this.uses += 1;
    if (this.uses % AGING_USES === 0) for (const h of this.handles.values()) h.hits >>= 1;
  }

  /** Starts reading the partition into memory when the budget allows (see the module comment). */
  private promote(handle: Handle): void {
    if (handle.state !== 'disk' || handle.path === null || handle.bytes > this.residentBytes) return;
    let free = this.residentBytes - this.reserved;
    if (free < handle.bytes) {
      if (this.nowMs() - this.lastSwapMs < SWAP_INTERVAL_MS) return;
      // The least used resident partitions make room, each used less often than this one; else nothing moves.
      const victims: Handle[] = [];
      const resident = [...this.handles.values()].filter((h) => h !== handle && h.state === 'resident');
      for (const other of resident.sort((a, b) => a.hits - b.hits)) {
        if (free >= handle.bytes) break;
        if (other.hits >= handle.hits) return;
        victims.push(other);
        free += other.bytes;
      }
      if (free < handle.bytes) return;
      for (const victim of victims) this.demote(victim);
      this.lastSwapMs = this.nowMs();
    }
    handle.state = 'loading';
    this.reserved += handle.bytes;
    const path = handle.path;
    readFile(path)
      .then(async (bytes) => {
        await handle.verifyWhole?.(bytes);
        return bytes;
      })
      .then(
        (bytes) => {
          if (handle.state !== 'loading') return; // closed meanwhile: its reservation is already returned
          handle.reader.source = new BufferSource(bytes);
          handle.state = 'resident';
        },
        (err: unknown) => {
          if (handle.state !== 'loading') return;
          handle.state = 'disk';
          this.reserved -= handle.bytes;
          this.logger.warn('identity_index_load_failed', { key: handle.key, error: String(err) });
        },
      );
  }

  /** Back to positional reads; the bytes go with the last reference. */
  private demote(handle: Handle): void {
    if (handle.state === 'disk') return;
    handle.reader.source = handle.onDisk;
    this.reserved -= handle.bytes;
    handle.state = 'disk';
  }

  private close(handle: Handle): void {
    this.demote(handle);
    this.reserved -= handle.metaBytes;
    this.handles.delete(handle.key);
    handle.file.close();
  }

  private trimOpenFiles(): void {
    for (const handle of this.handles.values()) {
      if (this.handles.size <= this.maxOpenFiles) return;
      if (handle.refs === 0) this.close(handle);
    }
  }
}
