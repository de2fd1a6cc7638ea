/**
 * Reads an NPI lookup bucket (format.ts) from a {@link ByteSource}: a lookup is a binary search over the directory
 * (through the source's block cache when it is a file) and one read of exactly the record's bytes.
 */
import { findSorted } from '../binary/binary-search';
import type { ByteSource } from '../binary/byte-source';
import {
  NPI_DIGITS,
  NPI_ENTRY_BYTES,
  NPI_ENTRY_END_AT,
  NPI_INDEX_HEADER_BYTES,
  type NpiIndexVersion,
  npiIndexVersionOf,
  npiRecordsStart,
} from './format';

const TEN_DIGITS = /^[0-9]{10}$/;

export class NpiIndexReader {
  private readonly recordsAt: number;

  private constructor(
    readonly source: ByteSource,
    /** NPIs in the bucket. */
    readonly count: number,
    /** What its records are (format.ts). */
    readonly version: NpiIndexVersion,
  ) {
    this.recordsAt = npiRecordsStart(count);
  }

  /** Checks the header and the directory's bounds. Throws on a file that is not an NPI bucket of this version. */
  static open(source: ByteSource): NpiIndexReader {
    const version = source.size < NPI_INDEX_HEADER_BYTES ? null : npiIndexVersionOf(source.slice(0, 8));
    if (version === null) throw new Error('not an NPI lookup bucket of a version this code reads');
    const count = source.u32(8);
    const recordsAt = npiRecordsStart(count);
    if (recordsAt > source.size) throw new Error('NPI lookup bucket: the directory is out of bounds');
    const reader = new NpiIndexReader(source, count, version);
    if (count > 0 && recordsAt + recordSpan(source, NPI_INDEX_HEADER_BYTES, count - 1)[1] !== source.size) {
      throw new Error('NPI lookup bucket: the records do not end with the file');
    }
    return reader;
  }

  /** The record of `npi` as parsed JSON, or null when the bucket does not hold it. */
  find(npi: string): unknown {
    const bytes = this.findBytes(npi);
    return bytes === null ? null : JSON.parse(bytes.toString('utf8'));
  }

  /** The record bytes of `npi`, or null when the bucket does not hold it. */
  findBytes(npi: string): Buffer | null {
    const at = this.indexOf(npi);
    return at < 0 ? null : this.recordBytes(at);
  }

  /** The position of `npi` in the directory, or -1. */
  indexOf(npi: string): number {
    return findNpiEntry(this.source, NPI_INDEX_HEADER_BYTES, this.count, npi);
  }

  /** The NPI at directory position `i`. */
  npiAt(i: number): string {
    return this.source.slice(NPI_INDEX_HEADER_BYTES + i * NPI_ENTRY_BYTES, NPI_DIGITS).toString('latin1');
  }

  /**
   * The records of `npis` (null for an NPI not in the bucket), in order: the directory searched first, then every
   * record read, so that a source that fetches its bytes (platform/ranged) is told all of them at once.
   */
  recordsOf(npis: readonly string[]): (Buffer | null)[] {
    const at = npis.map((npi) => this.indexOf(npi));
    const ranges: [number, number][] = [];
    for (const i of at) {
      if (i < 0) continue;
      const [start, end] = recordSpan(this.source, NPI_INDEX_HEADER_BYTES, i);
      ranges.push([this.recordsAt + start, end - start]);
    }
    this.source.need?.(ranges);
    return at.map((i) => (i < 0 ? null : this.recordBytes(i)));
  }

  /** The record's JSON bytes at position `i`: one read of exactly those bytes. */
  recordBytes(i: number): Buffer {
    if (!(i >= 0 && i < this.count)) throw new RangeError(`no record ${i} in a bucket of ${this.count}`);
    const [start, end] = recordSpan(this.source, NPI_INDEX_HEADER_BYTES, i);
    return this.source.read(this.recordsAt + start, end - start);
  }
}

/**
 * The position of `npi` in a bucket directory of `count` entries at `at` of `source` (a whole bucket file, or a
 * directory held on its own), or -1: a binary search over the fixed-width entries.
 */
export function findNpiEntry(source: ByteSource, at: number, count: number, npi: string): number {
  if (!TEN_DIGITS.test(npi)) return -1;
  const target = Buffer.from(npi, 'latin1');
  return findSorted(0, count, (i) => source.compareAt(at + i * NPI_ENTRY_BYTES, NPI_DIGITS, target));
}

/** The byte range `[start, end)` of record `i` within the records section, from the directory at `at`. */
export function recordSpan(source: ByteSource, at: number, i: number): [start: number, end: number] {
  const endOf = (k: number) => source.u32(at + k * NPI_ENTRY_BYTES + NPI_ENTRY_END_AT);
  return [i === 0 ? 0 : endOf(i - 1), endOf(i)];
}

/**
 * A bucket's directory held for lookups in memory (lambdas/query/npi-buckets.ts): the directory section's bytes as
 * read (16 bytes per NPI), with no decoding. A lookup is a binary search whose probes read the ten digits of an
 * entry as a number straight from the bytes: no call into Buffer comparison per probe, and no decoding of every entry
 * when a directory is read (with uniform lookups missing the cache, decoding each directory into typed arrays
 * weighed on every lookup). Both showed in profiles (docs/performance.md).
 *
 * @example
 * const directory = NpiDirectory.of(bytesOfTheDirectorySection, count);
 * const i = directory.indexOf('1003633876'); // -1 when absent
 * const [start, end] = directory.span(i);     // the record's bytes within the records section
 */
export class NpiDirectory {
  private constructor(
    private readonly entries: Buffer,
    /** NPIs in the directory. */
    readonly count: number,
  ) {}

  /** The directory of `count` entries (format.ts) whose section `bytes` holds; keeps `bytes`, does not copy them. */
  static of(bytes: Buffer, count: number): NpiDirectory {
    if (bytes.length < count * NPI_ENTRY_BYTES) throw new RangeError('NPI directory: fewer bytes than entries');
    return new NpiDirectory(bytes.subarray(0, count * NPI_ENTRY_BYTES), count);
  }

  /** Bytes held. */
  get bytes(): number {
    return this.entries.byteLength;
  }

  /** The position of `npi` (ten digits), or -1. */
  indexOf(npi: string): number {
    if (!TEN_DIGITS.test(npi)) return -1;
    const target = Number(npi);
    const { entries } = this;
    return findSorted(0, this.count, (i) => {
      const at = i * NPI_ENTRY_BYTES;
      let value = 0;
      for (let k = 0; k < NPI_DIGITS; k += 1) value = value * 10 + ((entries[at + k] as number) - 48);
      return value - target;
    });
  }

  /** The record of position `i`: its start and end within the records section. */
  span(i: number): [start: number, end: number] {
    return [i === 0 ? 0 : this.endOf(i - 1), this.endOf(i)];
  }

  private endOf(i: number): number {
    return this.entries.readUInt32LE(i * NPI_ENTRY_BYTES + NPI_ENTRY_END_AT);
  }
}
