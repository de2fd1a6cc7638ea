/**
 * An in-memory fence over a sorted section of fixed-width entries (the OIG entries of the identity and search
 * indexes): the key of every {@link RUN_FENCE_EVERY}-th entry, so that finding an entry reads the one run of entries
 * that can hold its key, with one small read past the block cache, where a binary search over the whole section
 * read a 16 KB block per probe. It is built from one read of the section on the first lookup and costs 8 bytes per run.
 *
 * @example
 * const fence = new RunFence(sections.oig, 20, (entries, at) => entries.readUInt32LE(at));
 * fence.find(source, record); // the entry's bytes, or null
 */
import { findSorted, lowerBound } from './binary-search';
import type { ByteSource } from './byte-source';

/** Entries per run: 32 entries of 20 or 24 bytes lie in one or two pages of a file. */
export const RUN_FENCE_EVERY = 32;

export class RunFence {
  private keys: Float64Array | null = null;
  private readonly count: number;

  /**
   * `section` is `[offset, length]` of the entries, sorted by the key `keyAt` reads at byte `at` of a buffer of them
   * (a number: a record number, or an NPI's value).
   */
  constructor(
    private readonly section: readonly [offset: number, length: number],
    private readonly entryBytes: number,
    private readonly keyAt: (entries: Buffer, at: number) => number,
  ) {
    this.count = Math.floor(section[1] / entryBytes);
  }

  /** The bytes of the entry whose key is `key`, or null when there is none. */
  find(source: ByteSource, key: number): Buffer | null {
    const keys = this.keys ?? this.readKeys(source);
    const run = lowerBound(0, keys.length, (k) => (keys[k] as number) <= key) - 1;
    if (run < 0) return null;
    const from = run * RUN_FENCE_EVERY;
    const count = Math.min(this.count, from + RUN_FENCE_EVERY) - from;
    const { entryBytes, keyAt } = this;
    const entries = source.read(this.section[0] + from * entryBytes, count * entryBytes);
    const i = findSorted(0, count, (probe) => keyAt(entries, probe * entryBytes) - key);
    return i < 0 ? null : entries.subarray(i * entryBytes, (i + 1) * entryBytes);
  }

  private readKeys(source: ByteSource): Float64Array {
    const entries = source.read(this.section[0], this.count * this.entryBytes);
    const keys = new Float64Array(Math.ceil(this.count / RUN_FENCE_EVERY));
    for (let k = 0; k < keys.length; k += 1) keys[k] = this.keyAt(entries, k * RUN_FENCE_EVERY * this.entryBytes);
    this.keys = keys;
    return keys;
  }
}
