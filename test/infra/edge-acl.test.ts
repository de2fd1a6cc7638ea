/**
 * The web ACL's decisions that can be run here: its key patterns (written in the subset of PCRE that JavaScript
 * shares, so they run as JavaScript regular expressions) against the API's own reading of a key, and the query sizes
 * behind the common rule set's counted rules.
 */
import fc from 'fast-check';
import { NPI_BATCH_MAX } from '../../data-contracts/constants';
import { WELL_FORMED_KEY_PATTERN } from '../../data-contracts/edge';
import { COMMON_RULE_SET_COUNTED, WELL_FORMED_KEY_PLACES } from '../../infra/constructs/edge-acl';
import { generateApiKey, isWellFormedKey } from '../../lambdas/access/api-key';
import { pickKey } from '../../lambdas/core/authenticate';

const regexOf = (place: (typeof WELL_FORMED_KEY_PLACES)[number]['place']) => {
  const found = WELL_FORMED_KEY_PLACES.find((p) => p.place === place);
  if (found === undefined) throw new Error(`no place ${place}`);
  const re = new RegExp(found.regex);
  // WAF's URL_DECODE transformation, then the match.
  return (value: string) => re.test(found.transformation === 'URL_DECODE' ? decodeURIComponent(value) : value);
};
const inAuthorization = regexOf('authorization');
const inApiKeyHeader = regexOf('x-api-key');
const inKeyParameter = regexOf('key');

const keys = fc.constant(null).map(() => generateApiKey());
const bearer = fc.constantFrom('Bearer', 'bearer', 'BEARER', 'bEaReR');
const blanks = fc.stringMatching(/^[ \t]{0,3}$/);

describe('the keyless rule\u2019s idea of a key', () => {
  it('uses the API\u2019s key shape', () => {
    expect(new RegExp(`^${WELL_FORMED_KEY_PATTERN}$`).test(generateApiKey())).toBe(true);
  });

  it('sees a real key in each of the three places the API reads it from', () => {
    fc.assert(
      fc.property(keys, bearer, blanks, fc.stringMatching(/^[ \t]{1,3}$/), (key, scheme, pad, gap) => {
        const authorization = `${pad}${scheme}${gap}${key}${pad}`;
        expect(inAuthorization(authorization)).toBe(true);
        expect(pickKey({ authorization })).toBe(key);
        expect(inApiKeyHeader(`${pad}${key}${pad}`)).toBe(true);
        expect(inKeyParameter(key)).toBe(true);
        expect(inKeyParameter(encodeURIComponent(key).replace('_', '%5F'))).toBe(true);
      }),
    );
  });

  it('never counts as keyed a header the API would not read as a well-formed key', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          keys.map((k) => `Bearer ${k}`),
          keys.map((k) => `Bearer ${k}x`),
        ),
        (value) => {
          if (inAuthorization(value)) expect(isWellFormedKey(pickKey({ authorization: value }) ?? '')).toBe(true);
          if (inApiKeyHeader(value)) expect(isWellFormedKey(pickKey({ apiKeyHeader: value }) ?? '')).toBe(true);
        },
      ),
    );
  });

  it.each([
    ['another scheme', `Basic ${'pf_'.padEnd(46, 'a')}`],
    ['a short key', 'Bearer pf_abc'],
    ['a long key', `Bearer ${'pf_'.padEnd(47, 'a')}`],
    ['a foreign prefix', `Bearer ${'sk_'.padEnd(46, 'a')}`],
    ['a character outside base64url', `Bearer ${'pf_'.padEnd(45, 'a')}.`],
    ['no key', 'Bearer'],
  ])('counts an Authorization header with %s as keyless', (_what, value) => {
    expect(inAuthorization(value)).toBe(false);
  });

  it.each(['pf_abc', 'pf_'.padEnd(47, 'a'), `${'pf_'.padEnd(45, 'a')}.`, `Bearer ${'pf_'.padEnd(46, 'a')}`])(
    'counts x-api-key or key=%s as keyless',
    (value) => {
      expect(inApiKeyHeader(value)).toBe(false);
      expect(inKeyParameter(encodeURIComponent(value))).toBe(false);
    },
  );
});

describe('the common rule set\u2019s counted rules', () => {
  it('lets a contract-valid query past 2,048 bytes through (SizeRestrictions_QUERYSTRING counts)', () => {
    expect(Object.keys(COMMON_RULE_SET_COUNTED)).toContain('SizeRestrictions_QUERYSTRING');
    const npis = Array.from({ length: NPI_BATCH_MAX }, (_, i) => String(1_000_000_000 + i * 7919));
    const query = new URLSearchParams({
      npi: npis.join(','),
      taxonomy: 'x'.repeat(200),
      name: 'é'.repeat(100),
      city: 'St. Louis'.padEnd(100, ' '),
      state: 'MO',
      limit: '1000',
      offset: '0',
      key: generateApiKey(),
    }).toString();
    expect(Buffer.byteLength(query)).toBeGreaterThan(2048);
    // The roster alone (the example) is not over it: the override is for rosters with other filters.
    const roster = new URLSearchParams({ numbers: npis.join(','), key: generateApiKey() }).toString();
    expect(Buffer.byteLength(roster)).toBeLessThan(2048);
  });
});
