import fc from 'fast-check';
import {
  canonicalTarget,
  createJsonLogger,
  isPlainTarget,
  redactRequestTarget,
  redactUrl,
} from '../../../platform/logger';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A key as `generateApiKey` writes it: `pf_` + 43 base64url characters. */
const apiKey = fc
  .array(fc.constantFrom(...BASE64URL), { minLength: 43, maxLength: 43 })
  .map((chars) => `pf_${chars.join('')}`);

/** A secret of another shape (not `pf_…`): only its parameter name says it is a key. */
const otherSecret = fc
  .array(fc.constantFrom(...BASE64URL), { minLength: 16, maxLength: 30 })
  .map((chars) => `S3CRET${chars.join('')}`);

/** One character percent-encoded, with upper- or lower-case hex digits. */
function percent(char: string, upper: boolean): string {
  const hex = [...Buffer.from(char, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  return upper ? hex.toUpperCase() : hex;
}

/**
 * `text` with a random choice of its characters percent-encoded (none, some or all), once or twice over: what a
 * client can send that a server decodes back to `text` (twice-encoded text decodes to the once-encoded form).
 */
function encodedForms(text: string): fc.Arbitrary<string> {
  return fc
    .tuple(fc.array(fc.boolean(), { minLength: text.length, maxLength: text.length }), fc.boolean(), fc.boolean())
    .map(([which, upper, twice]) => {
      const once = [...text].map((char, i) => (which[i] ? percent(char, upper) : char)).join('');
      return twice ? once.replace(/%/g, '%25') : once;
    });
}

/** A key-bearing parameter name in any letter case. */
const keyName = fc
  .tuple(fc.constantFrom('key', 'api_key', 'apikey', 'x-api-key', 'token'), fc.array(fc.boolean(), { maxLength: 9 }))
  .map(([name, upper]) => [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''))
  .chain(encodedForms);

/** Every percent-decoding of `text`, tolerant of malformed escapes. */
function allDecodings(text: string): string[] {
  const out = [text];
  let current = text;
  for (let i = 0; i < 5; i += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      next = current.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    }
    if (next === current) break;
    out.push(next);
    current = next;
  }
  return out;
}

/** The text holds `secret` in no encoding: raw, percent-encoded, partly encoded, twice encoded. */
function expectNoSecret(text: string, secret: string): void {
  for (const form of allDecodings(text)) expect(form).not.toContain(secret);
}

/** What the request log writes for `target`, through a real JSON logger. */
function loggedLine(target: string): string {
  const lines: string[] = [];
  const logger = createJsonLogger({ write: (line) => lines.push(line) });
  logger.info('request', { method: 'GET', path: redactRequestTarget(target), status: 200 });
  logger.warn(`fetch failed for ${target}`, { url: target, error: new Error(`bad ${target}`) });
  return lines.join('\n');
}

const filler = fc.constantFrom('vertical=glp1', 'limit=1', 'state=TX', 'city=los%20angeles', 'format=csv', 'a=', 'b');

describe('request log redaction', () => {
  it('rebuilds the target from decoded names and redacts the key of `%6Bey=` (the issue case)', () => {
    const key = `pf_${'a'.repeat(43)}`;
    const encoded = [...key].map((c) => percent(c, false)).join('');
    expect(redactRequestTarget(`/api/v1/providers?vertical=glp1&limit=1&%6Bey=${encoded}`)).toBe(
      '/api/v1/providers?vertical=glp1&limit=1&key=[redacted]',
    );
    expect(redactRequestTarget('/api/v1/providers?KEY=whatever&Api_Key=x&vertical=glp1')).toBe(
      '/api/v1/providers?KEY=[redacted]&Api_Key=[redacted]&vertical=glp1',
    );
  });

  it('keeps the other parameters readable, in one canonical encoding', () => {
    expect(redactRequestTarget('/api/v1/providers?vertical=glp1&city=los+angeles&state=%54X&flag')).toBe(
      '/api/v1/providers?vertical=glp1&city=los%20angeles&state=TX&flag',
    );
    expect(redactRequestTarget('/api/v1/coverage')).toBe('/api/v1/coverage');
  });

  it('never logs a key sent under a key-bearing name, whatever the encoding of the name or the key', () => {
    fc.assert(
      fc.property(
        keyName,
        fc.oneof(apiKey, otherSecret).chain((secret) => fc.tuple(fc.constant(secret), encodedForms(secret))),
        fc.array(filler, { maxLength: 3 }),
        fc.array(filler, { maxLength: 3 }),
        (name, [secret, sent], before, after) => {
          const target = `/api/v1/providers?${[...before, `${name}=${sent}`, ...after].join('&')}`;
          expectNoSecret(loggedLine(target), secret);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never logs an API key found anywhere else: another value, a name, a path segment, free text', () => {
    fc.assert(
      fc.property(
        apiKey.chain((key) => fc.tuple(fc.constant(key), encodedForms(key))),
        fc.constantFrom('value', 'name', 'path', 'glued'),
        fc.array(filler, { maxLength: 3 }),
        ([key, sent], where, others) => {
          const target =
            where === 'value'
              ? `/api/v1/providers?${[...others, `vertical=${sent}`].join('&')}`
              : where === 'name'
                ? `/api/v1/providers?${[`${sent}=1`, ...others].join('&')}`
                : where === 'path'
                  ? `/api/v1/providers/${sent}?${others.join('&')}`
                  : `/api/v1/providers?q=abc${sent}xyz`;
          expectNoSecret(loggedLine(target), key);
          expectNoSecret(redactUrl(`GET ${target} failed`), key);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('log levels', () => {
  it('writes the lines at or above its level, and says which levels it writes', () => {
    const lines: string[] = [];
    const logger = createJsonLogger({ level: 'warn', write: (line) => lines.push(line) });
    logger.info('dropped');
    logger.warn('kept');
    expect(lines.map((line) => JSON.parse(line).message)).toEqual(['kept']);
    expect(['debug', 'info', 'warn', 'error'].map((level) => logger.enabled?.(level as 'info'))).toEqual([
      false,
      false,
      true,
      true,
    ]);
    expect(createJsonLogger().enabled?.('info')).toBe(true);
  });
});

describe('the plain-target shortcut of the request log', () => {
  /** Targets over an alphabet of the characters the shortcut decides on: escapes, separators, key-like text. */
  const piece = fc.constantFrom(
    'a',
    'Z',
    '0',
    '-',
    '_',
    '.',
    '~',
    '!',
    '*',
    "'",
    '(',
    ')',
    '/',
    '?',
    '&',
    '=',
    '+',
    ',',
    '#',
    ' ',
    '%20',
    '%2',
    '%2C',
    '%2c',
    '%41',
    '%6Bey',
    '%70f_',
    '%25',
    '%E2%82%AC',
    'é',
    'pf_',
    'PF_',
    'key',
    'KEY',
    'api_key',
    'token',
    'taxonomy',
    'city',
    'San%20Antonio',
  );
  const target = fc.array(piece, { maxLength: 24 }).map((parts) => `/api/v1/providers?${parts.join('')}`);
  const anyText = fc.array(piece, { maxLength: 24 }).map((parts) => parts.join(''));

  it('takes only targets that are their own canonical form, and redacts exactly as the full path does', () => {
    fc.assert(
      fc.property(fc.oneof(target, anyText), (t) => {
        if (isPlainTarget(t)) expect(canonicalTarget(t)).toBe(t);
        expect(redactRequestTarget(t)).toBe(canonicalTarget(t));
      }),
      { numRuns: 5000 },
    );
  });

  it('takes the bench and client targets it was written for, and refuses any that hide a key or need decoding', () => {
    expect(isPlainTarget('/api/v1/providers?taxonomy=207Q00000X&state=tx&city=San%20Antonio&limit=50')).toBe(true);
    expect(isPlainTarget('/api/v1/npi/1234567893')).toBe(true);
    expect(isPlainTarget('/api/v1/providers?key%20=abc')).toBe(false);
    expect(isPlainTarget('/api/v1/providers?KEY=abc')).toBe(false);
    expect(isPlainTarget('/api/v1/providers?q=Pf_abc')).toBe(false);
    expect(isPlainTarget('/api/v1/npi?numbers=1,2')).toBe(false);
    expect(isPlainTarget('/api/v1/providers?city=%41')).toBe(false);
    expect(redactRequestTarget('/api/v1/providers?key%20=abc&limit=5')).toBe(
      '/api/v1/providers?key%20=[redacted]&limit=5',
    );
  });
});
