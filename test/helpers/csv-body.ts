/**
 * Reads a CSV response body (RFC 4180: CRLF or LF records, quoted fields with `""` escapes and line breaks) into
 * its header and rows, so tests check columns and row counts instead of splitting lines on commas.
 */

/** A parsed CSV body: the header row and the data rows, each a list of unquoted fields. */
export interface CsvBody {
  header: string[];
  rows: string[][];
}

/**
 * Parses `text`. A final line break does not start an empty record. Throws on a quote that is never closed or on
 * text after a closing quote, so a malformed body fails the test that reads it.
 * @example parseCsvBody('a,b\r\n"x,1","say ""hi"""\r\n') -> { header: ['a', 'b'], rows: [['x,1', 'say "hi"']] }
 */
export function parseCsvBody(text: string): CsvBody {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let atFieldStart = true;
  while (i < text.length) {
    const ch = text[i] as string;
    if (atFieldStart && ch === '"') {
      const end = closingQuote(text, i + 1);
      field = text.slice(i + 1, end).replace(/""/g, '"');
      i = end + 1;
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\r' && next !== '\n') {
        throw new Error(`CSV: text after a closing quote at offset ${i}`);
      }
      atFieldStart = false;
      continue;
    }
    if (ch === ',') {
      record.push(field);
      field = '';
      atFieldStart = true;
      i += 1;
    } else if (ch === '\r' || ch === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      atFieldStart = true;
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      field += ch;
      atFieldStart = false;
      i += 1;
    }
  }
  if (!atFieldStart || field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  const [header = [], ...rows] = records;
  return { header, rows };
}

function closingQuote(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    if (text[i] === '"') {
      if (text[i + 1] === '"') i += 2;
      else return i;
    } else i += 1;
  }
  throw new Error(`CSV: quote opened at offset ${from - 1} is never closed`);
}

/** Parses a CSV body and checks that every row has as many fields as the header. */
export function parseCsvTable(text: string): CsvBody {
  const body = parseCsvBody(text);
  for (const [n, row] of body.rows.entries()) {
    if (row.length !== body.header.length) {
      throw new Error(`CSV: row ${n + 1} has ${row.length} fields, the header ${body.header.length}`);
    }
  }
  return body;
}
