/**
 * Where an index reader gets its bytes: the whole file in memory, or positional reads of the local file (the
 * operating system's page cache then holds the hot parts, outside the process's budget).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export interface ByteSource {
  readonly size: number;
  /** `length` bytes at `offset`: a view of the memory, or a fresh buffer read from the file. */
  slice(offset: number, length: number): Buffer;
  /**
   * `length` bytes at `offset`, read once past any block cache (a file's bytes with one exact-length `pread`): for
   * bytes read once, such as one NPI record, which would only push hot blocks out of the cache.
   */
  read(offset: number, length: number): Buffer;
  /** The u32 (little-endian) at `offset`. */
  u32(offset: number): number;
  /**
   * Says which ranges the reader reads next, so that a source that fetches them (platform/ranged) fetches them in
   * one round; sources that hold their bytes ignore it.
   */
  need?(ranges: readonly (readonly [offset: number, length: number])[]): void;
  /** `Buffer.compare(bytes at offset, needle)`: -1, 0 or 1, without a view of the bytes. */
  compareAt(offset: number, length: number, needle: Buffer): number;
}

/** A source whose reads all go through {@link slice} (a view or a copy of the bytes). */
export abstract class SlicedSource implements ByteSource {
  abstract readonly size: number;
  abstract slice(offset: number, length: number): Buffer;

  read(offset: number, length: number): Buffer {
    return this.slice(offset, length);
  }

  u32(offset: number): number {
    return this.slice(offset, 4).readUInt32LE(0);
  }

  compareAt(offset: number, length: number, needle: Buffer): number {
    return Buffer.compare(this.slice(offset, length), needle);
  }
}

/** A file held in memory. */
export class BufferSource implements ByteSource {
  readonly size: number;

  constructor(private readonly buffer: Buffer) {
    this.size = buffer.length;
  }

  slice(offset: number, length: number): Buffer {
    if (offset < 0 || offset + length > this.size) throw new RangeError(`read outside the index: ${offset}+${length}`);
    return this.buffer.subarray(offset, offset + length);
  }

  read(offset: number, length: number): Buffer {
    return this.slice(offset, length);
  }

  u32(offset: number): number {
    return this.buffer.readUInt32LE(offset);
  }

  compareAt(offset: number, length: number, needle: Buffer): number {
    return -needle.compare(this.buffer, offset, offset + length);
  }
}

/** Bytes of one cached block of a {@link FileSource}. */
export const FILE_BLOCK_BYTES = 16 * 1024;

/**
 * Recently read blocks of index files, shared by every {@link FileSource} of the process and bounded by a count of
 * blocks: a page's reads (a posting slice, 50 to 1,000 records of 32 bytes, their names) and a binary search's probes
 * fall in a few blocks, so they cost a few `pread`s instead of one per value.
 *
 * Eviction is CLOCK (second chance), an approximation of least recently used: a hit only marks its block as used,
 * and a miss over capacity walks from the oldest block, moving used ones to the back (unmarked) and dropping the
 * first unused one. A hit is a map lookup, not the delete and re-insert of an exact LRU, which a binary search pays
 * on every probe (12% of a roster lookup's CPU, profiled).
 *
 * An evicted block's memory is reused for the next miss ({@link take}), so that a miss is one `pread` into memory
 * the process already has, not a new 16 KB allocation: under spread traffic misses allocated blocks faster than the
 * young generation could hold them (9% of query b's CPU in garbage collection, 5% in allocation, profiled). This is
 * safe because no block leaves its {@link FileSource}: its reads copy out of the blocks.
 */
export class BlockCache {
  private readonly blocks = new Map<number, { block: Buffer; used: boolean }>();
  /** Evicted whole blocks, ready for reuse. */
  private readonly spare: Buffer[] = [];

  constructor(readonly capacity: number) {}

  /** A whole block's memory to read a missed block into: an evicted block's, else a new one. */
  take(): Buffer {
    return this.spare.pop() ?? Buffer.allocUnsafeSlow(FILE_BLOCK_BYTES);
  }

  get(key: number): Buffer | undefined {
    const entry = this.blocks.get(key);
    if (entry === undefined) return undefined;
    entry.used = true;
    return entry.block;
  }

  set(key: number, block: Buffer): void {
    this.blocks.set(key, { block, used: false });
    while (this.blocks.size > this.capacity) {
      const [oldest, entry] = this.blocks.entries().next().value as [number, { block: Buffer; used: boolean }];
      this.blocks.delete(oldest);
      // A used block gets a second chance at the back, as does the block just added (when every other was used).
      if (entry.used || oldest === key) {
        entry.used = false;
        this.blocks.set(oldest, entry);
      } else {
        this.recycle(entry.block);
      }
    }
  }

  /** Drops the blocks of one file (closed, or its snapshot released). */
  dropFile(fileKey: number): void {
    for (const [key, entry] of this.blocks) {
      if (Math.floor(key / BLOCKS_PER_FILE) !== fileKey) continue;
      this.blocks.delete(key);
      this.recycle(entry.block);
    }
  }

  /** Keeps a whole block's memory for reuse (a file's shorter last block is left to the collector). */
  private recycle(block: Buffer): void {
    if (block.length === FILE_BLOCK_BYTES && this.spare.length < SPARE_BLOCKS) this.spare.push(block);
  }

  get bytes(): number {
    return this.blocks.size * FILE_BLOCK_BYTES;
  }
}

/** Evicted blocks kept for reuse, at most: misses come one at a time, so a few are enough. */
const SPARE_BLOCKS = 8;

/** Block keys are `file * BLOCKS_PER_FILE + block`: files up to 2^26 blocks (1 TiB) each, exact in a double. */
const BLOCKS_PER_FILE = 2 ** 26;
let nextFileKey = 1;

/** A new file key of the process's block caches (block keys are `file * 2^26 + block`). */
export function newFileKey(): number {
  const key = nextFileKey;
  nextFileKey += 1;
  return key;
}

/** Blocks of a server's block cache: 4 MB (README, "Memory and sizing": part of the native reserve). */
export const BLOCK_CACHE_BLOCKS = 256;

/**
 * The default block cache of a {@link FileSource} built without one (tools, tests). The API's runtime owns its
 * own (`lambdas/query/identity-partitions.ts`).
 */
export const SHARED_BLOCK_CACHE = new BlockCache(BLOCK_CACHE_BLOCKS);

/**
 * A local file read with positional reads (`pread`), synchronously, through a {@link BlockCache}: an index read is
 * a few small reads of a file on local disk, usually in the page cache, cheaper than a trip through the thread
 * pool. Reads longer than a block go to the file directly.
 */
export class FileSource implements ByteSource {
  readonly size: number;
  private readonly fileKey = newFileKey();
  private fd: number | null;
  /** Blocks already checked against `verify` (each is checked the first time it is read from the file). */
  private readonly verified: Uint8Array | null;

  /**
   * `verify`, when given, checks each block (of {@link FILE_BLOCK_BYTES}) the first time it is read from the file
   * and throws what it returns for a block that does not match (a data object with block digests,
   * platform/ranged/block-digests.ts).
   */
  constructor(
    file: string,
    private readonly cache: BlockCache = SHARED_BLOCK_CACHE,
    private readonly verify: BlockVerifier | null = null,
    /** Which blocks are verified already, kept by the caller across opens of the same file (one byte per block). */
    verified?: Uint8Array,
  ) {
    this.fd = openSync(file, 'r');
    this.size = fstatSync(this.fd).size;
    const blocks = Math.ceil(this.size / FILE_BLOCK_BYTES);
    this.verified = verify === null ? null : verified?.length === blocks ? verified : new Uint8Array(blocks);
  }

  slice(offset: number, length: number): Buffer {
    this.check(offset, length);
    const out = Buffer.allocUnsafe(length);
    const block = this.blockHolding(offset, length);
    if (block !== null) {
      // A copy: the block's memory is reused once it leaves the cache.
      const at = offset % FILE_BLOCK_BYTES;
      block.copy(out, 0, at, at + length);
      return out;
    }
    if (length <= FILE_BLOCK_BYTES) {
      // Straddles two blocks: copy from both.
      const first = FILE_BLOCK_BYTES - (offset % FILE_BLOCK_BYTES);
      this.blockAt(offset).copy(out, 0, offset % FILE_BLOCK_BYTES);
      this.blockAt(offset + first).copy(out, first, 0, length - first);
    } else {
      this.readInto(out, offset);
    }
    return out;
  }

  read(offset: number, length: number): Buffer {
    this.check(offset, length);
    const out = Buffer.allocUnsafe(length);
    this.readInto(out, offset);
    return out;
  }

  u32(offset: number): number {
    const block = this.blockHolding(offset, 4);
    return block !== null ? block.readUInt32LE(offset % FILE_BLOCK_BYTES) : this.slice(offset, 4).readUInt32LE(0);
  }

  compareAt(offset: number, length: number, needle: Buffer): number {
    const block = this.blockHolding(offset, length);
    if (block === null) return Buffer.compare(this.slice(offset, length), needle);
    const at = offset % FILE_BLOCK_BYTES;
    return -needle.compare(block, at, at + length);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.cache.dropFile(this.fileKey);
  }

  /** The block that holds all of `[offset, offset + length)`, or null when the range crosses a block boundary. */
  private blockHolding(offset: number, length: number): Buffer | null {
    this.check(offset, length);
    const at = offset % FILE_BLOCK_BYTES;
    return at + length <= FILE_BLOCK_BYTES ? this.blockAt(offset) : null;
  }

  private blockAt(offset: number): Buffer {
    const index = Math.floor(offset / FILE_BLOCK_BYTES);
    const key = this.fileKey * BLOCKS_PER_FILE + index;
    const known = this.cache.get(key);
    if (known !== undefined) return known;
    const start = index * FILE_BLOCK_BYTES;
    const block = this.size - start >= FILE_BLOCK_BYTES ? this.cache.take() : Buffer.allocUnsafeSlow(this.size - start);
    readFully(this.fd as number, block, start, 'index file');
    this.checkBlock(index, block);
    this.cache.set(key, block);
    return block;
  }

  /** Checks block `index` against the verifier the first time it is read (its bytes in `block`). */
  private checkBlock(index: number, block: Buffer): void {
    if (this.verified === null || this.verified[index] === 1) return;
    const error = (this.verify as BlockVerifier)(index, block);
    if (error !== null) throw error;
    this.verified[index] = 1;
  }

  private check(offset: number, length: number): void {
    if (this.fd === null) throw new Error('index file is closed');
    if (offset < 0 || length < 0 || offset + length > this.size) {
      throw new RangeError(`read outside the index: ${offset}+${length}`);
    }
  }

  private readInto(out: Buffer, offset: number): void {
    if (this.verified !== null && out.length > 0) {
      // Bytes read past the cache are verified through their blocks, each once.
      const last = Math.floor((offset + out.length - 1) / FILE_BLOCK_BYTES);
      for (let i = Math.floor(offset / FILE_BLOCK_BYTES); i <= last; i += 1) {
        if (this.verified[i] !== 1) this.blockAt(i * FILE_BLOCK_BYTES);
      }
    }
    readFully(this.fd as number, out, offset, 'index file');
  }
}

/** Checks block `index` of a file: null when it matches, else the error to throw. */
export type BlockVerifier = (index: number, block: Buffer) => Error | null;

/** Fills `out` from file descriptor `fd` at `offset` with positional reads; throws when the file ends first. */
export function readFully(fd: number, out: Buffer, offset: number, what: string): void {
  let done = 0;
  while (done < out.length) {
    const n = readSync(fd, out, done, out.length - done, offset + done);
    if (n === 0) throw new Error(`${what} ended early`);
    done += n;
  }
}

/**
 * A file whose head (the index's meta region: everything a lookup reads, see format.ts) is held in memory and the
 * rest read positionally: a page then costs a few reads (its posting slice, records and names), not one per probe
 * of a binary search.
 */
export class HeadInMemorySource implements ByteSource {
  readonly size: number;

  constructor(
    readonly head: Buffer,
    private readonly rest: ByteSource,
  ) {
    this.size = rest.size;
  }

  slice(offset: number, length: number): Buffer {
    return offset + length <= this.head.length
      ? this.head.subarray(offset, offset + length)
      : this.rest.slice(offset, length);
  }

  read(offset: number, length: number): Buffer {
    return offset + length <= this.head.length
      ? this.head.subarray(offset, offset + length)
      : this.rest.read(offset, length);
  }

  u32(offset: number): number {
    return offset + 4 <= this.head.length ? this.head.readUInt32LE(offset) : this.rest.u32(offset);
  }

  compareAt(offset: number, length: number, needle: Buffer): number {
    return offset + length <= this.head.length
      ? -needle.compare(this.head, offset, offset + length)
      : this.rest.compareAt(offset, length, needle);
  }
}
