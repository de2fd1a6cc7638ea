/**
 * Small CSV readers for the files that are not worth a DuckDB scan: the header line of every source (checked before
 * any scan so that a missing column fails fast, naming the file and the column) and the curation feed (hundreds of
 * rows, where exact line numbers for rejects matter more than speed).
 */
import { readFileSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { displayPath, EtlInputError } from './errors';

/** One parsed record with the physical line it starts on (the header is line 1). */
export interface CsvRecord {
  line: number;
  fields: string[];
  /** The record's text as it appears in the file, without the line end. */
  raw: string;
}

const BOM = '\uFEFF';
const HEADER_PROBE_BYTES = 1 << 20;

/**
 * RFC 4180 parser: comma-separated, `"` quotes doubled inside quoted fields, LF or CRLF line ends, an optional final
 * line end, a leading UTF-8 BOM ignored. Throws on an unterminated quote or a quote inside an unquoted field.
 */
export function parseCsv(text: string): CsvRecord[] {
  const src = text.startsWith(BOM) ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let fieldStarted = false;
  let line = 1;
  let recordLine = 1;
  let recordStart = 0;
  let i = 0;
  const endRecord = (end: number) => {
    fields.push(field);
    records.push({ line: recordLine, fields, raw: src.slice(recordStart, end) });
    fields = [];
    field = '';
    fieldStarted = false;
  };
  while (i < src.length) {
    const ch = src[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i += 1;
        continue;
      }
      if (ch === '\n') line += 1;
      field += ch;
      i += 1;
      continue;
    }
    if (ch === '"') {
      if (fieldStarted && field !== '') throw new Error(`line ${line}: quote inside an unquoted field`);
      quoted = true;
      fieldStarted = true;
      i += 1;
    } else if (ch === ',') {
      fields.push(field);
      field = '';
      fieldStarted = false;
      i += 1;
    } else if (ch === '\r' && src[i + 1] === '\n') {
      endRecord(i);
      i += 2;
      line += 1;
      recordLine = line;
      recordStart = i;
    } else if (ch === '\n') {
      endRecord(i);
      i += 1;
      line += 1;
      recordLine = line;
      recordStart = i;
    } else {
      field += ch;
      fieldStarted = true;
      i += 1;
    }
  }
  if (quoted) throw new Error(`line ${recordLine}: unterminated quoted field`);
  if (fieldStarted || fields.length > 0 || field !== '') endRecord(src.length);
  return records;
}

function assertText(file: string, bytes: Buffer): void {
  // A NUL byte never occurs in a UTF-8 CSV; it marks a binary file (zip, parquet, xlsx).
  if (bytes.includes(0)) throw new EtlInputError(file, 'not a CSV text file (binary content)');
}

/**
 * The header fields of a CSV file, read from its first line only (the header of every supported source fits in the
 * first megabyte). Fails with an `EtlInputError` naming the file when it cannot be read, is binary or empty.
 */
export async function readCsvHeader(file: string): Promise<string[]> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    throw new EtlInputError(file, `cannot open the file (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const buf = Buffer.alloc(HEADER_PROBE_BYTES);
    const { bytesRead } = await handle.read(buf, 0, HEADER_PROBE_BYTES, 0);
    const bytes = buf.subarray(0, bytesRead);
    assertText(file, bytes);
    const text = bytes.toString('utf8');
    const end = text.search(/\r?\n/);
    const headerLine = end === -1 ? text : text.slice(0, end);
    if (headerLine.replace(BOM, '').trim() === '') throw new EtlInputError(file, 'empty file: no header line');
    let parsed: CsvRecord[];
    try {
      parsed = parseCsv(headerLine);
    } catch (err) {
      throw new EtlInputError(file, `unreadable header line: ${(err as Error).message}`);
    }
    return (parsed[0]?.fields ?? []).map((h) => h.trim());
  } finally {
    await handle.close();
  }
}

/** Fails naming the file and the first required column that the header lacks. */
export function requireColumns(file: string, header: readonly string[], required: readonly string[]): void {
  const present = new Set(header);
  for (const column of required) {
    if (!present.has(column)) throw new EtlInputError(file, `missing required column "${column}"`, column);
  }
}

/** The records' fields only, header included: for callers that need no line numbers. */
export function parseCsvRows(text: string): string[][] {
  return parseCsv(text).map((r) => r.fields);
}

/**
 * A CSV file with a header as one object per record, keyed by the header's names (synchronous, for generators and
 * tests). A record whose field count differs from the header's throws, naming the file and line.
 */
export function readCsvObjects(file: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(readFileSync(file, 'utf8'));
  if (header === undefined) return [];
  return rows.map((row) => {
    if (row.fields.length !== header.fields.length) {
      throw new Error(
        `${file}: line ${row.line} has ${row.fields.length} fields, the header has ${header.fields.length}`,
      );
    }
    return Object.fromEntries(header.fields.map((name, j) => [name, row.fields[j] as string]));
  });
}

/** A whole small CSV file: header names and data records. */
export async function readSmallCsv(file: string): Promise<{ header: string[]; records: CsvRecord[] }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new EtlInputError(file, `cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  assertText(file, bytes);
  let records: CsvRecord[];
  try {
    records = parseCsv(bytes.toString('utf8'));
  } catch (err) {
    throw new EtlInputError(file, `not a readable CSV file: ${(err as Error).message}`);
  }
  const [head, ...rest] = records;
  if (!head || head.fields.every((f) => f.trim() === '')) throw new EtlInputError(file, 'empty file: no header line');
  // A blank line (a lone line end) is not a record.
  return { header: head.fields.map((h) => h.trim()), records: rest.filter((r) => r.raw.trim() !== '') };
}

export { displayPath };
