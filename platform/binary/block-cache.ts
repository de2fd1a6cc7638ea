/**
 * The block cache of the process's index reads: fixed blocks of local files (./file-source.ts) and of objects read in
 * place (platform/ranged), each keyed by its file and its position.
 */

/** Bytes of one cached block of a file source. */
export const FILE_BLOCK_BYTES = 16 * 1024;

/**
 * Recently read blocks of index files, shared by every file source of the process and bounded by a count of
 * blocks: a page's reads (a posting slice, 50 to 1,000 records of 32 bytes, their names) and a binary search's probes
 * fall in a few blocks, so they cost a few `pread`s instead of one per value.
 *
 * Eviction is CLOCK (second chance), an approximation of least recently used: a hit only marks its block as used,
 * and a miss over capacity walks from the oldest block, moving used ones to the back (unmarked) and dropping the
 * first unused one. A hit is a map lookup, not the delete and re-insert of an exact LRU, which a binary search would
 * pay on every probe (its share of a roster lookup's CPU is in docs/performance.md).
 *
 * An evicted block's memory is reused for the next miss ({@link take}), so that a miss is one `pread` into memory
 * the process already has, not a new 16 KB allocation: under spread traffic misses allocated blocks faster than the
 * young generation could hold them, and the collector's work showed in the query's CPU. This is safe because no
 * block leaves its source: its reads copy out of the blocks.
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
export const BLOCKS_PER_FILE = 2 ** 26;
let nextFileKey = 1;

/** A new file key of the process's block caches (block keys are `file * 2^26 + block`). */
export function newFileKey(): number {
  const key = nextFileKey;
  nextFileKey += 1;
  return key;
}

/** Blocks of a server's block cache: 4 MB, part of the native reserve (data-contracts/memory-budget.ts). */
export const BLOCK_CACHE_BLOCKS = 256;

/**
 * The default block cache of a file source built without one (tools, tests). The API's runtime owns its
 * own (`lambdas/query/identity-partitions.ts`).
 */
export const SHARED_BLOCK_CACHE = new BlockCache(BLOCK_CACHE_BLOCKS);
