/**
 * Reading in place: a read of objects of the store runs synchronously over the blocks that are here, throws
 * {@link MissingBlocks} naming those that are not, and {@link readInPlace} fetches them and runs it again (the
 * objects themselves: ./ranged-object.ts).
 */

/** Rounds of one read at most: a reader that still misses blocks after this many is broken, not slow. */
export const MAX_ROUNDS = 64;

/** What {@link readInPlace} asks of an object whose read missed blocks (a RangedObject, ./ranged-object.ts). */
export interface BlockFetcher {
  readonly key: string;
  /** Fetches and verifies `blocks`; resolves with them. */
  fetch(blocks: readonly number[]): Promise<Map<number, Buffer>>;
  /** Holds `blocks` for a read in progress. */
  hold(blocks: Map<number, Buffer>): void;
  /** Lets go of blocks {@link hold} took. */
  release(blocks: Map<number, Buffer>): void;
}

/** A read needs blocks that are not here yet: fetch them (`object.fetch`) and run the read again. */
export class MissingBlocks extends Error {
  override readonly name = 'MissingBlocks';

  constructor(
    readonly object: BlockFetcher,
    readonly blocks: number[],
  ) {
    super(`${blocks.length} blocks of ${object.key} are not here yet`);
  }
}

/**
 * Runs `work` (synchronous reads of ranged objects) until it completes, fetching the blocks it misses between runs.
 * @example const result = await readInPlace(() => reader.query(q));
 */
export async function readInPlace<T>(work: () => T): Promise<T> {
  // The blocks fetched for this read are held until it completes: a read may need more blocks than the caches
  // hold, and must not lose the first ones while it fetches the last.
  const held: { object: BlockFetcher; blocks: Map<number, Buffer> }[] = [];
  try {
    for (let round = 0; ; round += 1) {
      try {
        return work();
      } catch (err) {
        if (!(err instanceof MissingBlocks) || round >= MAX_ROUNDS) throw err;
        const blocks = await err.object.fetch(err.blocks);
        err.object.hold(blocks);
        held.push({ object: err.object, blocks });
      }
    }
  } finally {
    for (const { object, blocks } of held) object.release(blocks);
  }
}
