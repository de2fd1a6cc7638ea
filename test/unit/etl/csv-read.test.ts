import { parseCsv } from '../../../etl/csv-read';

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
