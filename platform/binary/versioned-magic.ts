/**
 * The magic of a binary format whose last byte is its version (the identity serving indexes, the search indexes, the
 * NPI buckets, the block digests): an ASCII prefix of 7 bytes and the version byte.
 *
 * @example
 * const MAGIC = new VersionedMagic('PFNPI\0\0');
 * MAGIC.of(2);                  // "PFNPI\0\0\x02"
 * MAGIC.versionOf(fileHead);    // 2, or null when the head is not this format's
 */
export class VersionedMagic {
  private readonly prefix: Buffer;

  constructor(prefix: string) {
    this.prefix = Buffer.from(prefix, 'latin1');
    if (this.prefix.length !== 7) throw new Error('a versioned magic is 7 bytes and the version byte');
  }

  /** The magic of `version`. */
  of(version: number): Buffer {
    return Buffer.concat([this.prefix, Buffer.of(version)]);
  }

  /** The version byte of a file's first 8 bytes (or more), or null when they do not start with the prefix. */
  versionOf(head: Buffer): number | null {
    return head.length >= 8 && head.subarray(0, 7).equals(this.prefix) ? (head[7] as number) : null;
  }
}
