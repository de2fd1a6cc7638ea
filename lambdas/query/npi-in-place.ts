/**
 * The NPI lookup buckets of layout 4 (data-contracts/layout.ts, `npi` objects stored unzipped, with block digests),
 * read in place: a bucket is opened on its first lookup in the process (its header and directory fetched and
 * verified, platform/ranged), and each lookup is a binary search over the directory and one range, the record's,
 * fetched (or read from the local folder) and verified by block. Nothing is unzipped, no bucket is ever whole in
 * the process. Buckets of older layouts (gzipped) go through the arena of ./npi-buckets.ts.
 *
 * Bounded: at most {@link MAX_OPEN_NPI_BUCKETS} buckets open (least recently used closed first: a remote bucket
 * holds its directory, a local one a file descriptor), and a block cache of {@link NPI_BLOCK_CACHE_BLOCKS} blocks
 * for local files. One instance serves every snapshot of the process (keys hold the snapshot id); `forget` closes a
 * released snapshot's buckets.
 */
import type { NpiLookupLine } from '../../data-contracts/layout';
import { completeNpiRecord, type NpiRecordBytes, npiRecordOf } from '../../data-contracts/npi-record';
import { BlockCache, type ByteSource } from '../../platform/identity-index/byte-source';
import { InFlight } from '../../platform/in-flight';
import type { NpiIndexVersion } from '../../platform/npi-index/format';
import { NpiIndexReader } from '../../platform/npi-index/reader';
import { MissingBlocks, readInPlace } from '../../platform/ranged/ranged-object';
import type { IndexFile } from '../storage/snapshot-files';

/** Buckets open at once, at most (file descriptors count against Lambda's 1,024 with the identity indexes'). */
export const MAX_OPEN_NPI_BUCKETS = 256;
/** Blocks of the local files' block cache: 2 MB (part of the native reserve, memory-budget.ts). */
export const NPI_BLOCK_CACHE_BLOCKS = 128;

interface Open {
  readonly reader: NpiIndexReader;
  readonly file: ByteSource & { close(): void };
  closed: boolean;
}

export class NpiBucketsInPlace {
  /** Open buckets, least recently used first. */
  private readonly open = new Map<string, Open>();
  private readonly opening = new InFlight<string, Open>();
  private readonly blocks = new BlockCache(NPI_BLOCK_CACHE_BLOCKS);

  constructor(private readonly maxOpen = MAX_OPEN_NPI_BUCKETS) {}

  /**
   * The record of `npi` (or null) when bucket `key` is open and the bytes of the lookup are here: answered at once,
   * without a promise (a batch of 100 NPIs makes 100 lookups); undefined otherwise (then {@link find}).
   */
  heldRecord(key: string, npi: string): NpiRecordBytes | null | undefined {
    const entry = this.open.get(key);
    if (entry === undefined || entry.closed) return undefined;
    try {
      return lookup(entry.reader, npi);
    } catch (err) {
      if (err instanceof MissingBlocks) return undefined;
      throw err;
    }
  }

  /**
   * The record of `npi` in bucket object `key`, which `file(cache)` opens.
   * @example await buckets.find(key, (cache) => files.openIndex(key, cache), '1003633876')
   */
  async find(
    key: string,
    file: (cache: BlockCache) => Promise<IndexFile>,
    npi: string,
  ): Promise<NpiRecordBytes | null> {
    for (;;) {
      const entry = await this.entry(key, file);
      if (entry.closed) continue;
      try {
        return await readInPlace(() => lookup(entry.reader, npi));
      } catch (err) {
        // Closed while its blocks were fetched: open it again.
        if (!entry.closed) throw err;
      }
    }
  }

  /** Closes the buckets whose key starts with `prefix` (a released snapshot's). */
  forget(prefix: string): void {
    for (const [key, entry] of [...this.open]) if (key.startsWith(prefix)) this.close(key, entry);
  }

  /** Closes every bucket. */
  closeAll(): void {
    for (const [key, entry] of [...this.open]) this.close(key, entry);
  }

  /** Buckets open now (tests). */
  get openBuckets(): number {
    return this.open.size;
  }

  private async entry(key: string, file: (cache: BlockCache) => Promise<IndexFile>): Promise<Open> {
    const held = this.open.get(key);
    if (held !== undefined) {
      this.open.delete(key);
      this.open.set(key, held);
      return held;
    }
    const opened = await this.opening.run(key, async () => {
      const { source } = await file(this.blocks);
      try {
        return { reader: await readInPlace(() => NpiIndexReader.open(source)), file: source, closed: false };
      } catch (error) {
        source.close();
        throw new Error(`NPI bucket ${key} is unreadable`, { cause: error });
      }
    });
    if (!this.open.has(key) && !opened.closed) {
      this.open.set(key, opened);
      for (const [old, entry] of this.open) {
        if (this.open.size <= this.maxOpen) break;
        this.close(old, entry);
      }
    }
    return opened;
  }

  private close(key: string, entry: Open): void {
    this.open.delete(key);
    entry.closed = true;
    entry.file.close();
  }
}

/** The record of `npi` in a bucket, as the lookups answer it. */
function lookup(reader: NpiIndexReader, npi: string): NpiRecordBytes | null {
  const bytes = reader.findBytes(npi);
  return bytes === null ? null : recordOf(bytes, reader.version);
}

/**
 * A record as the lookups answer it: a version 2 bucket's head is completed as it is (no parsing); a version 1
 * bucket's lookup line (a snapshot written before version 2) is parsed and presented.
 */
export function recordOf(bytes: Buffer, version: NpiIndexVersion): NpiRecordBytes {
  return version === 2 ? completeNpiRecord(bytes) : npiRecordOf(JSON.parse(bytes.toString('utf8')) as NpiLookupLine);
}
