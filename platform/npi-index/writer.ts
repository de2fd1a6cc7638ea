/**
 * Encodes an NPI lookup bucket (format.ts) from its records in NPI order.
 */
import {
  NPI_DIGITS,
  NPI_ENTRY_BYTES,
  NPI_ENTRY_END_AT,
  NPI_INDEX_HEADER_BYTES,
  type NpiIndexVersion,
  npiIndexMagic,
  npiRecordsStart,
} from './format';

/** Every record starts with these bytes, then the 10 NPI digits (a JSON object whose first member is `npi`). */
const RECORD_HEAD = '{"npi":"';

/** The NPI a record starts with; throws on a record that does not start with `{"npi":"<10 digits>"`. */
export function npiOfRecord(record: string): string {
  const npi = record.slice(RECORD_HEAD.length, RECORD_HEAD.length + NPI_DIGITS);
  if (!record.startsWith(RECORD_HEAD) || !/^[0-9]{10}$/.test(npi) || record[RECORD_HEAD.length + NPI_DIGITS] !== '"') {
    throw new Error(`an NPI record must start with {"npi":"<10 digits>": ${record.slice(0, 40)}`);
  }
  return npi;
}

/**
 * The bucket file of `records` (JSON texts, each starting with `{"npi":"<10 digits>"`), which must be in strictly
 * increasing NPI order; `version` says what the records are (format.ts).
 * @example encodeNpiBucket(['{"npi":"1003633876","status":"deactivated",…}'], 2)
 */
export function encodeNpiBucket(records: readonly string[], version: NpiIndexVersion): Buffer {
  const texts = records.map((r) => Buffer.from(r, 'utf8'));
  const recordBytes = texts.reduce((sum, t) => sum + t.length, 0);
  const start = npiRecordsStart(records.length);
  if (recordBytes > 0xffff_ffff) throw new RangeError('an NPI bucket holds at most 4 GiB of records');
  const out = Buffer.alloc(start + recordBytes);
  npiIndexMagic(version).copy(out, 0);
  out.writeUInt32LE(records.length, 8);
  out.writeUInt32LE(0, 12);
  let previous = '';
  let end = 0;
  for (const [i, record] of records.entries()) {
    const npi = npiOfRecord(record);
    if (npi <= previous) throw new Error(`NPI records out of order: ${npi} after ${previous}`);
    previous = npi;
    const text = texts[i] as Buffer;
    text.copy(out, start + end);
    end += text.length;
    const entry = NPI_INDEX_HEADER_BYTES + i * NPI_ENTRY_BYTES;
    out.write(npi, entry, NPI_DIGITS, 'latin1');
    out.writeUInt32LE(end, entry + NPI_ENTRY_END_AT);
  }
  return out;
}
