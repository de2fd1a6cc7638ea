/**
 * Small CSV readers for the files that are not worth a DuckDB scan: the header line of every source (checked before
 * any scan so that a missing column fails fast, naming the file and the column) and the curation feed (hundreds of
 * rows, where exact line numbers for rejects matter more than speed).
 */
import { readFileSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { displayPath, EtlInputError } from '../errors';

/** One parsed record with the physical line it starts on (the header is line 1). */
export interface CsvRecord {
  line: number;
  fields: string[];
  /** The record's text as it appears in the file, without the line end. */
  raw: string;
}

const BOM = '\uFEFF';
const HEADER_PROBE_BYTES = 1 << 20;

/** A record that cannot be read, set aside with the line it starts on and its raw text. */
export interface CsvBadRecord {
  line: number;
  reason: string;
  raw: string;
}

/**
 * RFC 4180 parser that sets aside what it cannot read and goes on: comma-separated, `"` quotes doubled inside
 * quoted fields, LF or CRLF line ends, an optional final line end, a leading UTF-8 BOM ignored. A record that cannot
 * be read (a quote inside an unquoted field, a quote never closed) has its first line set aside, and reading
 * resumes on the next line (the rest of the file is not swallowed).
 * Every line of the text is in exactly one record, one bad record or a blank record.
 */
export function parseCsvRecords(text: string): { records: CsvRecord[]; bad: CsvBadRecord[] } {
  const src = text.startsWith(BOM) ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  const bad: CsvBadRecord[] = [];
  let pos = 0;
  let line = 1;
  while (pos < src.length) {
    const r = parseRecord(src, pos);
    if (r.error === null) {
      records.push({ line, fields: r.fields, raw: src.slice(pos, r.rawEnd) });
      line += r.lines;
      pos = r.next;
      continue;
    }
    // Bad: the record's first line is set aside, and reading resumes on the next line, so that a stray quote never
    // swallows the lines after it.
    const nl = src.indexOf('\n', pos);
    const lineEnd = nl === -1 ? src.length : nl;
    bad.push({ line, reason: r.error, raw: src.slice(pos, lineEnd).replace(/\r$/, '') });
    line += 1;
    pos = nl === -1 ? src.length : nl + 1;
  }
  return { records, bad };
}

interface ParsedRecord {
  fields: string[];
  /** Index after the record's text (before its line end); `next`: after the line end. */
  rawEnd: number;
  next: number;
  /** Physical lines the record spans, line end included. */
  lines: number;
  error: string | null;
}

/** One record from `start`. */
function parseRecord(src: string, start: number): ParsedRecord {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  let fieldStarted = false;
  let lines = 1;
  let i = start;
  const done = (rawEnd: number, next: number, error: string | null = null): ParsedRecord => {
    fields.push(field);
    return { fields, rawEnd, next, lines, error };
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
      if (ch === '\n') lines += 1;
      field += ch;
      i += 1;
      continue;
    }
    if (ch === '"') {
      if (fieldStarted && field !== '') return done(i, i, 'quote inside an unquoted field');
      quoted = true;
      fieldStarted = true;
      i += 1;
    } else if (ch === ',') {
      fields.push(field);
      field = '';
      fieldStarted = false;
      i += 1;
    } else if (ch === '\r' && src[i + 1] === '\n') {
      return done(i, i + 2);
    } else if (ch === '\n') {
      return done(i, i + 1);
    } else {
      field += ch;
      fieldStarted = true;
      i += 1;
    }
  }
  if (quoted) return done(src.length, src.length, 'unterminated quoted field');
  return done(src.length, src.length);
}

/**
 * {@link parseCsvRecords} for text that must be well formed: throws on the first record it cannot read.
 * @example parseCsv('a,b\n1,2')[1]?.fields // ['1', '2']
 */
export function parseCsv(text: string): CsvRecord[] {
  const { records, bad } = parseCsvRecords(text);
  const first = bad[0];
  if (first) throw new Error(`line ${first.line}: ${first.reason}`);
  return records;
}

/**
 * Decodes UTF-8 text line by line: a line with a byte sequence that is not UTF-8 is set aside (its raw text with
 * replacement characters) and left blank in the text, so every other line keeps its number.
 */
export function decodeUtf8Lines(bytes: Buffer): { text: string; bad: CsvBadRecord[] } {
  try {
    return { text: FATAL_UTF8.decode(bytes), bad: [] };
  } catch {
    // Some line is not UTF-8: find which, line by line.
  }
  const bad: CsvBadRecord[] = [];
  const parts: string[] = [];
  let start = 0;
  let line = 1;
  while (start <= bytes.length) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl === -1 ? bytes.length : nl;
    const piece = bytes.subarray(start, end);
    try {
      parts.push(FATAL_UTF8.decode(piece));
    } catch {
      bad.push({ line, reason: 'invalid UTF-8 byte sequence', raw: piece.toString('utf8').replace(/\r$/, '') });
      parts.push('');
    }
    if (nl === -1) break;
    start = nl + 1;
    line += 1;
  }
  return { text: parts.join('\n'), bad };
}

const FATAL_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

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

/**
 * A whole small CSV file: header names, data records, and the records that cannot be read (bad bytes, broken
 * quoting) with their lines. Fails only when the file is not CSV text at all (binary, no header line).
 */
export async function readSmallCsv(
  file: string,
): Promise<{ header: string[]; records: CsvRecord[]; unreadable: CsvBadRecord[] }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new EtlInputError(file, `cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  assertText(file, bytes);
  const decoded = decodeUtf8Lines(bytes);
  const { records, bad } = parseCsvRecords(decoded.text);
  const [head, ...rest] = records;
  if (head?.line !== 1 || head.fields.every((f) => f.trim() === '')) {
    throw new EtlInputError(file, 'empty file: no header line');
  }
  // A blank line (a lone line end, or a line blanked for its bytes) is not a record.
  const unreadable = [...decoded.bad, ...bad].sort((a, b) => a.line - b.line);
  return { header: head.fields.map((h) => h.trim()), records: rest.filter((r) => r.raw.trim() !== ''), unreadable };
}

export { displayPath };
