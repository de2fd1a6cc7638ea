/**
 * The NPI lookup buckets of the process (data-contracts/layout.ts, `npi` objects; format:
 * `platform/npi-index/format.ts`). On a bucket's first use in the process, its gzipped object (fetched to local
 * disk by the snapshot cache) is unzipped ONCE to a sibling file (`<file>.raw`, written under a temporary name and
 * renamed, so a crash never leaves a half file in use), which is then opened: a lookup is a binary search over the
 * bucket's fixed-width directory through a block cache (hot directory blocks stay in memory) and one exact-length
 * positional read of the record, then one `JSON.parse`. The records are read through the page cache, never held
 * in the process.
 *
 * Memory does not grow with the buckets touched: at most {@link MAX_OPEN_NPI_BUCKETS} files are open (least
 * recently used closed first; the Lambda's limit is 1,024 descriptors and identity partitions hold some too), the
 * block cache holds {@link NPI_BLOCK_CACHE_BLOCKS} blocks (4 MB, part of the native reserve of
 * data-contracts/memory-budget.ts), and at most {@link MAX_NPI_BUCKET_LOADS} unzips run at once. A closed bucket
 * reopens from its unzipped file, without a second unzip. Local disk is bounded too: the unzipped files used by the
 * process take at most {@link DEFAULT_NPI_RAW_BYTES} by default (least recently used deleted first).
 *
 * One cache serves every snapshot of the process (keys hold the snapshot id); `forget` closes a released
 * snapshot's files (its folder, unzipped files included, is deleted by the snapshot cache).
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { NpiLookupLine } from '../../data-contracts/layout';
import { BlockCache, FileSource } from '../../platform/identity-index/byte-source';
import { InFlight } from '../../platform/in-flight';
import { NpiIndexReader } from '../../platform/npi-index/reader';

const gunzipAsync = promisify(gunzip);

/**
 * Bucket unzips running at once, at most: a batch of 100 NPIs on every connection must not unzip hundreds of
 * buckets side by side (memory grows with them); the rest wait their turn.
 */
export const MAX_NPI_BUCKET_LOADS = 4;
/** Bucket files open at most (one descriptor each). */
export const MAX_OPEN_NPI_BUCKETS = 256;
/** Blocks of the NPI block cache: 4 MB of directory blocks (a national bucket's directory is 16 KB). */
export const NPI_BLOCK_CACHE_BLOCKS = 256;

/**
 * Bytes of unzipped bucket files kept on local disk at most by default (least recently used deleted first; a
 * deleted bucket is unzipped again on its next use). A national snapshot's buckets are about 4.8 GB unzipped, more
 * than the API Lambda's `/tmp` holds beside the identity indexes (README, "Memory and sizing").
 */
export const DEFAULT_NPI_RAW_BYTES = 1024 * 1024 * 1024;

/** Unzips the gzipped bucket `gz` into the file `raw`. */
export type UnzipBucket = (gz: string, raw: string) => Promise<void>;

/** The default {@link UnzipBucket}: read, gunzip (off the main thread), write to a temporary name, rename. */
export const unzipBucket: UnzipBucket = async (gz, raw) => {
  const body = await gunzipAsync(await readFile(gz));
  const temp = `${raw}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, body);
    await rename(temp, raw);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
};

export interface NpiBucketsOptions {
  /** Bucket files open at most. Default {@link MAX_OPEN_NPI_BUCKETS}. */
  maxOpenFiles?: number;
  /** Bytes of unzipped files kept on disk at most. Default {@link DEFAULT_NPI_RAW_BYTES}. */
  maxRawBytes?: number;
  /** Blocks of the block cache. Default {@link NPI_BLOCK_CACHE_BLOCKS}. */
  blockCacheBlocks?: number;
  /** Unzips a bucket (tests observe the unzips through it). Default {@link unzipBucket}. */
  unzip?: UnzipBucket;
}

interface OpenBucket {
  readonly file: FileSource;
  readonly reader: NpiIndexReader;
}

export class NpiBuckets {
  /** Open buckets, least recently used first. */
  private readonly open = new Map<string, OpenBucket>();
  private readonly opening = new InFlight<string, OpenBucket>();
  private readonly blocks: BlockCache;
  private readonly maxOpenFiles: number;
  /** The unzipped files this process uses, least recently used first, and their bytes: bounded by maxRawBytes. */
  private readonly unzipped = new Map<string, { raw: string; bytes: number }>();
  private rawBytes = 0;
  private readonly maxRawBytes: number;
  private readonly unzip: UnzipBucket;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(options: NpiBucketsOptions = {}) {
    this.maxOpenFiles = Math.max(1, options.maxOpenFiles ?? MAX_OPEN_NPI_BUCKETS);
    this.maxRawBytes = Math.max(0, options.maxRawBytes ?? DEFAULT_NPI_RAW_BYTES);
    this.blocks = new BlockCache(options.blockCacheBlocks ?? NPI_BLOCK_CACHE_BLOCKS);
    this.unzip = options.unzip ?? unzipBucket;
  }

  /**
   * The record of `npi` in bucket object `key`, whose local (gzipped) file `file()` gives (downloading it if needed).
   * @example await buckets.find(key, () => files.localPath(key), '1003633876')
   */
  async find(key: string, file: () => Promise<string>, npi: string): Promise<NpiLookupLine | null> {
    for (;;) {
      const held = this.open.get(key);
      if (held !== undefined) {
        this.open.delete(key);
        this.open.set(key, held);
        this.touchRaw(key);
        return held.reader.find(npi);
      }
      const opened = await this.opening.run(key, () => this.load(key, file));
      // Closed meanwhile (pushed out by other opens, or forgotten) only if many buckets opened in between: again.
      if (this.open.get(key) === opened) return opened.reader.find(npi);
    }
  }

  /** Closes the buckets whose key starts with `prefix` (a released snapshot's). */
  forget(prefix: string): void {
    for (const [key, bucket] of [...this.open]) {
      if (key.startsWith(prefix)) this.close(key, bucket);
    }
    // Their files go with the snapshot's folder.
    for (const [key, file] of [...this.unzipped]) {
      if (key.startsWith(prefix)) {
        this.unzipped.delete(key);
        this.rawBytes -= file.bytes;
      }
    }
  }

  /** The open buckets, least recently used first, and the bytes of the block cache (tests, logs). */
  stats(): { open: string[]; blockBytes: number; unzipped: string[]; rawBytes: number } {
    return {
      open: [...this.open.keys()],
      blockBytes: this.blocks.bytes,
      unzipped: [...this.unzipped.keys()],
      rawBytes: this.rawBytes,
    };
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

  private async load(key: string, file: () => Promise<string>): Promise<OpenBucket> {
    const gz = await file();
    const raw = `${gz}.raw`;
    // Unzipped by this process before (the bucket was closed since) or by an earlier one (a warm Lambda's /tmp):
    // opened at once, else unzipped first.
    let source = openIfPresent(raw, this.blocks);
    if (source === null) {
      await this.limited(() => this.unzip(gz, raw));
      source = new FileSource(raw, this.blocks);
    }
    let reader: NpiIndexReader;
    try {
      reader = NpiIndexReader.open(source);
    } catch (err) {
      source.close();
      // Not kept: the next lookup unzips the object again.
      await rm(raw, { force: true });
      throw new Error(`NPI bucket ${key} is unreadable`, { cause: err });
    }
    const bucket = { file: source, reader };
    this.keepRaw(key, raw, source.size);
    this.open.set(key, bucket);
    for (const [old, held] of this.open) {
      if (this.open.size <= this.maxOpenFiles) break;
      this.close(old, held);
    }
    return bucket;
  }

  private touchRaw(key: string): void {
    const file = this.unzipped.get(key);
    if (file === undefined) return;
    this.unzipped.delete(key);
    this.unzipped.set(key, file);
  }

  /** Records the unzipped file of `key`; deletes the least recently used others past the disk budget. */
  private keepRaw(key: string, raw: string, bytes: number): void {
    const known = this.unzipped.get(key);
    if (known !== undefined) this.rawBytes -= known.bytes;
    this.unzipped.delete(key);
    this.unzipped.set(key, { raw, bytes });
    this.rawBytes += bytes;
    for (const [old, file] of this.unzipped) {
      if (this.rawBytes <= this.maxRawBytes || old === key) break;
      this.unzipped.delete(old);
      this.rawBytes -= file.bytes;
      const open = this.open.get(old);
      if (open !== undefined) this.close(old, open);
      // Deleted in the background; an open descriptor elsewhere keeps its bytes readable until closed.
      rm(file.raw, { force: true }).catch(() => {});
    }
  }

  private close(key: string, bucket: OpenBucket): void {
    this.open.delete(key);
    bucket.file.close();
  }
}

/** The file `raw` opened, or null when it does not exist. */
function openIfPresent(raw: string, blocks: BlockCache): FileSource | null {
  try {
    return new FileSource(raw, blocks);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
