/** Each LEIE file's as-of: given (once per file, or once for the first file), or from its name; never decreasing. */
import { LeieAsOfError, leieAsOfFromName, resolveLeieAsOfs } from '../../../../etl/transforms/leie-as-of';

describe('leieAsOfFromName', () => {
  it.each([
    ['inputs/leie/UPDATED-2026-10-03.csv', '2026-10-03T00:00:00Z'],
    ['leie_20261103.csv', '2026-11-03T00:00:00Z'],
    ['2611EXCL.csv', '2026-12-01T00:00:00Z'],
    ['s3://bucket/inputs/2612REIN.CSV', '2027-01-01T00:00:00Z'],
    ['UPDATED.csv', null],
    ['leie_20261332.csv', null],
    ['2613EXCL.csv', null],
    ['leie_202611031.csv', null],
  ])('reads %s as %j', (name, expected) => {
    expect(leieAsOfFromName(name)).toBe(expected);
  });
});

describe('resolveLeieAsOfs', () => {
  it('takes one as-of per file, or one for the first and the rest from the names', () => {
    expect(resolveLeieAsOfs(['a.csv', 'b.csv'], ['2026-10-03T00:00:00Z', '2026-11-03T12:00:00+02:00'])).toEqual([
      '2026-10-03T00:00:00Z',
      '2026-11-03T10:00:00Z',
    ]);
    expect(resolveLeieAsOfs(['UPDATED.csv', '2610REIN.csv'], '2026-10-03T00:00:00Z')).toEqual([
      '2026-10-03T00:00:00Z',
      '2026-11-01T00:00:00Z',
    ]);
    expect(resolveLeieAsOfs(['2026-10-03.csv'], [])).toEqual(['2026-10-03T00:00:00Z']);
    expect(resolveLeieAsOfs([], [])).toEqual([]);
  });

  it.each([
    [['UPDATED.csv', 'supplement.csv'], ['2026-10-03T00:00:00Z'], /no LEIE as-of for supplement\.csv/],
    [['a.csv', 'b.csv', 'c.csv'], ['2026-10-03T00:00:00Z', '2026-10-04T00:00:00Z'], /2 LEIE as-ofs for 3 LEIE files/],
    [['a.csv'], ['2026-10-03'], /not an ISO date-time/],
    [['UPDATED.csv', '2609EXCL.csv'], ['2026-10-03T00:00:00Z'], /must not decrease in file order: 2609EXCL\.csv/],
  ])('refuses %j with %j', (files, given, message) => {
    expect(() => resolveLeieAsOfs(files, given)).toThrow(LeieAsOfError);
    expect(() => resolveLeieAsOfs(files, given)).toThrow(message);
  });
});
