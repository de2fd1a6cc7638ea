/**
 * The NPI lookup buckets of the process (data-contracts/layout.ts, `npi` objects; format:
 * `platform/npi-index/format.ts`). On a bucket's first use in the process, its gzipped object (fetched to local disk by
 * the snapshot cache) is unzipped ONCE, streamed in small chunks (./npi-unzip.ts), into the process's **arena**
 * (./npi-arena.ts): one local file that holds every unzipped bucket, so that any number of buckets costs one open file,
 * not one each (reopening bucket files dominated a lookup's CPU once thousands were touched). A lookup is a binary
 * search over the bucket's fixed-width directory (from a small in-memory cache of directories as read, else one
 * positional read) and one exact-length positional read of the record, then one `JSON.parse`. The records are read
 * through the page cache, never held in the process.
 *
 * Bounded, whatever the number of buckets touched:
 * - memory: the directory cache ({@link NPI_DIRECTORY_CACHE_BYTES}, part of the native reserve of
 *   data-contracts/memory-budget.ts), the bucket positions (a few dozen bytes per bucket used), at most
 *   {@link MAX_NPI_BUCKET_LOADS} unzips at once, each holding a chunk or two of `UNZIP_CHUNK_BYTES` (a bucket
 *   is never whole in memory: unzipping each into one Buffer plus its chunks left glibc holding tens of MB of freed
 *   memory after a few thousand buckets);
 * - local disk: two arena generations of at most half of `maxArenaBytes` each; when the current one is full, the
 *   older one is deleted (its buckets are unzipped again on their next use) and a new one starts;
 * - file descriptors: one per generation.
 *
 * One instance serves every snapshot of the process (keys hold the snapshot id); `forget` drops a released
 * snapshot's buckets (their bytes go with their generation).
 */
import type { NpiRecordBytes } from '../../data-contracts/npi-record';
import { BufferSource } from '../../platform/binary/byte-source';
import { readFully } from '../../platform/binary/file-source';
import { InFlight } from '../../platform/in-flight';
import { type Logger, silentLogger } from '../../platform/logger';
import {
  NPI_ENTRY_BYTES,
  NPI_INDEX_HEADER_BYTES,
  type NpiIndexVersion,
  npiRecordsStart,
} from '../../platform/npi-index/format';
import { NpiDirectory, NpiIndexReader } from '../../platform/npi-index/reader';
import { ArenaSource, type Generation, NpiArena, writeAt } from './npi-arena';
import { NpiBucketsInPlace, recordOf } from './npi-in-place';
import { type UnzipBucket, unzipBucket, unzippedSize } from './npi-unzip';

/**
 * Bucket unzips running at once, at most: a batch of 100 NPIs on every connection must not unzip hundreds of
 * buckets side by side (memory grows with them); the rest wait their turn.
 */
export const MAX_NPI_BUCKET_LOADS = 4;
/**
 * Bytes of bucket directories held in memory: 16 MB, the directories of 1 million NPIs (16 bytes each, as in the
 * file: platform/npi-index/reader.ts `NpiDirectory`; a national bucket's is a few KB). A lookup whose directory is
 * held costs one positional read (the record) instead of two: a batch of 100 NPIs makes 100 reads fewer.
 */
export const NPI_DIRECTORY_CACHE_BYTES = 16 * 1024 * 1024;
/**
 * Local disk the arena may take when not told (`PF_NPI_ARENA_MB` sets it: lambdas/handlers/config.ts): two
 * generations of 512 MB. A national snapshot's buckets unzipped are more than the API Lambda's `/tmp` holds beside
 * the identity indexes (docs/deploy.md); the hot ones stay. When the buckets that traffic touches do not fit, a
 * lookup of a bucket of the dropped generation unzips it again, several times slower (docs/performance.md).
 */
export const DEFAULT_NPI_ARENA_BYTES = 1024 * 1024 * 1024;

export interface NpiBucketsOptions {
  /** Folder of the arena files (emptied at start). Default a new temporary folder. */
  arenaDir?: string;
  /** Local disk of the arena at most (two generations of half). Default {@link DEFAULT_NPI_ARENA_BYTES}. */
  maxArenaBytes?: number;
  /** Bytes of directories held in memory. Default {@link NPI_DIRECTORY_CACHE_BYTES}. */
  directoryCacheBytes?: number;
  /** Unzips a bucket (tests observe the unzips through it). Default {@link unzipBucket}. */
  unzip?: UnzipBucket;
  logger?: Logger;
}

/** A bucket that could not be written to the arena (a full disk): its bytes answer the lookups that waited for it. */
interface Unplaced {
  readonly body: Buffer;
}

/** Where a bucket's unzipped bytes are. */
interface Placed {
  readonly generation: Generation;
  /** Offset of the bucket's file (its header) in the generation. */
  readonly at: number;
  readonly count: number;
  /** What its records are (platform/npi-index/format.ts). */
  readonly version: NpiIndexVersion;
}

export class NpiBuckets {
  private readonly placed = new Map<string, Placed>();
  private readonly loading = new InFlight<string, Placed | Unplaced>();
  private readonly logger: Logger;
  /** Directories held, least recently used first. */
  private readonly directories = new Map<string, NpiDirectory>();
  private directoryBytes = 0;
  private readonly directoryCacheBytes: number;
  private readonly unzip: UnzipBucket;
  private readonly arena: NpiArena;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  /** The buckets of layout 4, read in place (no arena): ./npi-in-place.ts. */
  readonly inPlace = new NpiBucketsInPlace();

  constructor(options: NpiBucketsOptions = {}) {
    this.directoryCacheBytes = Math.max(0, options.directoryCacheBytes ?? NPI_DIRECTORY_CACHE_BYTES);
    this.unzip = options.unzip ?? unzipBucket;
    this.logger = options.logger ?? silentLogger;
    const generationBytes = Math.max(1, Math.floor((options.maxArenaBytes ?? DEFAULT_NPI_ARENA_BYTES) / 2));
    // A retired generation's buckets are placed again on their next use.
    this.arena = new NpiArena(options.arenaDir ?? null, generationBytes, (generation) => {
      for (const [key, placed] of [...this.placed]) if (placed.generation === generation) this.drop(key);
    });
  }

  /**
   * The record of `npi` (or null) when bucket `key` is in the arena: answered at once, without a promise (a batch of
   * 100 NPIs makes 100 lookups); undefined when the bucket is not placed (then {@link find} places it).
   */
  placedRecord(key: string, npi: string): NpiRecordBytes | null | undefined {
    const placed = this.placed.get(key);
    return placed === undefined || placed.generation.fd === null ? undefined : this.lookup(key, placed, npi);
  }

  /**
   * The record of `npi` in bucket object `key`, whose local (gzipped) file `file()` gives (downloading it if needed).
   * @example await buckets.find(key, () => files.localPath(key), '1003633876')
   */
  async find(key: string, file: () => Promise<string>, npi: string): Promise<NpiRecordBytes | null> {
    for (;;) {
      const placed = this.placed.get(key) ?? (await this.loading.run(key, () => this.load(key, file)));
      // Not written (the disk is full): answered from the unzipped bytes; the next lookup tries to place it again.
      if ('body' in placed) {
        const reader = NpiIndexReader.open(new BufferSource(placed.body));
        const bytes = reader.findBytes(npi);
        return bytes === null ? null : recordOf(bytes, reader.version);
      }
      // Dropped meanwhile (its generation rotated out while this lookup waited): place it again.
      if (placed.generation.fd !== null) return this.lookup(key, placed, npi);
    }
  }

  /** Drops the buckets whose key starts with `prefix` (a released snapshot's). */
  forget(prefix: string): void {
    for (const key of [...this.placed.keys()]) if (key.startsWith(prefix)) this.drop(key);
    this.inPlace.forget(prefix);
  }

  /** Closes the arena files and deletes them. */
  close(): void {
    this.arena.close();
    this.inPlace.closeAll();
  }

  /** The buckets placed, the arena's bytes and the directory cache's (tests, logs). */
  stats(): { placed: string[]; arenaBytes: number; directoryBytes: number; generations: number } {
    const generations = this.arena.generations();
    return {
      placed: [...this.placed.keys()],
      arenaBytes: generations.reduce((sum, g) => sum + g.size, 0),
      directoryBytes: this.directoryBytes,
      generations: generations.length,
    };
  }

  private lookup(key: string, placed: Placed, npi: string): NpiRecordBytes | null {
    const directory = this.directory(key, placed);
    const at = directory.indexOf(npi);
    if (at < 0) return null;
    const [start, end] = directory.span(at);
    const bytes = Buffer.allocUnsafe(end - start);
    readFully(placed.generation.fd as number, bytes, placed.at + npiRecordsStart(placed.count) + start, 'NPI arena');
    return recordOf(bytes, placed.version);
  }

  /** The directory of a placed bucket: from the cache, else one read. */
  private directory(key: string, placed: Placed): NpiDirectory {
    const held = this.directories.get(key);
    if (held !== undefined) {
      this.directories.delete(key);
      this.directories.set(key, held);
      return held;
    }
    const bytes = Buffer.allocUnsafe(placed.count * NPI_ENTRY_BYTES);
    readFully(placed.generation.fd as number, bytes, placed.at + NPI_INDEX_HEADER_BYTES, 'NPI arena');
    const directory = NpiDirectory.of(bytes, placed.count);
    this.directories.set(key, directory);
    this.directoryBytes += directory.bytes;
    for (const [old, held] of this.directories) {
      if (this.directoryBytes <= this.directoryCacheBytes) break;
      this.directories.delete(old);
      this.directoryBytes -= held.bytes;
    }
    return directory;
  }

  /** Runs `work` when fewer than {@link MAX_NPI_BUCKET_LOADS} unzips run. */
  private async limited<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= MAX_NPI_BUCKET_LOADS) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next !== undefined) next();
      else this.running -= 1;
    }
  }

  private async load(key: string, file: () => Promise<string>): Promise<Placed | Unplaced> {
    const gz = await file();
    return this.limited(async () => {
      let size: number;
      try {
        size = await unzippedSize(gz);
      } catch (err) {
        throw new Error(`NPI bucket ${key} is unreadable`, { cause: err });
      }
      for (;;) {
        let generation: Generation;
        try {
          generation = this.arena.generationFor(size);
        } catch (err) {
          return this.unplaced(key, gz, err);
        }
        const at = generation.size;
        generation.size += size;
        let written = 0;
        let writeFailed: unknown = null;
        try {
          await this.unzip(gz, async (chunk) => {
            if (written + chunk.length > size) throw new Error('more bytes than its gzip trailer says');
            try {
              await writeAt(generation, chunk, at + written);
            } catch (err) {
              writeFailed = err;
              throw err;
            }
            written += chunk.length;
          });
        } catch (err) {
          if (writeFailed !== null) return this.unplaced(key, gz, writeFailed);
          throw new Error(`NPI bucket ${key} is unreadable`, { cause: err });
        }
        // Retired while writing (two generations filled meanwhile): append again.
        if (generation.fd === null) continue;
        const { count, version } = this.check(key, generation, at, size, written);
        const placed = { generation, at, count, version };
        this.placed.set(key, placed);
        return placed;
      }
    });
  }

  /** The count and version of a bucket just streamed to the arena; throws when its bytes are not a whole bucket. */
  private check(
    key: string,
    generation: Generation,
    at: number,
    size: number,
    written: number,
  ): { count: number; version: NpiIndexVersion } {
    try {
      if (written !== size) throw new Error(`${written} bytes unzipped, its gzip trailer says ${size}`);
      const { count, version } = NpiIndexReader.open(new ArenaSource(generation.fd as number, at, size));
      return { count, version };
    } catch (err) {
      throw new Error(`NPI bucket ${key} is unreadable`, { cause: err });
    }
  }

  /** A bucket the arena could not take: logged, and unzipped in memory to answer the lookups that waited for it. */
  private async unplaced(key: string, gz: string, err: unknown): Promise<Unplaced> {
    this.logger.warn('npi_arena_write_failed', { key, error: err instanceof Error ? err.message : String(err) });
    const chunks: Buffer[] = [];
    try {
      await this.unzip(gz, async (chunk) => {
        chunks.push(chunk);
      });
      const body = Buffer.concat(chunks);
      NpiIndexReader.open(new BufferSource(body));
      return { body };
    } catch (cause) {
      throw new Error(`NPI bucket ${key} is unreadable`, { cause });
    }
  }

  private drop(key: string): void {
    this.placed.delete(key);
    const directory = this.directories.get(key);
    if (directory !== undefined) {
      this.directories.delete(key);
      this.directoryBytes -= directory.bytes;
    }
  }
}
