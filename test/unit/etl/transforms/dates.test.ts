import {
  compactDateSql,
  expandTwoDigitYear,
  parseCompactDate,
  parseUsDate,
  usDateSql,
} from '../../../../etl/transforms/dates';
import { isoSeconds } from '../../../../platform/iso-time';
import { evalSqlOver } from './sql-twins';

const US_CASES: [string, string | null][] = [
  ['6/15/26', '2026-06-15'], // re-saved NPPES form
  ['9/23/24', '2024-09-23'],
  ['06/15/2026', '2026-06-15'], // CMS form
  ['07/27/2026', '2026-07-27'],
  ['1/2/05', '2005-01-02'],
  ['12/31/68', '2068-12-31'],
  ['1/1/69', '1969-01-01'],
  [' 6/15/26 ', '2026-06-15'],
  ['02/29/2024', '2024-02-29'],
  ['02/30/2026', null],
  ['13/01/2026', null],
  ['6/15/202', null],
  ['2026-06-15', null],
  ['', null],
  ['N/A', null],
];

describe('NPPES and FDA dates', () => {
  it.each(US_CASES)('parses %j as %j', (text, iso) => {
    expect(parseUsDate(text)).toBe(iso);
  });

  it('expands two-digit years with the POSIX pivot', () => {
    expect(expandTwoDigitYear(0)).toBe(2000);
    expect(expandTwoDigitYear(68)).toBe(2068);
    expect(expandTwoDigitYear(69)).toBe(1969);
    expect(expandTwoDigitYear(99)).toBe(1999);
  });

  it('parses the same way in SQL (the NPPES scan) as in TypeScript', async () => {
    const sql = await evalSqlOver(
      usDateSql,
      US_CASES.map(([text]) => text),
    );
    expect(sql).toEqual(US_CASES.map(([, iso]) => iso));
  });
});

describe('LEIE dates', () => {
  const CASES: [string, string | null][] = [
    ['20131219', '2013-12-19'],
    ['20260920', '2026-09-20'],
    ['00000000', null],
    ['20260231', null],
    ['2026092', null],
    ['', null],
  ];

  it.each(CASES)('parses %j as %j', (text, iso) => {
    expect(parseCompactDate(text)).toBe(iso);
  });

  it('parses the same way in SQL', async () => {
    expect(
      await evalSqlOver(
        compactDateSql,
        CASES.map(([t]) => t),
      ),
    ).toEqual(CASES.map(([, iso]) => iso));
  });
});

it('writes snapshot times to the second in UTC', () => {
  expect(isoSeconds(new Date('2026-11-21T05:38:00.789Z'))).toBe('2026-11-21T05:38:00Z');
});
