/**
 * Block digests: the object beside every object the API reads in place (the identity serving indexes, the search
 * indexes, the NPI buckets), written by the ETL as it publishes the object and covered by the manifest, so that
 * every range the API reads from the object store is verified before it is used (docs/read-in-place.md).
 *
 * The chain: the manifest (read whole, from the pointer) holds the SHA-256 of this object; this object holds the
 * SHA-256 of each block of the data object; a block is verified as it arrives, before anything reads it.
 *
 * Layout (little-endian; stored at `<data key>.blocks`, data-contracts/layout.ts `blockDigestsKey`):
 * ```
 * 0    "PFBLK\0\0" + version      magic (8 bytes)
 * 8    u32 H                      header length
 * 12   header JSON (H bytes)      { version, block_bytes, object_bytes, blocks, prefetch: [[offset, length], ...] }
 *      (zero padding to a multiple of 8)
 *      digests   blocks x 32 B    SHA-256 of block i = bytes [i * block_bytes, min((i + 1) * block_bytes, size))
 * ```
 * `prefetch` lists the ranges of the data object that a reader consults before any query (its header and
 * directories: the "meta" of each format), read once per instance when the object is opened.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { VersionedMagic } from '../binary/versioned-magic';

/** The bytes of one verified block: also the unit of every range read and of the API's block caches. */
export const DIGEST_BLOCK_BYTES = 16 * 1024;
/** Bytes of one block's digest (SHA-256). */
export const DIGEST_BYTES = 32;
export const BLOCK_DIGESTS_VERSION = 1 as const;

const MAGIC = new VersionedMagic('PFBLK\0\0');

/** A range of the data object: `[offset, length]`. */
export type ByteRange = readonly [offset: number, length: number];

export interface BlockDigestsHeader {
  version: typeof BLOCK_DIGESTS_VERSION;
  block_bytes: number;
  object_bytes: number;
  blocks: number;
  prefetch: ByteRange[];
}

/** A data object's bytes do not match what the snapshot's manifest says they are. */
export class IntegrityError extends Error {
  override readonly name = 'IntegrityError';

  constructor(
    readonly key: string,
    message: string,
  ) {
    super(`${key}: ${message}`);
  }
}

/** The parsed digests of one data object. */
export class BlockDigests {
  private constructor(
    readonly header: BlockDigestsHeader,
    private readonly digests: Buffer,
  ) {}

  get blockBytes(): number {
    return this.header.block_bytes;
  }

  get blocks(): number {
    return this.header.blocks;
  }

  /** The length of block `index` (the last one may be shorter). */
  lengthOf(index: number): number {
    const { block_bytes, object_bytes } = this.header;
    return Math.min(block_bytes, object_bytes - index * block_bytes);
  }

  /** True when `bytes` are block `index`'s. */
  verify(index: number, bytes: Buffer): boolean {
    if (index < 0 || index >= this.header.blocks || bytes.length !== this.lengthOf(index)) return false;
    const digest = createHash('sha256').update(bytes).digest();
    return digest.equals(this.digests.subarray(index * DIGEST_BYTES, (index + 1) * DIGEST_BYTES));
  }

  /**
   * The first of blocks `first`, `first + 1`, ... that `bytes` (those blocks, one after the other from its start)
   * does not match, or null when every one matches.
   */
  firstMismatch(bytes: Buffer, first: number): number | null {
    const { block_bytes } = this.header;
    for (let i = first; (i - first) * block_bytes < bytes.length; i += 1) {
      const at = (i - first) * block_bytes;
      if (!this.verify(i, bytes.subarray(at, at + this.lengthOf(i)))) return i;
    }
    return null;
  }

  /**
   * Parses a block digests object already checked against the manifest's SHA-256 of it; throws when it does not
   * describe an object of `objectBytes` bytes.
   */
  static parse(bytes: Buffer, objectBytes: number): BlockDigests {
    if (MAGIC.versionOf(bytes) !== BLOCK_DIGESTS_VERSION || bytes.length < 12) throw new Error('not block digests');
    const headerLength = bytes.readUInt32LE(8);
    const header = JSON.parse(bytes.toString('utf8', 12, 12 + headerLength)) as BlockDigestsHeader;
    const at = align8(12 + headerLength);
    const { block_bytes, object_bytes, blocks } = header;
    if (
      !(block_bytes > 0) ||
      object_bytes !== objectBytes ||
      blocks !== Math.ceil(object_bytes / block_bytes) ||
      bytes.length !== at + blocks * DIGEST_BYTES ||
      !Array.isArray(header.prefetch) ||
      header.prefetch.some(([o, l]) => !(o >= 0 && l >= 0 && o + l <= object_bytes))
    ) {
      throw new Error('block digests do not describe the object');
    }
    return new BlockDigests(header, bytes.subarray(at));
  }
}

/** The block digests object of a local file (its bytes, to store beside it), hashed in one streaming pass. */
export async function blockDigestsOfFile(file: string, prefetch: ByteRange[]): Promise<Buffer> {
  const digests: Buffer[] = [];
  let objectBytes = 0;
  let pending = Buffer.alloc(0);
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    let data = pending.length > 0 ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
    objectBytes += (chunk as Buffer).length;
    let at = 0;
    for (; at + DIGEST_BLOCK_BYTES <= data.length; at += DIGEST_BLOCK_BYTES) {
      digests.push(
        createHash('sha256')
          .update(data.subarray(at, at + DIGEST_BLOCK_BYTES))
          .digest(),
      );
    }
    data = data.subarray(at);
    pending = Buffer.from(data);
  }
  if (pending.length > 0) digests.push(createHash('sha256').update(pending).digest());
  return encodeBlockDigests(objectBytes, digests, prefetch);
}

/** The block digests object of bytes in memory (tests, small objects). */
export function blockDigestsOf(bytes: Buffer, prefetch: ByteRange[], blockBytes = DIGEST_BLOCK_BYTES): Buffer {
  const digests: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += blockBytes) {
    digests.push(
      createHash('sha256')
        .update(bytes.subarray(at, at + blockBytes))
        .digest(),
    );
  }
  return encodeBlockDigests(bytes.length, digests, prefetch, blockBytes);
}

function encodeBlockDigests(
  objectBytes: number,
  digests: Buffer[],
  prefetch: ByteRange[],
  blockBytes = DIGEST_BLOCK_BYTES,
): Buffer {
  const header: BlockDigestsHeader = {
    version: BLOCK_DIGESTS_VERSION,
    block_bytes: blockBytes,
    object_bytes: objectBytes,
    blocks: digests.length,
    prefetch: prefetch.map(([o, l]) => [o, l] as const).filter(([, l]) => l > 0),
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length, 0);
  const pad = Buffer.alloc(align8(12 + json.length) - 12 - json.length);
  return Buffer.concat([MAGIC.of(BLOCK_DIGESTS_VERSION), length, json, pad, ...digests]);
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}
