/**
 * A strict, small RFC 4180 reader for the generators' inputs (the real sample files) and for the tests.
 * It reads whole documents in memory: the inputs it is used on are a few megabytes at most.
 */
import { readFileSync } from 'node:fs';

/**
 * Splits a CSV document into records of fields. Accepts CRLF or LF, a UTF-8 BOM, quoted fields with doubled
 * quotes and embedded line breaks, and a missing final line ending. Throws on a stray quote.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let quoted = false;
  let fieldStarted = false;
  const n = text.length;
  while (i < n) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        const after = text[i];
        if (after !== undefined && after !== ',' && after !== '\n' && after !== '\r') {
          throw new Error(`CSV: unexpected character after a closing quote at offset ${i}`);
        }
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"') {
      if (fieldStarted) throw new Error(`CSV: quote inside an unquoted field at offset ${i}`);
      quoted = true;
      fieldStarted = true;
      i++;
    } else if (ch === ',') {
      record.push(field);
      field = '';
      fieldStarted = false;
      i++;
    } else if (ch === '\n' || ch === '\r') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      fieldStarted = false;
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      field += ch;
      fieldStarted = true;
      i++;
    }
  }
  if (quoted) throw new Error('CSV: unterminated quoted field');
  if (fieldStarted || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

/** Reads a CSV file with a header into one object per record, keyed by the header's names. */
export function readCsvObjects(file: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(readFileSync(file, 'utf8'));
  if (header === undefined) return [];
  return rows.map((row, index) => {
    if (row.length !== header.length) {
      throw new Error(`${file}: record ${index + 2} has ${row.length} fields, the header has ${header.length}`);
    }
    const obj: Record<string, string> = {};
    header.forEach((name, j) => {
      obj[name] = row[j] as string;
    });
    return obj;
  });
}
