import { ApiError } from '../../../../lambdas/core/api-error';
import { parseLimit, parseListRequest, parseOffset, parseState } from '../../../../lambdas/core/params';

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (err) {
    return err instanceof ApiError ? err.code : 'not-an-api-error';
  }
  return undefined;
};

describe('parameter parsing', () => {
  it('defaults limit to 50 and offset to 0', () => {
    expect(parseListRequest({ vertical: 'glp1' })).toMatchObject({ limit: 50, offset: 0, format: 'json' });
  });

  it.each(['0', '1001', '1.5', 'abc', '01', '+5', '1e3', ' 5', '-1'])('refuses limit=%s with invalid_limit', (raw) => {
    expect(codeOf(() => parseLimit(raw))).toBe('invalid_limit');
  });

  it.each([
    ['1', 1],
    ['1000', 1000],
    ['50', 50],
  ])('accepts limit=%s', (raw, n) => {
    expect(parseLimit(raw)).toBe(n);
  });

  it.each(['-1', '1.0', 'x', '00', '99999999999999999999'])('refuses offset=%s with invalid_offset', (raw) => {
    expect(codeOf(() => parseOffset(raw))).toBe('invalid_offset');
  });

  it('upper-cases a two-letter state and refuses anything else with invalid_parameter', () => {
    expect(parseState('tx')).toBe('TX');
    for (const bad of ['T', 'TEX', 'T1', 'Texas']) expect(codeOf(() => parseState(bad))).toBe('invalid_parameter');
  });

  it('refuses an unknown vertical and business_mode with their own codes', () => {
    expect(codeOf(() => parseListRequest({ vertical: 'GLP1' }))).toBe('invalid_vertical');
    expect(codeOf(() => parseListRequest({ vertical: 'glp1', business_mode: 'mobile' }))).toBe('invalid_business_mode');
  });

  it('refuses bad format and include, and a list with neither vertical nor taxonomy, with invalid_parameter', () => {
    expect(codeOf(() => parseListRequest({ vertical: 'glp1', format: 'xml' }))).toBe('invalid_parameter');
    expect(codeOf(() => parseListRequest({ vertical: 'glp1', include: 'everything' }))).toBe('invalid_parameter');
    expect(codeOf(() => parseListRequest({ state: 'TX' }))).toBe('invalid_parameter');
  });

  it('ignores taxonomy when vertical is present and treats empty values as absent', () => {
    expect(parseListRequest({ vertical: 'glp1', taxonomy: '363L00000X', state: '' })).toMatchObject({
      path: 'vertical',
      state: null,
    });
    expect(parseListRequest({ taxonomy: ' Nurse Practitioner ', limit: '' })).toMatchObject({
      path: 'identity',
      taxonomy: 'Nurse Practitioner',
      limit: 50,
    });
  });
});
