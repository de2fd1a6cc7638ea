/**
 * Where an index reader gets its bytes: the whole file in memory ({@link BufferSource}), its head in memory and the
 * rest elsewhere ({@link HeadInMemorySource}), positional reads of the local file (./file-source.ts: the operating
 * system's page cache then holds the hot parts, outside the process's budget), or verified ranges of a stored object
 * (platform/ranged).
 */

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

/**
 * A file whose head (the index's meta region: everything a lookup reads, see platform/identity-index/format.ts) is held
 * in memory and the rest read positionally: a page then costs a few reads (its posting slice, records and names), not
 * one per probe of a binary search.
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
