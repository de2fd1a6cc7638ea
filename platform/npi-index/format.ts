/**
 * The NPI lookup bucket: one binary file per NPI prefix (data-contracts/layout.ts, `npi` objects), written by the
 * ETL (`etl/writers/npi-buckets.ts`) and read by the API (`reader.ts`) without unzipping or parsing the whole bucket per lookup.
 *
 * Layout (little-endian; offsets from the start of the file):
 * ```
 * 0    "PFNPI\0\0" + version          magic (8 bytes); version 1 or 2 (below)
 * 8    u32 count                     NPIs in the bucket
 * 12   u32 reserved                  0
 * 16   directory  count x 16 B       one entry per NPI, sorted by NPI: 10 ASCII digits, 2 bytes of padding (0),
 *                                    u32 END offset of the NPI's record, relative to the start of the records section
 * 16 + 16 * count   records          JSON texts (UTF-8), one per NPI, one after the other in NPI order, each
 *                                    starting with `{"npi":"<its 10 digits>"`
 * ```
 * Record `i` spans `[end[i - 1], end[i])` of the records section (`end[-1]` = 0), so a lookup is a binary search
 * over the fixed-width directory (a bucket of 1,024 NPIs is a 16 KB directory: one or two cached blocks) and one
 * read of exactly the record's bytes. No newline or separator is needed between records.
 *
 * Since layout 4 the stored object is this file as it is (`records.npi`): the API reads its directory and then each
 * record as a verified byte range (docs/read-in-place.md). Layout 3 stored it gzipped (`records.npi.gz`): the API
 * unzips such a bucket once per process to a local file and reads that file with positional reads.
 */

import { gunzipSync } from 'node:zlib';
import { VersionedMagic } from '../binary/versioned-magic';

/**
 * What a bucket's records are, by the magic's last byte: 1, the NpiLookupLine JSON of data-contracts/layout.ts
 * (NPI lookup buckets written before version 2, and the changes-by-NPI index); 2, the NPI record heads of
 * data-contracts/npi-record.ts (NPI lookup buckets: the API copies them into its answers without parsing them).
 */
export const NPI_INDEX_VERSIONS = [1, 2] as const;
export type NpiIndexVersion = (typeof NPI_INDEX_VERSIONS)[number];

/** The version the ETL writes the NPI lookup buckets in (etl/writers/npi-buckets.ts). */
export const NPI_LOOKUP_BUCKET_VERSION: NpiIndexVersion = 2;

const MAGIC = new VersionedMagic('PFNPI\0\0');

/** The magic of a version. */
export function npiIndexMagic(version: NpiIndexVersion): Buffer {
  return MAGIC.of(version);
}

/** The version of a bucket that starts with `head` (its first 8 bytes or more), or null when it is not a bucket. */
export function npiIndexVersionOf(head: Buffer): NpiIndexVersion | null {
  const version = MAGIC.versionOf(head);
  return (NPI_INDEX_VERSIONS as readonly (number | null)[]).includes(version) ? (version as NpiIndexVersion) : null;
}
/** Magic, count, reserved. */
export const NPI_INDEX_HEADER_BYTES = 16;
/** One directory entry: NPI digits, padding, u32 end offset. */
export const NPI_ENTRY_BYTES = 16;
/** ASCII digits of an NPI, at the start of a directory entry. */
export const NPI_DIGITS = 10;
/** Offset of the u32 end offset within a directory entry. */
export const NPI_ENTRY_END_AT = 12;

/** Offset of the records section of a bucket of `count` NPIs. */
export function npiRecordsStart(count: number): number {
  return NPI_INDEX_HEADER_BYTES + count * NPI_ENTRY_BYTES;
}

/** A bucket's bytes from its stored object: gzipped before layout 4 (`records.npi.gz`), as it is since. */
export function storedNpiBucket(key: string, stored: Buffer): Buffer {
  return key.endsWith('.gz') ? gunzipSync(stored) : stored;
}
