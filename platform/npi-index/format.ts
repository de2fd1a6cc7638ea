/**
 * The NPI lookup bucket: one binary file per NPI prefix (data-contracts/layout.ts, `npi` objects), written by the
 * ETL (`etl/npi-out.ts`) and read by the API (`reader.ts`) without unzipping or parsing the whole bucket per lookup.
 *
 * Layout (little-endian; offsets from the start of the file):
 * ```
 * 0    "PFNPI\0\0\1"                 magic (8 bytes)
 * 8    u32 count                     NPIs in the bucket
 * 12   u32 reserved                  0
 * 16   directory  count x 16 B       one entry per NPI, sorted by NPI: 10 ASCII digits, 2 bytes of padding (0),
 *                                    u32 END offset of the NPI's record, relative to the start of the records section
 * 16 + 16 * count   records          the NpiLookupLine JSON texts (UTF-8), one after the other in NPI order
 * ```
 * Record `i` spans `[end[i - 1], end[i])` of the records section (`end[-1]` = 0), so a lookup is a binary search
 * over the fixed-width directory (a bucket of 1,024 NPIs is a 16 KB directory: one or two cached blocks) and one
 * read of exactly the record's bytes. No newline or separator is needed between records.
 *
 * The stored object is this file gzipped (`records.npi.gz`, a small transfer); the API unzips it once per process
 * to a local file and reads that file with positional reads (the page cache holds the hot parts, not the process).
 */

export const NPI_INDEX_MAGIC = Buffer.from('PFNPI\0\0\x01', 'latin1');
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
