/**
 * What the process's ranged objects (./ranged-object.ts) stand on: one block cache in memory and a bounded share
 * of local disk.
 */
import { BlockCache } from '../binary/block-cache';
import { DIGEST_BLOCK_BYTES } from './block-digests';

/**
 * Local disk for verified blocks, shared by every ranged object of the process: at most `limitBytes` (0: none; each
 * object's blocks go to the file its owner names). When full, blocks stay in memory only (the disk is a second
 * chance, never a requirement).
 */
export class DiskBlocks {
  usedBytes = 0;

  constructor(readonly limitBytes: number) {}

  /** Takes room for `bytes`; false when there is none. */
  take(bytes: number): boolean {
    if (this.usedBytes + bytes > this.limitBytes) return false;
    this.usedBytes += bytes;
    return true;
  }

  give(bytes: number): void {
    this.usedBytes = Math.max(0, this.usedBytes - bytes);
  }
}

/** What a {@link RangedObject} stands on: the process's memory cache and local disk. */
export interface RangedStorage {
  cache: BlockCache;
  disk: DiskBlocks;
}

/** Bytes of verified blocks held in memory by default: 64 MB, part of the native reserve (data-contracts). */
export const RANGED_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * A process's storage for ranged reads: `cacheBytes` of memory and up to `diskBytes` (default none) of
 * local disk.
 */
export function createRangedStorage(options: { cacheBytes?: number; diskBytes?: number } = {}): RangedStorage {
  const blocks = Math.max(16, Math.floor((options.cacheBytes ?? RANGED_CACHE_BYTES) / DIGEST_BLOCK_BYTES));
  return {
    cache: new BlockCache(blocks),
    disk: new DiskBlocks(options.diskBytes ?? 0),
  };
}
