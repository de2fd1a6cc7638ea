/**
 * An object of the object store read in place: byte ranges fetched on demand, every block verified against the
 * object's block digests (./block-digests.ts) before it is used, kept in a bounded block cache (memory) and, when
 * there is room, in a sparse local file (`/tmp` on Lambda) for the instance's life.
 *
 * The index readers (platform/identity-index, search-index, npi-index) read synchronously through a byte source. A
 * read of a block that is not here yet throws {@link MissingBlocks}; `readInPlace` (./read-in-place.ts) catches it,
 * fetches the missing blocks (one ranged GET per run of adjacent blocks, all runs at once, concurrent fetches of a
 * block shared), and runs the read again. A read is a pure function of the bytes, so running it again is safe, and each
 * round is one trip to the store: a lookup costs as many trips as it has dependent reads (docs/read-in-place.md).
 * A reader that knows its next reads up front (a page's records and names) asks for them at once with
 * {@link RangedObject.need}, so that they come in one round.
 */
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { BLOCKS_PER_FILE, newFileKey } from '../binary/block-cache';
import { SlicedSource } from '../binary/byte-source';
import { InFlight } from '../in-flight';
import { type BlockDigests, type ByteRange, IntegrityError } from './block-digests';
import { MissingBlocks } from './read-in-place';
import type { RangedStorage } from './storage';

/** Bytes of one ranged GET at most: longer runs of missing blocks are split and fetched side by side. */
export const MAX_RANGE_BYTES = 1024 * 1024;
/** Reads bytes `[offset, offset + length)` of an object of the store. */
export type FetchRange = (offset: number, length: number) => Promise<Buffer>;

/** One object of the store read in place (see the module comment). */
export class RangedObject extends SlicedSource {
  readonly size: number;
  private readonly fileKey = newFileKey();
  private readonly blockBytes: number;
  /** The blocks of the prefetch ranges (the formats' headers and directories): held while the object is open. */
  private readonly pinned = new Map<number, Buffer>();
  private readonly fetches = new InFlight<number, Buffer>();
  /** Blocks held for reads in progress (`readInPlace`), with the count of reads holding each. */
  private readonly held = new Map<number, { block: Buffer; holds: number }>();
  /** Blocks written to the local file. */
  private readonly onDisk: Uint8Array;
  private diskFile: { path: string; fd: number } | null = null;
  private diskBytes = 0;
  private closed = false;

  /**
   * `fetchRange` reads the object's bytes (the object store's ranged GET); `digests` are its verified block
   * digests; `diskPath` names its local file (created on first write).
   */
  constructor(
    readonly key: string,
    private readonly digests: BlockDigests,
    private readonly fetchRange: FetchRange,
    private readonly storage: RangedStorage,
    private readonly diskPath: string | null,
  ) {
    super();
    this.size = digests.header.object_bytes;
    this.blockBytes = digests.blockBytes;
    this.onDisk = new Uint8Array(digests.blocks);
  }

  /** Fetches the prefetch ranges of the digests and holds them while open: once per instance and object. */
  async open(): Promise<void> {
    for (const [index, block] of await this.fetch(this.blocksOf(this.digests.header.prefetch))) {
      this.pinned.set(index, block);
    }
  }

  /**
   * Takes bytes fetched before the digests were known (the object's head, fetched beside them): each whole block
   * in them that matches its digest is kept and pinned; the others are left to be fetched (and checked) again.
   */
  offer(offset: number, bytes: Buffer): void {
    if (offset % this.blockBytes !== 0) return;
    const first = offset / this.blockBytes;
    for (let i = first; (i - first) * this.blockBytes < bytes.length && i < this.digests.blocks; i += 1) {
      const at = (i - first) * this.blockBytes;
      const block = bytes.subarray(at, at + this.digests.lengthOf(i));
      if (!this.digests.verify(i, block)) continue;
      const kept = Buffer.from(block);
      this.pinned.set(i, kept);
      this.writeToDisk(i, kept);
    }
  }

  slice(offset: number, length: number): Buffer {
    this.check(offset, length);
    if (length === 0) return Buffer.alloc(0);
    const first = Math.floor(offset / this.blockBytes);
    const last = Math.floor((offset + length - 1) / this.blockBytes);
    if (first === last) {
      const block = this.blockOrThrow(first);
      const at = offset - first * this.blockBytes;
      return block.subarray(at, at + length);
    }
    const parts: Buffer[] = [];
    const missing: number[] = [];
    for (let i = first; i <= last; i += 1) {
      const block = this.available(i);
      if (block === undefined) missing.push(i);
      else parts.push(block);
    }
    if (missing.length > 0) throw new MissingBlocks(this, missing);
    const out = Buffer.allocUnsafe(length);
    let written = 0;
    for (let k = 0; k < parts.length; k += 1) {
      const block = parts[k] as Buffer;
      const start = k === 0 ? offset - first * this.blockBytes : 0;
      const end = Math.min(block.length, start + (length - written));
      written += block.copy(out, written, start, end);
    }
    return out;
  }

  /** Throws {@link MissingBlocks} with every block of `ranges` that is not here: a reader's next reads, in one round. */
  need(ranges: readonly ByteRange[]): void {
    const missing = this.blocksOf(ranges).filter((i) => this.available(i) === undefined);
    if (missing.length > 0) throw new MissingBlocks(this, missing);
  }

  /**
   * Fetches and verifies `blocks` (runs of adjacent blocks in one GET each, all at once); resolves with the blocks
   * (those already here included).
   */
  async fetch(blocks: readonly number[]): Promise<Map<number, Buffer>> {
    const out = new Map<number, Buffer>();
    const waits: Promise<void>[] = [];
    const maxRun = Math.max(1, Math.floor(MAX_RANGE_BYTES / this.blockBytes));
    let run: number[] = [];
    const flush = () => {
      if (run.length === 0) return;
      const indexes = run;
      run = [];
      let started: Promise<Map<number, Buffer>> | null = null;
      for (const i of indexes) {
        const one = this.fetches.run(i, async () => {
          started ??= this.fetchRun(indexes);
          return (await started).get(i) as Buffer;
        });
        waits.push(one.then((block) => void out.set(i, block)));
      }
    };
    for (const i of [...new Set(blocks)].sort((a, b) => a - b)) {
      const here = this.available(i);
      if (here !== undefined) {
        out.set(i, here);
        continue;
      }
      if (this.fetches.has(i)) {
        flush();
        waits.push(this.fetches.run(i, () => Promise.reject(new Error('unreachable'))).then((b) => void out.set(i, b)));
        continue;
      }
      const previous = run[run.length - 1];
      if (previous !== undefined && (previous + 1 !== i || run.length >= maxRun)) flush();
      run.push(i);
    }
    flush();
    await Promise.all(waits);
    return out;
  }

  /** Holds `blocks` for a read in progress (they stay here whatever the caches evict). */
  hold(blocks: Map<number, Buffer>): void {
    for (const [i, block] of blocks) {
      const entry = this.held.get(i);
      if (entry === undefined) this.held.set(i, { block, holds: 1 });
      else entry.holds += 1;
    }
  }

  /** Lets go of blocks {@link hold} took. */
  release(blocks: Map<number, Buffer>): void {
    for (const i of blocks.keys()) {
      const entry = this.held.get(i);
      if (entry === undefined) continue;
      entry.holds -= 1;
      if (entry.holds <= 0) this.held.delete(i);
    }
  }

  /** Closes the object: its blocks leave the cache, its local file is deleted. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.pinned.clear();
    this.held.clear();
    this.storage.cache.dropFile(this.fileKey);
    if (this.diskFile !== null) {
      closeSync(this.diskFile.fd);
      rmSync(this.diskFile.path, { force: true });
      this.diskFile = null;
    }
    this.storage.disk.give(this.diskBytes);
    this.diskBytes = 0;
  }

  /** One GET for blocks `indexes` (adjacent), verified block by block; a mismatch is fetched once more. */
  private async fetchRun(indexes: readonly number[]): Promise<Map<number, Buffer>> {
    const first = indexes[0] as number;
    const last = indexes[indexes.length - 1] as number;
    const offset = first * this.blockBytes;
    const length = Math.min(this.size, (last + 1) * this.blockBytes) - offset;
    for (let attempt = 0; ; attempt += 1) {
      const bytes = await this.fetchRange(offset, length);
      const bad = bytes.length !== length ? first : this.digests.firstMismatch(bytes, first);
      if (bad === null) return this.keep(bytes, first, last);
      if (attempt >= 1) {
        throw new IntegrityError(this.key, `block ${bad} does not match its digest (fetched twice)`);
      }
    }
  }

  /** Puts verified blocks in the memory cache and, when there is room, in the local file; returns them. */
  private keep(bytes: Buffer, first: number, last: number): Map<number, Buffer> {
    const out = new Map<number, Buffer>();
    for (let i = first; i <= last; i += 1) {
      const at = (i - first) * this.blockBytes;
      // A copy per block: a block must not hold the whole response's memory once its neighbours are evicted.
      const block = Buffer.from(bytes.subarray(at, at + this.digests.lengthOf(i)));
      out.set(i, block);
      if (this.closed) continue;
      this.storage.cache.set(this.cacheKey(i), block);
      this.writeToDisk(i, block);
    }
    return out;
  }

  private writeToDisk(index: number, block: Buffer): void {
    if (this.diskPath === null || this.onDisk[index] === 1) return;
    if (!this.storage.disk.take(block.length)) return;
    try {
      if (this.diskFile === null) this.diskFile = { path: this.diskPath, fd: openSync(this.diskPath, 'w+') };
      writeSync(this.diskFile.fd, block, 0, block.length, index * this.blockBytes);
      this.onDisk[index] = 1;
      this.diskBytes += block.length;
    } catch {
      // A full or missing /tmp: the block stays in memory only.
      this.storage.disk.give(block.length);
    }
  }

  /** Block `index` from memory or the local file, or undefined when it must be fetched. */
  private available(index: number): Buffer | undefined {
    const pinned = this.pinned.get(index) ?? this.held.get(index)?.block;
    if (pinned !== undefined) return pinned;
    const cached = this.storage.cache.get(this.cacheKey(index));
    if (cached !== undefined) return cached;
    if (this.onDisk[index] !== 1 || this.diskFile === null) return undefined;
    const block = Buffer.allocUnsafe(this.digests.lengthOf(index));
    let done = 0;
    while (done < block.length) {
      const n = readSync(this.diskFile.fd, block, done, block.length - done, index * this.blockBytes + done);
      if (n === 0) return undefined;
      done += n;
    }
    this.storage.cache.set(this.cacheKey(index), block);
    return block;
  }

  private blockOrThrow(index: number): Buffer {
    const block = this.available(index);
    if (block === undefined) throw new MissingBlocks(this, [index]);
    return block;
  }

  private blocksOf(ranges: readonly ByteRange[]): number[] {
    const blocks: number[] = [];
    for (const [offset, length] of ranges) {
      if (length <= 0) continue;
      this.check(offset, length);
      const last = Math.floor((offset + length - 1) / this.blockBytes);
      for (let i = Math.floor(offset / this.blockBytes); i <= last; i += 1) blocks.push(i);
    }
    return blocks;
  }

  private cacheKey(index: number): number {
    return this.fileKey * BLOCKS_PER_FILE + index;
  }

  private check(offset: number, length: number): void {
    if (this.closed) throw new Error(`${this.key} is closed`);
    if (offset < 0 || length < 0 || offset + length > this.size) {
      throw new RangeError(`read outside ${this.key}: ${offset}+${length}`);
    }
  }
}
