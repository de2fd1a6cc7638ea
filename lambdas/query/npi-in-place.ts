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
import type { NpiIndexVersion } from '../../platform/npi-index/format';
import { NpiIndexReader } from '../../platform/npi-index/reader';
import { OpenIndexes, type OpenIndexFile } from './open-indexes';

/** Buckets open at once, at most (file descriptors count against Lambda's 1,024 with the identity indexes'). */
export const MAX_OPEN_NPI_BUCKETS = 256;
/**
 * Blocks of the local files' block cache: 16 MB, what the arena's directory cache held (part of the native reserve,
 * memory-budget.ts): the directories of about a million NPIs, so that uniform lookups over a thousand buckets do not
 * read each directory again from the file.
 */
export const NPI_BLOCK_CACHE_BLOCKS = 1024;

export class NpiBucketsInPlace {
  private readonly buckets: OpenIndexes<NpiIndexReader>;

  constructor(maxOpen = MAX_OPEN_NPI_BUCKETS) {
    this.buckets = new OpenIndexes((source) => NpiIndexReader.open(source), maxOpen, NPI_BLOCK_CACHE_BLOCKS);
  }

  /**
   * The record of `npi` (or null) when bucket `key` is open and the bytes of the lookup are here: answered at once,
   * without a promise (a batch of 100 NPIs makes 100 lookups); undefined otherwise (then {@link find}).
   */
  heldRecord(key: string, npi: string): NpiRecordBytes | null | undefined {
    return this.buckets.now(key, (reader) => lookup(reader, npi));
  }

  /**
   * The record of `npi` in bucket object `key`, which `file(cache)` opens.
   * @example await buckets.find(key, (cache) => files.openIndex(key, cache), '1003633876')
   */
  find(key: string, file: OpenIndexFile, npi: string): Promise<NpiRecordBytes | null> {
    return this.buckets.use(key, file, (reader) => lookup(reader, npi));
  }

  /** Closes the buckets whose key starts with `prefix` (a released snapshot's). */
  forget(prefix: string): void {
    this.buckets.forget(prefix);
  }

  /** Closes every bucket. */
  closeAll(): void {
    this.buckets.closeAll();
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
