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

describe('identity search parameters', () => {
  const messageOf = (fn: () => unknown): string => {
    try {
      fn();
    } catch (err) {
      return err instanceof ApiError ? `${err.code}: ${err.message} ${err.details.hint ?? ''}` : 'not-an-api-error';
    }
    return 'accepted';
  };

  it.each([
    [{ name: 'smi', state: 'tx' }, { name: 'smi', postalCode: null, entityType: null, npis: null }, 'TX'],
    [{ name: '  Mc   Donald ', state: 'NY' }, { name: 'Mc Donald' }, 'NY'],
    [
      { postal_code: '77030', state: 'TX', entity_type: 'organization' },
      { postalCode: '77030', entityType: 'organization' },
      'TX',
    ],
    [{ npi: '1003633876, 1114636115,1003633876' }, { npis: ['1003633876', '1114636115'] }, null],
    [{ npi: '1003633876', entity_type: 'individual', name: 'ka' }, { entityType: 'individual', name: 'ka' }, null],
  ])('accepts %j', (query, search, state) => {
    const request = parseListRequest(query);
    expect(request).toMatchObject({ path: 'identity', taxonomy: null, state, search });
  });

  it('keeps a taxonomy list a list, and lets a taxonomy narrow a search', () => {
    expect(parseListRequest({ taxonomy: '363L00000X', state: 'TX' })).toMatchObject({ search: null });
    expect(parseListRequest({ taxonomy: '363L00000X', name: 'sm', state: 'TX' })).toMatchObject({
      taxonomy: '363L00000X',
      search: { name: 'sm' },
    });
  });

  it.each([
    [{ name: 'smith' }, 'invalid_parameter: A name search runs within one state: add state.'],
    [{ postal_code: '77030' }, 'invalid_parameter: A postal_code search runs within one state: add state.'],
    [
      { entity_type: 'individual', state: 'TX' },
      'invalid_parameter: entity_type narrows a name, postal_code or npi search.',
    ],
    [{ entity_type: 'individual', taxonomy: '363L00000X' }, 'invalid_parameter: entity_type narrows'],
    [{ name: 's', state: 'TX' }, 'invalid_parameter: name must be 2 to 100 characters'],
    [{ name: 'x'.repeat(101), state: 'TX' }, 'invalid_parameter: name must be 2 to 100 characters'],
    [{ postal_code: '7703', state: 'TX' }, 'invalid_parameter: postal_code must be a 5-digit ZIP code.'],
    [{ postal_code: '77030-1234', state: 'TX' }, 'invalid_parameter: postal_code must be a 5-digit ZIP code.'],
    [
      { entity_type: 'person', name: 'sm', state: 'TX' },
      'invalid_parameter: entity_type must be one of individual, organization.',
    ],
    [{ npi: '1234567890' }, 'invalid_npi: Not a valid NPI.'],
    [{ npi: Array(101).fill('1003633876').join(',') }, 'invalid_parameter: npi lists 101 NPIs; at most 100 per call.'],
    [
      { vertical: 'glp1', name: 'sm', state: 'TX' },
      'invalid_parameter: name, postal_code, entity_type and npi search the identity layer',
    ],
    [{ state: 'TX' }, 'invalid_parameter: Give vertical (vertical layer), or taxonomy, name, postal_code or npi'],
  ])('refuses %j with a clear message', (query, message) => {
    expect(messageOf(() => parseListRequest(query))).toContain(message);
  });

  it('gives a hint with every refusal of a search shape', () => {
    expect(messageOf(() => parseListRequest({ name: 'smith' }))).toContain('e.g. name=smith&state=TX');
    expect(messageOf(() => parseListRequest({ entity_type: 'individual' }))).toContain(
      'e.g. name=smith&state=TX&entity_type=individual',
    );
  });
});
