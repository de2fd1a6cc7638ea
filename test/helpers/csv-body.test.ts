/** The CSV reader of the test helpers must read back exactly what the API's CSV writer wrote. */
import fc from 'fast-check';
import { toCsv } from '../../data-contracts/csv';
import { parseCsvBody, parseCsvTable } from './csv-body';

const neutralised = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

describe('parseCsvBody', () => {
  it('reads back every header and row that toCsv wrote, quotes, commas and line breaks included', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', ',', '"', '\r', '\n', '=', '@', 'é', '1') });
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z][a-z_]{0,8}$/), { minLength: 1, maxLength: 5 }),
        fc.array(fc.array(cell, { minLength: 5, maxLength: 5 }), { maxLength: 6 }),
        (columns, cells) => {
          const records = cells.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i] as string])));
          const parsed = parseCsvTable(toCsv(columns, records));
          expect(parsed.header).toEqual(columns);
          expect(parsed.rows).toEqual(cells.map((row) => columns.map((_, i) => neutralised(row[i] as string))));
        },
      ),
    );
  });

  it('accepts LF records and a body without a final line break', () => {
    expect(parseCsvBody('a,b\nx,"y ""z"""')).toEqual({ header: ['a', 'b'], rows: [['x', 'y "z"']] });
  });

  it('refuses an unclosed quote, text after a closing quote and a row of the wrong width', () => {
    expect(() => parseCsvBody('a\r\n"x\r\n')).toThrow('never closed');
    expect(() => parseCsvBody('a\r\n"x"y\r\n')).toThrow('after a closing quote');
    expect(() => parseCsvTable('a,b\r\nx\r\n')).toThrow('row 1 has 1 fields');
  });
});
