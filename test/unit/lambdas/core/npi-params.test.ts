import fc from 'fast-check';
import { NPI_BATCH_MAX } from '../../../../data-contracts/constants';
import { ApiError } from '../../../../lambdas/core/api-error';
import { npiProblem, parseNpi, parseNpiList } from '../../../../lambdas/core/npi-params';

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return err instanceof ApiError ? err.code : 'other';
  }
  return null;
};

describe('parseNpi', () => {
  it('returns a valid NPI and refuses malformed ones with 400 invalid_npi', () => {
    expect(parseNpi('1234567893')).toBe('1234567893');
    for (const bad of ['1234567890', '123', 'abcdefghij', '', '12345678931']) {
      expect(codeOf(() => parseNpi(bad))).toBe('invalid_npi');
    }
  });

  it('says why: length or check digit', () => {
    expect(npiProblem('12345')).toMatch(/10 digits/);
    expect(npiProblem('1234567890')).toMatch(/check digit/);
    expect(npiProblem('1234567893')).toBeNull();
  });
});

describe('parseNpiList', () => {
  it('keeps the order asked, duplicates and malformed entries included, trimmed', () => {
    expect(parseNpiList('1234567893, 12345,1234567893')).toEqual(['1234567893', '12345', '1234567893']);
  });

  it('refuses a missing or empty list and more than 100 NPIs with invalid_parameter', () => {
    expect(codeOf(() => parseNpiList(undefined))).toBe('invalid_parameter');
    expect(codeOf(() => parseNpiList(''))).toBe('invalid_parameter');
    const list = (n: number) => Array.from({ length: n }, () => '1234567893').join(',');
    expect(parseNpiList(list(NPI_BATCH_MAX))).toHaveLength(NPI_BATCH_MAX);
    expect(codeOf(() => parseNpiList(list(NPI_BATCH_MAX + 1)))).toBe('invalid_parameter');
  });

  it('round-trips any list of 1 to 100 comma-free items', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[0-9A-Za-z]{1,12}$/), { minLength: 1, maxLength: NPI_BATCH_MAX }),
        (items) => {
          expect(parseNpiList(items.join(','))).toEqual(items);
        },
      ),
    );
  });
});
