/**
 * Where an index reader gets its bytes: the whole file in memory, or positional reads of the local file (the
 * operating system's page cache then holds the hot parts, outside the process's budget).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export interface ByteSource {
  readonly size: number;
  /** `length` bytes at `offset`: a view of the memory, or a fresh buffer read from the file. */
  slice(offset: number, length: number): Buffer;
  /** The u32 (little-endian) at `offset`. */
  u32(offset: number): number;
  /** `Buffer.compare(bytes at offset, needle)`: -1, 0 or 1, without a view of the bytes. */
  compareAt(offset: number, length: number, needle: Buffer): number;
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

  u32(offset: number): number {
    return this.buffer.readUInt32LE(offset);
  }

  compareAt(offset: number, length: number, needle: Buffer): number {
    return -needle.compare(this.buffer, offset, offset + length);
  }
}

/**
 * A local file read with positional reads (`pread`), synchronously: an index read is a few small reads of a file
 * on local disk, usually in the page cache, cheaper than a trip through the thread pool.
 */
export class FileSource implements ByteSource {
  readonly size: number;
  private readonly word = Buffer.alloc(4);
  private fd: number | null;

  constructor(file: string) {
    this.fd = openSync(file, 'r');
    this.size = fstatSync(this.fd).size;
  }

  slice(offset: number, length: number): Buffer {
    const out = Buffer.allocUnsafe(length);
    this.readInto(out, offset);
    return out;
  }

  u32(offset: number): number {
    this.readInto(this.word, offset);
    return this.word.readUInt32LE(0);
  }

  compareAt(offset: number, length: number, needle: Buffer): number {
    return Buffer.compare(this.slice(offset, length), needle);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private readInto(out: Buffer, offset: number): void {
    if (this.fd === null) throw new Error('index file is closed');
    if (offset < 0 || offset + out.length > this.size) {
      throw new RangeError(`read outside the index: ${offset}+${out.length}`);
    }
    let done = 0;
    while (done < out.length) {
      const n = readSync(this.fd, out, done, out.length - done, offset + done);
      if (n === 0) throw new Error('index file ended early');
      done += n;
    }
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

  u32(offset: number): number {
    return offset + 4 <= this.head.length ? this.head.readUInt32LE(offset) : this.rest.u32(offset);
  }

  compareAt(offset: number, length: number, needle: Buffer): number {
    return offset + length <= this.head.length
      ? -needle.compare(this.head, offset, offset + length)
      : this.rest.compareAt(offset, length, needle);
  }
}
