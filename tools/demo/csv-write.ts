/**
 * RFC 4180 CSV writing for the generators (demo feed, benchmark files).
 * @see https://www.rfc-editor.org/rfc/rfc4180
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface CsvWriteOptions {
  /** Quote every field, as CMS does in the NPPES files. Default: quote only fields that need it. */
  quoteAll?: boolean;
  /** Record separator. RFC 4180 says CRLF, which is the default. */
  eol?: '\r\n' | '\n';
}

const NEEDS_QUOTES = /[",\r\n]/;

/** One field, quoted (with inner quotes doubled) when it holds a comma, a quote or a line break. */
export function formatCsvField(value: string, quoteAll = false): string {
  if (quoteAll || NEEDS_QUOTES.test(value)) return `"${value.replace(/"/g, '""')}"`;
  return value;
}

/** One record, without its line ending. */
export function formatCsvRecord(values: readonly string[], quoteAll = false): string {
  return values.map((v) => formatCsvField(v, quoteAll)).join(',');
}

/**
 * A whole CSV document: the header, then every record, each followed by the line ending (including the last,
 * as RFC 4180 permits).
 * @example formatCsv(['a', 'b'], [['1', 'x,y']]) === 'a,b\r\n1,"x,y"\r\n'
 */
export function formatCsv(
  header: readonly string[],
  records: readonly (readonly string[])[],
  options: CsvWriteOptions = {},
): string {
  const eol = options.eol ?? '\r\n';
  const quoteAll = options.quoteAll ?? false;
  let out = formatCsvRecord(header, quoteAll) + eol;
  for (const record of records) {
    if (record.length !== header.length) {
      throw new Error(`CSV record has ${record.length} fields, the header has ${header.length}`);
    }
    out += formatCsvRecord(record, quoteAll) + eol;
  }
  return out;
}

/** Writes a CSV document (UTF-8, no BOM) to `file`, creating its folder. */
export function writeCsvFile(
  file: string,
  header: readonly string[],
  records: readonly (readonly string[])[],
  options: CsvWriteOptions = {},
): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, formatCsv(header, records, options), 'utf8');
}
