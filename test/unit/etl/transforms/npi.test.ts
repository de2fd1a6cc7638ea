import fc from 'fast-check';
import { isValidNpi } from '../../../../data-contracts/npi-check';
import { npiCheckSql } from '../../../../etl/transforms/npi';
import { evalSqlOver } from './sql-twins';

describe('the NPI check digit', () => {
  it('accepts NPIs from the real sources (CMS example, NPPES, LEIE)', () => {
    for (const npi of ['1234567893', '1508798976', '1265743900', '1255407482', '1851806699']) {
      expect(isValidNpi(npi)).toBe(true);
    }
  });

  it('rejects a wrong check digit, wrong lengths and non-digits', () => {
    for (const npi of ['1234567890', '1900000055', '123456789', '12345678931', '12345678X3', '', ' 1234567893']) {
      expect(isValidNpi(npi)).toBe(false);
    }
  });

  it('has exactly one valid check digit for every nine-digit body', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{9}$/), (body) => {
        const valid = Array.from({ length: 10 }, (_, d) => `${body}${d}`).filter(isValidNpi);
        expect(valid).toHaveLength(1);
      }),
    );
  });

  it('gives the same verdict in SQL as in TypeScript', async () => {
    const samples = fc.sample(fc.stringMatching(/^[0-9]{10}$/), 300);
    const inputs = [...samples, '1234567893', '1234567890', 'abc', '', null, '12345678931'];
    const sql = await evalSqlOver(npiCheckSql, inputs);
    expect(sql).toEqual(inputs.map((v) => String(v === null ? false : isValidNpi(v))));
  });
});
