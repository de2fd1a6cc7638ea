/**
 * The line pass before a DuckDB scan of a big source file (NPPES, LEIE), whose records never span lines: one
 * streaming read that counts the data lines and finds the lines DuckDB cannot read as a record of their own.
 *
 * - A line with an odd number of `"` opens a quoted field that its line does not close: DuckDB would read on into
 *   the next lines (to the next quote, or the end of the file) and swallow them. Such a line is set aside.
 * - A line with a quote inside an unquoted field (`O""NEIL`: a quote that opens where no field starts): DuckDB would
 *   keep both quotes as text.
 * - A line with a NUL byte, the mark of a binary file (the header check refuses a file with one in its first MB;
 *   past it, DuckDB would keep the byte in a value).
 * - A line whose field count (commas outside quotes, plus one) differs from the header's: DuckDB would read extra
 *   empty fields at the end of a line as trailing delimiters and keep the row.
 * - A line with a carriage return that is not its line end (outside quotes): it stops DuckDB's parser outright.
 * - A line whose line end differs from the header's (a `\r\n` in an LF file, a bare `\n` in a CRLF file) stops
 *   DuckDB's parser outright. Such a line is set aside too.
 * - Blank lines are neither records nor rejects (DuckDB skips them).
 *
 * When some line is set aside, the scan reads a copy of the file in the work folder in which each such line is
 * blank, so that every other line keeps its number. Invalid bytes, wrong field counts and quotes inside an unquoted
 * field stay DuckDB's to find (its `store_rejects`): see `scan.ts`.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const COMMA = 0x2c;
const NUL = 0x00;
/** The raw text kept for a rejected line (a national line is ~4 KB; a broken one may be a whole binary blob). */
export const MAX_RAW_CHARS = 4000;

/** A line set aside before the scan. */
export interface LineReject {
  line: number;
  reason: string;
  raw: string;
}

export interface LinePass {
  /** Lines after the header (blank ones included). */
  dataLines: number;
  blankLines: number;
  /** The set-aside lines, in order (their rejects went to the sink). */
  setAside: number[];
  /** The header's line end. */
  crlf: boolean;
}

/**
 * Where the pass hands its findings, in batches (a file of many bad lines is never held in memory): the set-aside
 * lines with their reasons and raw text, and the blank lines.
 */
export interface LinePassSink {
  flush(rejects: LineReject[], blankLines: number[]): Promise<void>;
}

/** Findings held before the sink is called. */
const FLUSH_EVERY = 5000;

/** Raw text of a rejected line: decoded with replacement characters, without its line end, capped. */
export function rawText(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.length > MAX_RAW_CHARS ? `${text.slice(0, MAX_RAW_CHARS)}…` : text;
}

/**
 * Reads `file` once, hands the lines to set aside (see the module comment) and the blank lines to `sink`, and
 * returns the counts and the set-aside line numbers.
 * @example const pass = await scanCsvLines('npidata.csv', sink); pass.setAside // [32]
 */
export async function scanCsvLines(file: string, sink: LinePassSink): Promise<LinePass> {
  let blankLines: number[] = [];
  let rejects: LineReject[] = [];
  const setAside: number[] = [];
  let blankCount = 0;
  let line = 1;
  let crlf: boolean | null = null;
  let quotes = 0;
  let commas = 0;
  let crs = 0;
  let inQuote = false;
  let strayQuote = false;
  let nuls = 0;
  let expectedFields = 0;
  let length = 0;
  // The current line's bytes, kept only while it may be needed as a reject's raw text (bounded).
  let pieces: Buffer[] = [];
  let kept = 0;
  const setLineAside = (reason: string, hasCr: boolean) => {
    rejects.push({ line, reason, raw: rawOf(pieces, hasCr) });
    setAside.push(line);
  };
  /** `last`: the file's last line, without a line end (none is no fault). */
  const endLine = (hasCr: boolean, last = false) => {
    const content = length - (hasCr ? 1 : 0);
    if (line === 1) {
      crlf = hasCr;
      expectedFields = commas + 1;
    } else if (content === 0) {
      blankLines.push(line);
      blankCount += 1;
    } else if (quotes % 2 === 1) {
      setLineAside('unbalanced quotes: a quoted field is not closed on its line', hasCr);
    } else if (strayQuote) {
      setLineAside('quote inside an unquoted field', hasCr);
    } else if (nuls > 0) {
      setLineAside('a NUL byte inside the line (the mark of a binary file)', hasCr);
    } else if (crs > (hasCr ? 1 : 0)) {
      setLineAside('a carriage return inside the line, outside quotes', hasCr);
    } else if (commas + 1 !== expectedFields) {
      setLineAside(`expected ${expectedFields} fields, found ${commas + 1}`, hasCr);
    } else if (!last && hasCr !== crlf) {
      setLineAside(`line end ${hasCr ? 'CRLF' : 'LF'} differs from the header's (${crlf ? 'CRLF' : 'LF'})`, hasCr);
    }
    line += 1;
    quotes = 0;
    commas = 0;
    crs = 0;
    inQuote = false;
    strayQuote = false;
    nuls = 0;
    length = 0;
    pieces = [];
    kept = 0;
  };
  let lastByte = -1;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    if (rejects.length + blankLines.length >= FLUSH_EVERY) {
      await sink.flush(rejects, blankLines);
      rejects = [];
      blankLines = [];
    }
    let start = 0;
    // NUL bytes are looked for natively, chunk by chunk, not in the byte loop (a real file has none).
    let nulAt = chunk.indexOf(NUL);
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i] as number;
      if (b === QUOTE) {
        quotes += 1;
        // A quote opens a field only at its start (a line start, after a comma) or right after the quote that closed
        // (a doubled quote inside a quoted field, which toggles twice: no net change, as it should).
        if (!inQuote && lastByte !== COMMA && lastByte !== QUOTE && lastByte !== LF && lastByte !== -1) {
          strayQuote = true;
        }
        inQuote = !inQuote;
      } else if (b === COMMA) {
        if (!inQuote) commas += 1;
      } else if (b === CR) {
        if (!inQuote) crs += 1;
      } else if (b === LF) {
        const piece = chunk.subarray(start, i);
        length += piece.length;
        if (kept < MAX_RAW_CHARS * 4) {
          pieces.push(piece);
          kept += piece.length;
        }
        if (nulAt !== -1 && nulAt < i) {
          nuls += 1;
          nulAt = chunk.indexOf(NUL, i);
        }
        endLine(lastByte === CR);
        start = i + 1;
      }
      lastByte = b;
    }
    // A NUL after the chunk's last line end belongs to the line that goes on into the next chunk.
    if (nulAt !== -1) nuls += 1;
    const rest = chunk.subarray(start);
    length += rest.length;
    if (kept < MAX_RAW_CHARS * 4 && rest.length > 0) {
      pieces.push(Buffer.from(rest));
      kept += rest.length;
    }
  }
  // A last line without a line end: judged like the others, its missing line end is no fault.
  if (length > 0) endLine(lastByte === CR, true);
  await sink.flush(rejects, blankLines);
  return { dataLines: Math.max(line - 2, 0), blankLines: blankCount, setAside, crlf: crlf === true };
}

function rawOf(pieces: Buffer[], hasCr: boolean): string {
  const bytes = Buffer.concat(pieces);
  return rawText(hasCr && bytes[bytes.length - 1] === CR ? bytes.subarray(0, bytes.length - 1) : bytes);
}

/**
 * Writes a copy of `file` into `dir` in which every line of `blank` (ascending) is empty, line numbers unchanged,
 * for the scan to read instead of the file. Returns the copy's path.
 */
export async function copyWithBlankLines(
  file: string,
  blank: readonly number[],
  dir: string,
  crlf: boolean,
): Promise<string> {
  let next = 0;
  const isBlank = (line: number) => {
    while (next < blank.length && (blank[next] as number) < line) next += 1;
    return blank[next] === line;
  };
  const out = path.join(dir, `blanked-${Date.now()}-${path.basename(file)}`);
  const writer = createWriteStream(out);
  const lineEnd = Buffer.from(crlf ? '\r\n' : '\n');
  let line = 1;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let i = chunk.indexOf(LF, start); i !== -1; i = chunk.indexOf(LF, start)) {
      await write(writer, isBlank(line) ? lineEnd : chunk.subarray(start, i + 1));
      line += 1;
      start = i + 1;
    }
    if (start < chunk.length && !isBlank(line)) await write(writer, chunk.subarray(start));
  }
  writer.end();
  await finished(writer);
  return out;
}

/** Writes with back-pressure, so that a national file's copy never piles up in memory. */
async function write(writer: NodeJS.WritableStream, bytes: Buffer): Promise<void> {
  if (!writer.write(bytes)) await once(writer, 'drain');
}
