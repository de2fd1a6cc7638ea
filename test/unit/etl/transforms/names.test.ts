import { formatIndividualName, formatOrganisationName, individualNameSql } from '../../../../etl/transforms/names';
import { evalSqlOver } from './sql-twins';

describe('identity names', () => {
  it('formats an individual as FIRST MIDDLE LAST SUFFIX, CREDENTIAL in registry casing', () => {
    expect(formatIndividualName({ first: 'JANE', middle: 'Q', last: 'DOE', suffix: 'JR.', credential: 'M.D.' })).toBe(
      'JANE Q DOE JR., M.D.',
    );
    expect(formatIndividualName({ first: 'Nicole', last: 'Lindberg' })).toBe('Nicole Lindberg');
    expect(formatIndividualName({ first: 'GABRIEL', last: 'REA ORTEGA', credential: 'PHARMD' })).toBe(
      'GABRIEL REA ORTEGA, PHARMD',
    );
  });

  it('skips blank parts and collapses spaces', () => {
    expect(formatIndividualName({ first: '  ANNA ', middle: '', last: 'VAN  DER BERG', credential: ' ' })).toBe(
      'ANNA VAN DER BERG',
    );
  });

  it('has no name when only a credential is present', () => {
    expect(formatIndividualName({ credential: 'MD' })).toBeNull();
    expect(formatIndividualName({})).toBeNull();
  });

  it('keeps an organisation legal name as registered, blank as null', () => {
    expect(formatOrganisationName('ACME HEALTH, LLC')).toBe('ACME HEALTH, LLC');
    expect(formatOrganisationName('   ')).toBeNull();
  });

  it('formats the same way in SQL (the NPPES scan)', async () => {
    const cases = [
      ['JANE', 'Q', 'DOE', 'JR.', 'M.D.'],
      ['Nicole', '', 'Lindberg', '', ''],
      ['', '', '', '', 'MD'],
      [' ANNA ', '', 'VAN  DER BERG', '', 'RN'],
    ];
    // Pack the five parts in one cell; the SQL splits them back into columns.
    const packed = cases.map((c) => c.join('|'));
    const part = (col: string, i: number) => `nullif(split_part(${col}, '|', ${i}), '')`;
    const sql = await evalSqlOver(
      (col) =>
        individualNameSql({
          first: part(col, 1),
          middle: part(col, 2),
          last: part(col, 3),
          suffix: part(col, 4),
          credential: part(col, 5),
        }),
      packed,
    );
    expect(sql).toEqual(
      cases.map(([first, middle, last, suffix, credential]) =>
        formatIndividualName({ first, middle, last, suffix, credential }),
      ),
    );
  });
});
