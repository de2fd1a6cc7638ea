/**
 * A local index file read with positional reads through the process's block cache (./block-cache.ts), each block
 * verified on its first read when the file has block digests.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { BLOCKS_PER_FILE, type BlockCache, FILE_BLOCK_BYTES, newFileKey, SHARED_BLOCK_CACHE } from './block-cache';
import type { ByteSource } from './byte-source';

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
