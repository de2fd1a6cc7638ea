import fc from 'fast-check';
import { decodeUtf8Lines, parseCsv, parseCsvRecords } from '../../../etl/csv/read';

describe('the feed CSV reader', () => {
  it('reads CRLF and LF records with their starting line numbers', () => {
    const records = parseCsv('a,b\r\n1,2\r\n3,4');
    expect(records.map((r) => [r.line, r.fields])).toEqual([
      [1, ['a', 'b']],
      [2, ['1', '2']],
      [3, ['3', '4']],
    ]);
  });

  it('unquotes fields, doubles quotes, and counts lines inside quoted fields', () => {
    const records = parseCsv('a,b\n"x, ""y""","multi\nline"\nz,\n');
    expect(records[1]?.fields).toEqual(['x, "y"', 'multi\nline']);
    expect(records[2]).toMatchObject({ line: 4, fields: ['z', ''] });
  });

  it('drops a leading BOM', () => {
    expect(parseCsv('\uFEFFPosted Date,x\n1,2')[0]?.fields).toEqual(['Posted Date', 'x']);
  });

  it('refuses an unterminated quote', () => {
    expect(() => parseCsv('a\n"open')).toThrow(/unterminated/);
  });
});

/** A generated line of a small source file and what must become of it. */
type Line = { kind: 'record'; fields: string[]; text: string } | { kind: 'bad'; text: Buffer } | { kind: 'blank' };

const cell = fc.string({ unit: 'binary', maxLength: 6 }).map((s) => s.replace(/[\r\n\uFEFF]/g, ''));
const record = fc
  .tuple(fc.array(cell, { minLength: 1, maxLength: 5 }), fc.boolean())
  .filter(([fields]) => !(fields.length === 1 && fields[0] === ''))
  .map(([fields, quoteAll]): Line => {
    const text = fields.map((f) => (quoteAll || /[",]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(',');
    return { kind: 'record', fields, text };
  });
const strayQuote = fc
  .tuple(fc.stringMatching(/^[a-z]{1,4}$/), fc.stringMatching(/^[a-z,]{0,4}$/))
  .map(([a, b]): Line => ({ kind: 'bad', text: Buffer.from(`x,${a}"${b},z`) }));
const unterminated = fc
  .stringMatching(/^[a-z, ]{0,6}$/)
  .map((s): Line => ({ kind: 'bad', text: Buffer.from(`"${s}`) }));
const badByte = fc
  .tuple(fc.stringMatching(/^[a-z]{0,4}$/), fc.constantFrom(0xff, 0xc3, 0x80, 0xed))
  .map(([s, b]): Line => ({ kind: 'bad', text: Buffer.concat([Buffer.from(`x,${s}`), Buffer.from([b])]) }));
const blankLine = fc.constant<Line>({ kind: 'blank' });
const anyLine = fc.oneof(
  { arbitrary: record, weight: 6 },
  { arbitrary: strayQuote, weight: 1 },
  { arbitrary: badByte, weight: 1 },
  { arbitrary: blankLine, weight: 1 },
);
/** Records without a quote: after a quote that is never closed, a later quote would close it (RFC 4180). */
const quoteFreeRecord = fc
  .array(fc.stringMatching(/^[a-z0-9 ]{0,5}$/), { minLength: 1, maxLength: 4 })
  .filter((f) => !(f.length === 1 && f[0] === ''))
  .map((fields): Line => ({ kind: 'record', fields, text: fields.join(',') }));
/** Lines that may follow a quote never closed: none holds a quote. */
const quoteFreeLine = fc.oneof(quoteFreeRecord, badByte, blankLine);
/** A file's lines: any lines, then optionally a quote never closed followed by quote-free lines. */
const fileLines = fc
  .tuple(
    fc.array(anyLine, { maxLength: 20 }),
    fc.option(fc.tuple(unterminated, fc.array(quoteFreeLine, { maxLength: 8 }))),
  )
  .map(([head, tail]) => (tail === null ? head : [...head, tail[0], ...tail[1]]));

describe('parseCsvRecords and decodeUtf8Lines (property)', () => {
  it('reads or sets aside every line with its number: none lost, none invented', () => {
    fc.assert(
      fc.property(fileLines, fc.boolean(), fc.boolean(), (lines, crlf, finalEnd) => {
        const end = crlf ? '\r\n' : '\n';
        const parts: Buffer[] = [];
        lines.forEach((l, i) => {
          parts.push(l.kind === 'blank' ? Buffer.alloc(0) : Buffer.isBuffer(l.text) ? l.text : Buffer.from(l.text));
          if (i < lines.length - 1 || finalEnd) parts.push(Buffer.from(end));
        });
        const decoded = decodeUtf8Lines(Buffer.concat(parts));
        const { records, bad } = parseCsvRecords(decoded.text);
        const got = records.filter((r) => r.raw.trim() !== '').map((r) => ({ line: r.line, fields: r.fields }));
        // A line of white space only is blank, as readSmallCsv reads it.
        const expected = lines.flatMap((l, i) =>
          l.kind === 'record' && l.text.trim() !== '' ? [{ line: i + 1, fields: l.fields }] : [],
        );
        expect(got).toEqual(expected);
        const badLines = [...decoded.bad, ...bad].map((b) => b.line).sort((a, b) => a - b);
        expect(badLines).toEqual(lines.flatMap((l, i) => (l.kind === 'bad' ? [i + 1] : [])));
      }),
      { numRuns: 300 },
    );
  });

  it('sets aside a stray quote and an invalid byte with their lines and raw text, and reads on', () => {
    const decoded = decodeUtf8Lines(
      Buffer.concat([Buffer.from('a,b\n1,x"y\n2,\xff'), Buffer.from([0xff]), Buffer.from('\n"3",4\n"open\n5,6')]),
    );
    const { records, bad } = parseCsvRecords(decoded.text);
    expect(records.filter((r) => r.raw !== '').map((r) => [r.line, r.fields])).toEqual([
      [1, ['a', 'b']],
      [4, ['3', '4']],
      [6, ['5', '6']],
    ]);
    expect(decoded.bad.map((b) => [b.line, b.reason])).toEqual([[3, 'invalid UTF-8 byte sequence']]);
    expect(bad).toEqual([
      { line: 2, reason: 'quote inside an unquoted field', raw: '1,x"y' },
      { line: 5, reason: 'unterminated quoted field', raw: '"open' },
    ]);
  });
});
