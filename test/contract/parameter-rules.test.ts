/**
 * Ties the parameter rules (data-contracts/parameter-rules.ts) to both their readers: every OpenAPI parameter a rule
 * governs carries exactly the rule's bounds and pattern, and the API's parsers accept each bound and refuse one past
 * it with the error code the document names.
 */
import type { PublishBoundary } from '../../data-contracts/constants';
import openApiJson from '../../data-contracts/openapi.json';
import { NPI_LIST_MAX, NPI_PATTERN, PARAMETER_RULES, type ParameterRule } from '../../data-contracts/parameter-rules';
import { ApiError } from '../../lambdas/core/api-error';
import { npiProblem, parseNpi, parseNpiList } from '../../lambdas/core/npi-params';
import { parseLimit, parseListRequest, parseOffset, type RawQuery } from '../../lambdas/core/params';
import { createApp } from '../../lambdas/http/app';
import { FAKE_KEYS, fakeDeps } from '../helpers/api-fake-deps';

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  description?: string;
  schema: Schema;
}

const BOUND_KEYS = ['minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'default', 'maxItems'] as const;
const document = openApiJson as unknown as {
  paths: Record<string, { get: { operationId: string; parameters?: ({ $ref: string } | Parameter)[] } }>;
  components: {
    parameters: Record<string, Parameter>;
    schemas: Record<string, { properties: Record<string, Schema> }>;
  };
};

function parameterOf(operationId: string, where: string, name: string): Parameter {
  const operation = Object.values(document.paths).find((item) => item.get.operationId === operationId)?.get;
  for (const p of operation?.parameters ?? []) {
    const resolved = '$ref' in p ? document.components.parameters[p.$ref.replace('#/components/parameters/', '')] : p;
    if (resolved?.name === name && resolved.in === where) return resolved;
  }
  throw new Error(`${operationId} has no ${where} parameter ${name}`);
}

/** The bounds a schema carries, as a rule. */
const boundsOf = (schema: Schema): ParameterRule =>
  Object.fromEntries(BOUND_KEYS.filter((key) => key in schema).map((key) => [key, schema[key]]));

/** The error code a parse throws, or null when it accepts. */
function codeOf(parse: () => unknown): string | null {
  try {
    parse();
    return null;
  } catch (err) {
    if (err instanceof ApiError) return err.code;
    throw err;
  }
}

const NPI = '1003633876';
const list = (query: RawQuery) => () => parseListRequest(query);
const text = (n: number) => 'a'.repeat(n);

/** Where each rule stands in the document: [operation, in, name]. */
const PLACES: Record<keyof typeof PARAMETER_RULES, [string, string, string][]> = {
  taxonomy: [['listProviders', 'query', 'taxonomy']],
  name: [['listProviders', 'query', 'name']],
  postal_code: [['listProviders', 'query', 'postal_code']],
  state: [['listProviders', 'query', 'state']],
  city: [['listProviders', 'query', 'city']],
  near: [['listProviders', 'query', 'near']],
  radius_miles: [['listProviders', 'query', 'radius_miles']],
  limit: [
    ['listProviders', 'query', 'limit'],
    ['listChanges', 'query', 'limit'],
  ],
  offset: [
    ['listProviders', 'query', 'offset'],
    ['listChanges', 'query', 'offset'],
  ],
  roster: [['listProviders', 'query', 'npi']],
  providerId: [['getProvider', 'path', 'id']],
  npi: [['getNpi', 'path', 'npi']],
};

describe('parameter rules', () => {
  it.each(Object.entries(PLACES))('%s: the OpenAPI schema carries exactly the rule', (rule, places) => {
    for (const [operation, where, name] of places) {
      expect(boundsOf(parameterOf(operation, where, name).schema)).toEqual(
        PARAMETER_RULES[rule as keyof typeof PARAMETER_RULES],
      );
    }
  });

  it('taxonomy: the longest is accepted, one more is 400 invalid_parameter', () => {
    const { maxLength } = PARAMETER_RULES.taxonomy;
    expect(codeOf(list({ taxonomy: text(maxLength) }))).toBeNull();
    expect(codeOf(list({ taxonomy: text(maxLength + 1) }))).toBe('invalid_parameter');
  });

  it('name: both bounds accepted, one past either is 400 invalid_parameter', () => {
    const { minLength, maxLength } = PARAMETER_RULES.name;
    for (const n of [minLength, maxLength]) expect(codeOf(list({ name: text(n), state: 'TX' }))).toBeNull();
    for (const n of [minLength - 1, maxLength + 1]) {
      expect(codeOf(list({ name: text(n), state: 'TX' }))).toBe('invalid_parameter');
    }
  });

  it('radius_miles: both bounds and decimals accepted, one past either is 400 invalid_radius', () => {
    const { minimum, maximum } = PARAMETER_RULES.radius_miles;
    const near = (radius: string) => list({ taxonomy: '363L00000X', near: '10001', radius_miles: radius });
    for (const r of [String(minimum), String(maximum), '12.5', '1.0']) expect(codeOf(near(r))).toBeNull();
    for (const r of ['0.99', '100.01', '0', '-5', 'abc', '1e1', '25mi', '']) {
      expect(codeOf(near(r))).toBe(r === '' ? null : 'invalid_radius');
    }
    expect(codeOf(list({ taxonomy: '363L00000X', radius_miles: '10' }))).toBe('invalid_radius');
  });

  it('near: ZIPs and points in the US areas accepted; malformed or foreign points are 400 invalid_near', () => {
    const pattern = new RegExp(PARAMETER_RULES.near.pattern);
    const accepted = ['10001', '00501', '40.7506,-73.9973', '40.7506, -73.9973', '21.3,-157.85', '13.47,144.75'];
    for (const near of accepted) expect(codeOf(list({ taxonomy: '363L00000X', near }))).toBeNull();
    // Shaped right but outside the US (London, Tokyo, the open Atlantic): refused by the areas, not the pattern.
    for (const near of ['51.5,-0.12', '35.68,139.69', '30,-40']) {
      expect(pattern.test(near)).toBe(true);
      expect(codeOf(list({ taxonomy: '363L00000X', near }))).toBe('invalid_near');
    }
    for (const near of ['1000', '100011', 'abcde', '40.7', '40.7,', ',-73.9', '40.7;-73.9', '91,-73', 'NaN,NaN']) {
      expect(codeOf(list({ taxonomy: '363L00000X', near }))).toBe('invalid_near');
    }
  });

  it('near: with a place filter or a roster, or without taxonomy or name, is 400 near_conflict', () => {
    const near = { near: '10001' };
    expect(codeOf(list({ ...near, taxonomy: '363L00000X', state: 'NY' }))).toBe('near_conflict');
    expect(codeOf(list({ ...near, taxonomy: '363L00000X', city: 'New York' }))).toBe('near_conflict');
    expect(codeOf(list({ ...near, name: 'smi', postal_code: '10001' }))).toBe('near_conflict');
    expect(codeOf(list({ ...near, npi: NPI }))).toBe('near_conflict');
    expect(codeOf(list({ ...near, vertical: 'glp1', state: 'TX' }))).toBe('near_conflict');
    expect(codeOf(list({ ...near, entity_type: 'individual' }))).toBe('near_conflict');
    // The shapes near does take: a taxonomy (with entity_type), a name without state, a vertical with business_mode.
    expect(codeOf(list({ ...near, taxonomy: '363L00000X', entity_type: 'individual' }))).toBeNull();
    expect(codeOf(list({ ...near, name: 'smi' }))).toBeNull();
    expect(codeOf(list({ ...near, vertical: 'glp1', business_mode: 'physical' }))).toBeNull();
  });

  it('city: the longest is accepted, one more is 400 invalid_parameter', () => {
    const { maxLength } = PARAMETER_RULES.city;
    expect(codeOf(list({ vertical: 'glp1', city: text(maxLength) }))).toBeNull();
    expect(codeOf(list({ vertical: 'glp1', city: text(maxLength + 1) }))).toBe('invalid_parameter');
  });

  it.each([
    ['postal_code', { state: 'TX' }, ['77030', '00501'], ['7703', '770301', '7703a', 'abcde']],
    ['state', { vertical: 'glp1' }, ['TX', 'tx', 'Ny'], ['T', 'TEX', 'T1', '12']],
  ] as const)(
    '%s: the parser accepts what the pattern matches, 400 invalid_parameter otherwise',
    (name, rest, good, bad) => {
      const pattern = new RegExp(PARAMETER_RULES[name].pattern);
      for (const value of good) {
        expect(pattern.test(value)).toBe(true);
        expect(codeOf(list({ ...rest, [name]: value }))).toBeNull();
      }
      for (const value of bad) {
        expect(pattern.test(value)).toBe(false);
        expect(codeOf(list({ ...rest, [name]: value }))).toBe('invalid_parameter');
      }
    },
  );

  it('limit: default, both bounds accepted, one past either is 400 invalid_limit', () => {
    const { minimum, maximum } = PARAMETER_RULES.limit;
    expect(parseLimit(undefined)).toBe(PARAMETER_RULES.limit.default);
    for (const n of [minimum, maximum]) expect(parseLimit(String(n))).toBe(n);
    for (const n of [minimum - 1, maximum + 1]) expect(codeOf(() => parseLimit(String(n)))).toBe('invalid_limit');
  });

  it('offset: default and minimum accepted, one below is 400 invalid_offset', () => {
    const { minimum } = PARAMETER_RULES.offset;
    expect(parseOffset(undefined)).toBe(PARAMETER_RULES.offset.default);
    expect(parseOffset(String(minimum))).toBe(minimum);
    expect(codeOf(() => parseOffset(String(minimum - 1)))).toBe('invalid_offset');
  });

  it('roster and numbers: NPI_LIST_MAX NPIs accepted, one more is 400 invalid_parameter; as documented', () => {
    const npis = (n: number) => Array.from({ length: n }, () => NPI).join(',');
    expect(PARAMETER_RULES.roster.minLength).toBe(NPI.length);
    expect(codeOf(list({ npi: npis(NPI_LIST_MAX) }))).toBeNull();
    expect(codeOf(list({ npi: npis(NPI_LIST_MAX + 1) }))).toBe('invalid_parameter');
    expect(codeOf(list({ npi: NPI.slice(1) }))).toBe('invalid_npi');
    expect(parseNpiList(npis(NPI_LIST_MAX))).toHaveLength(NPI_LIST_MAX);
    expect(codeOf(() => parseNpiList(npis(NPI_LIST_MAX + 1)))).toBe('invalid_parameter');
    expect(parameterOf('listProviders', 'query', 'npi').description).toContain(`up to ${NPI_LIST_MAX} `);
    expect(parameterOf('listNpis', 'query', 'numbers').description).toContain(`1 to ${NPI_LIST_MAX}.`);
  });

  it('npi: the NPI pattern of the document is the one the parser checks; anything else is 400 invalid_npi', () => {
    expect(document.components.schemas.IdentityProvider?.properties.npi?.pattern).toBe(NPI_PATTERN);
    expect(npiProblem(NPI)).toBeNull();
    expect(parseNpi(NPI)).toBe(NPI);
    for (const bad of [NPI.slice(1), `${NPI}0`, text(PARAMETER_RULES.npi.maxLength + 1)]) {
      expect(new RegExp(NPI_PATTERN).test(bad)).toBe(false);
      expect(codeOf(() => parseNpi(bad))).toBe('invalid_npi');
    }
  });

  it('providerId: the longest id is looked up, a longer one is 404 not_found without a lookup', async () => {
    const { maxLength } = PARAMETER_RULES.providerId;
    for (const [n, lookups] of [
      [maxLength, 1],
      [maxLength + 1, 0],
    ] as const) {
      const boundaries: PublishBoundary[] = [];
      const app = createApp(fakeDeps({ keys: FAKE_KEYS, boundaries }));
      const res = await app.request(`/api/v1/providers/${text(n)}`, { headers: { 'x-api-key': 'free' } });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('not_found');
      expect(boundaries).toHaveLength(lookups);
    }
  });
});
