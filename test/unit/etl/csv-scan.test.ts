/**
 * Row-by-row reading of big source files (etl/csv/lines.ts, etl/csv/scan.ts) against the real DuckDB: every data
 * line of a file ends up staged (with its line), rejected (with its line) or blank; none lost, none invented.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { REJECTS_TABLE } from '../../../etl/csv/rejects';
import { collectScanRejects, prepareCsvScan, rowByRowCsvSql, withLinesSql } from '../../../etl/csv/scan';
import { createTable } from '../../../platform/duckdb/statements';

const HEADER = ['a', 'b', 'c'];

/** One generated data line and what must become of it. */
type Line =
  | { kind: 'good'; fields: string[]; text: string }
  | { kind: 'bad'; text: Buffer | string }
  | { kind: 'blank'; text: '' };

// No line ends in a cell (records of these sources never span lines), and no NUL (the mark of a binary file).
const cell = fc
  .string({ unit: 'binary', maxLength: 6 })
  .map((s) => s.replace(/[\r\n]/g, '').replaceAll(String.fromCharCode(0), ''));
const quoteIfNeeded = (f: string) => (/[",]/.test(f) || f === '' ? `"${f.replace(/"/g, '""')}"` : f);
const goodLine = fc.tuple(cell, cell, cell, fc.boolean()).map(([a, b, c, quoteAll]): Line => {
  const fields = [a, b, c];
  const text = fields.map((f) => (quoteAll ? `"${f.replace(/"/g, '""')}"` : quoteIfNeeded(f))).join(',');
  return { kind: 'good', fields, text };
});
const wrongCount = fc
  .array(fc.stringMatching(/^[a-z0-9]{0,4}$/), { minLength: 1, maxLength: 6 })
  .filter((f) => f.length !== 3)
  // A lone empty field is a blank line, not a record.
  .filter((f) => !(f.length === 1 && f[0] === ''))
  .map((f): Line => ({ kind: 'bad', text: f.join(',') }));
const badByte = fc.tuple(fc.stringMatching(/^[a-z]{1,4}$/), fc.constantFrom(0xff, 0xc3, 0x80, 0xfe)).map(
  ([s, b]): Line => ({
    kind: 'bad',
    text: Buffer.concat([Buffer.from(`x,${s}`), Buffer.from([b]), Buffer.from(',z')]),
  }),
);
const unbalanced = fc.stringMatching(/^[a-z ]{0,5}$/).map((s): Line => ({ kind: 'bad', text: `"${s},y,z` }));
const strayCr = fc
  .tuple(fc.stringMatching(/^[a-z]{0,3}$/), fc.stringMatching(/^[a-z]{0,3}$/))
  .map(([a, b]): Line => ({ kind: 'bad', text: `x,${a}\r${b},z` }));
// A quote that opens where no field starts: DuckDB alone would keep `a""b` as text.
const strayQuote = fc
  .tuple(fc.stringMatching(/^[a-z]{1,3}$/), fc.stringMatching(/^[a-z]{0,3}$/))
  .map(([a, b]): Line => ({ kind: 'bad', text: `x,${a}""${b},z` }));
// A NUL byte (past the first MB of a file, where the header check does not look): DuckDB alone would keep it.
const nulByte = fc
  .tuple(fc.stringMatching(/^[a-z]{0,3}$/), fc.stringMatching(/^[a-z]{0,3}$/), fc.boolean())
  .map(([a, b, quoted]): Line => {
    const cell = `${a}${String.fromCharCode(0)}${b}`;
    return { kind: 'bad', text: `x,${quoted ? `"${cell}"` : cell},z` };
  });
const blank = fc.constant<Line>({ kind: 'blank', text: '' });
const anyLine = fc.oneof(
  { arbitrary: goodLine, weight: 6 },
  { arbitrary: wrongCount, weight: 2 },
  { arbitrary: badByte, weight: 1 },
  { arbitrary: unbalanced, weight: 1 },
  { arbitrary: strayCr, weight: 1 },
  { arbitrary: strayQuote, weight: 1 },
  { arbitrary: nulByte, weight: 1 },
  { arbitrary: blank, weight: 1 },
);

function fileBytes(lines: Line[], crlf: boolean, finalEnd: boolean): Buffer {
  const end = crlf ? '\r\n' : '\n';
  const parts: Buffer[] = [Buffer.from(HEADER.join(',') + end)];
  lines.forEach((l, i) => {
    parts.push(Buffer.isBuffer(l.text) ? l.text : Buffer.from(l.text));
    if (i < lines.length - 1 || finalEnd) parts.push(Buffer.from(end));
  });
  return Buffer.concat(parts);
}

describe('row-by-row CSV scan (DuckDB)', () => {
  let dir: string;
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pf-csv-scan-'));
    instance = await DuckDBInstance.create(':memory:', { preserve_insertion_order: 'true', threads: '1' });
    connection = await instance.connect();
  });

  afterAll(async () => {
    connection.closeSync();
    instance.closeSync();
    await rm(dir, { recursive: true, force: true });
  });

  async function scan(bytes: Buffer, name: string) {
    const file = path.join(dir, name);
    await writeFile(file, bytes);
    await createTable(connection, 'rejects', REJECTS_TABLE);
    await connection.run('CREATE OR REPLACE TABLE t (a VARCHAR, b VARCHAR, c VARCHAR)');
    const prepared = await prepareCsvScan(connection, file, dir, { source: 'nppes', displayName: name });
    await connection.run(`INSERT INTO t SELECT a, b, c FROM ${rowByRowCsvSql(prepared.scanFile, HEADER)}`);
    const staged = Number((await connection.runAndReadAll('SELECT count(*) FROM t')).getRows()[0]?.[0]);
    const unreadable = await collectScanRejects(connection, {
      source: 'nppes',
      file,
      displayName: name,
      staged,
      prepared,
    });
    const rows = (
      await connection.runAndReadAll(
        `SELECT line::INTEGER AS line, a, b, c FROM (${withLinesSql('SELECT rowid AS ordinal, a, b, c FROM t')}) ORDER BY ordinal`,
      )
    ).getRowObjectsJson() as { line: number; a: string | null; b: string | null; c: string | null }[];
    const rejects = (
      await connection.runAndReadAll('SELECT line::INTEGER AS line, reason, raw FROM rejects ORDER BY line')
    ).getRowObjectsJson() as { line: number; reason: string; raw: string }[];
    return { rows, rejects, unreadable, pass: prepared.pass };
  }

  it('stages or rejects every line with its number: none lost, none invented', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(anyLine, { minLength: 1, maxLength: 25 }),
        fc.boolean(),
        fc.boolean(),
        async (lines, crlf, finalEnd) => {
          // A file whose last line is blank has no such line (the line end before it is the file's last).
          while (lines.length > 0 && lines[lines.length - 1]?.kind === 'blank') lines.pop();
          const { rows, rejects, unreadable } = await scan(fileBytes(lines, crlf, finalEnd), 'p.csv');
          const expectGood = lines.flatMap((l, i) => (l.kind === 'good' ? [{ line: i + 2, fields: l.fields }] : []));
          const expectBad = lines.flatMap((l, i) => (l.kind === 'bad' ? [i + 2] : []));
          // DuckDB reads an empty unquoted field as NULL: compare as text.
          expect(rows.map((r) => ({ line: r.line, fields: [r.a ?? '', r.b ?? '', r.c ?? ''] }))).toEqual(expectGood);
          expect(rejects.map((r) => r.line)).toEqual(expectBad);
          expect(unreadable).toBe(expectBad.length);
          for (const r of rejects) expect(r.reason).not.toBe('');
        },
      ),
      { numRuns: 100 },
    );
  });

  it('rejects extra empty fields too (DuckDB alone would read them as trailing delimiters)', async () => {
    const { rows, rejects } = await scan(Buffer.from('a,b,c\n1,2,3,\n4,5,6,x\n,,,,\n"7,","8",9\n'), 't.csv');
    expect(rows).toEqual([{ line: 5, a: '7,', b: '8', c: '9' }]);
    expect(rejects.map((r) => [r.line, r.reason, r.raw])).toEqual([
      [2, 'expected 3 fields, found 4', '1,2,3,'],
      [3, 'expected 3 fields, found 4', '4,5,6,x'],
      [4, 'expected 3 fields, found 5', ',,,,'],
    ]);
  });

  it('keeps the bad line itself as the raw text of its reject', async () => {
    const { rejects } = await scan(Buffer.from('a,b,c\n1,2,3\n4,5\n"open,x,y\n7,8,9\n10,11'), 'r.csv');
    expect(rejects).toEqual([
      { line: 3, reason: 'expected 3 fields, found 2', raw: '4,5' },
      { line: 4, reason: expect.stringMatching(/unbalanced quotes/), raw: '"open,x,y' },
      { line: 6, reason: 'expected 3 fields, found 2', raw: '10,11' },
    ]);
  });

  it('hands a file of many bad lines to DuckDB in batches, and still maps every line', async () => {
    // 12,000 data lines: every third one has a field too many, every seventh is blank.
    const lines = Array.from({ length: 12_000 }, (_, i) =>
      i % 7 === 6 ? '' : i % 3 === 2 ? `${i},x,y,z` : `${i},x,y`,
    );
    const { rows, rejects, unreadable, pass } = await scan(Buffer.from(`a,b,c\n${lines.join('\n')}\n`), 'many.csv');
    const bad = lines.flatMap((l, i) => (l !== '' && i % 3 === 2 ? [i + 2] : []));
    const good = lines.flatMap((l, i) => (l !== '' && i % 3 !== 2 ? [i + 2] : []));
    expect(pass.dataLines).toBe(12_000);
    expect(unreadable).toBe(bad.length);
    expect(rejects.map((r) => r.line)).toEqual(bad);
    expect(rows.map((r) => r.line)).toEqual(good);
    expect(rows.every((r) => Number(r.a) + 2 === r.line)).toBe(true);
  });

  it('sets aside a quote inside an unquoted field, and reads a doubled quote inside a quoted one', async () => {
    const { rows, rejects } = await scan(Buffer.from('a,b,c\n1,O""NEIL,3\n4,"O""NEIL",6\n7,x"",9\n'), 'q.csv');
    expect(rows).toEqual([{ line: 3, a: '4', b: 'O"NEIL', c: '6' }]);
    expect(rejects.map((r) => [r.line, r.reason])).toEqual([
      [2, 'quote inside an unquoted field'],
      [4, 'quote inside an unquoted field'],
    ]);
  });

  it('sets aside a line with a NUL byte wherever it falls, in a line that spans two read chunks too', async () => {
    const CHUNK = 1 << 20;
    const NUL = String.fromCharCode(0);
    const lines: string[] = [];
    let bytes = 'a,b,c\n'.length;
    const fillTo = (offset: number) => {
      while (bytes < offset - 20) {
        const line = `${lines.length},x,y`;
        lines.push(line);
        bytes += line.length + 1;
      }
    };
    // A NUL 2 bytes before the first chunk's end, in a line that goes on into the second chunk.
    fillTo(CHUNK);
    const before = `${lines.length},${'p'.repeat(CHUNK - 2 - bytes - String(lines.length).length - 1)}${NUL}q,z`;
    lines.push(before);
    bytes += Buffer.byteLength(before) + 1;
    const beforeLine = lines.length + 1;
    // A NUL 2 bytes into the third chunk, in a line that began in the second.
    fillTo(2 * CHUNK);
    const head = `${lines.length},${'p'.repeat(2 * CHUNK - bytes - String(lines.length).length - 1)}`;
    const after = `${head}ab${NUL}c,z`;
    lines.push(after);
    const afterLine = lines.length + 1;
    lines.push(`${lines.length},x,y`);
    const file = Buffer.from(`a,b,c\n${lines.join('\n')}\n`);
    expect([file.indexOf(0), file.indexOf(0, CHUNK)]).toEqual([CHUNK - 2, 2 * CHUNK + 2]);
    const { rows, rejects } = await scan(file, 'nul.csv');
    expect(rejects.map((r) => [r.line, r.reason])).toEqual([
      [beforeLine, 'a NUL byte inside the line (the mark of a binary file)'],
      [afterLine, 'a NUL byte inside the line (the mark of a binary file)'],
    ]);
    expect(rows).toHaveLength(lines.length - 2);
  });

  it('sets aside a carriage return inside a line, and reads a last line that ends in a lone carriage return', async () => {
    const { rows, rejects } = await scan(Buffer.from('a,b,c\r\n1,2\r3,4\r\n5,"6\r",7\r\n8,9,10\r'), 'cr.csv');
    expect(rows).toEqual([
      { line: 3, a: '5', b: '6\r', c: '7' },
      { line: 4, a: '8', b: '9', c: '10' },
    ]);
    expect(rejects.map((r) => [r.line, r.reason])).toEqual([[2, 'a carriage return inside the line, outside quotes']]);
  });
});
