/**
 * Reusable memory for the bodies of identity list pages (about 1 KB per row: 50 KB for 50 rows, about 1 MB for
 * 1,000), on the node:http server only. A new Buffer per page made the 1,000-row query allocate hundreds of MB/s
 * of memory outside V8's heap, which V8 answers with frequent full collections, and glibc keeps much of it once freed;
 * reusing a few blocks cut that query's CPU and its p99 markedly (docs/performance.md). A lease lends a whole
 * block, so that a page longer than its estimate grows inside the block instead of into new memory: only the
 * bytes written are touched (resident). A block goes back to the pool when its response is done (the node
 * response's `close`), so it is never reused while the socket may still be writing it. The Lambda adapter reads the
 * body after the app returns, so there the pages keep their own Buffers.
 *
 * @example
 * const lease = leaseUntilClosed(pool, outgoing); // given back when the node response closes
 * const body = identityProvidersJson(rows, head, '}', lease.allocate);
 */
import type { ServerResponse } from 'node:http';

/**
 * Bytes of one block: a 1,000-row page fits with room (about 1 MB measured, more when many rows carry an OIG match
 * or long names). Untouched bytes of a block cost address space, not memory.
 */
export const BODY_BLOCK_BYTES = 2 * 1024 * 1024;
/** Free blocks kept at most (the rest go to the collector): one per connection of a busy server. */
export const MAX_FREE_BODY_BLOCKS = 16;

/** One response's use of the pool. */
export interface BodyLease {
  /**
   * Memory for a body of at least `bytes`: a whole pooled block when it fits (once per lease; the caller writes
   * what it needs and sends that part), else a new Buffer of exactly `bytes`.
   */
  allocate(bytes: number): Buffer;
  /** Gives the block back; call when the response is done. Idempotent. */
  release(): void;
}

export class BodyPool {
  private readonly free: Buffer[] = [];

  constructor(
    readonly blockBytes = BODY_BLOCK_BYTES,
    readonly maxFree = MAX_FREE_BODY_BLOCKS,
  ) {}

  /** Free blocks held (tests). */
  get freeBlocks(): number {
    return this.free.length;
  }

  lease(): BodyLease {
    let block: Buffer | null = null;
    let released = false;
    return {
      allocate: (bytes) => {
        if (block !== null || released || bytes > this.blockBytes) return Buffer.allocUnsafe(bytes);
        block = this.free.pop() ?? Buffer.allocUnsafeSlow(this.blockBytes);
        return block;
      },
      release: () => {
        if (released) return;
        released = true;
        if (block !== null && this.free.length < this.maxFree) this.free.push(block);
        block = null;
      },
    };
  }
}

/**
 * A lease of `pool` given back when `response` is done (its `close`: written in full, or the connection gone), so
 * that its block is never reused while the socket may still be writing it.
 */
export function leaseUntilClosed(pool: BodyPool, response: ServerResponse): BodyLease {
  const lease = pool.lease();
  response.once('close', lease.release);
  return lease;
}
