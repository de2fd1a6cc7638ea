/**
 * The RFC 8785 canonicaliser (data-contracts/jcs.ts): properties over any JSON value (the order of its members and
 * the whitespace it was written with never change the canonical text; the canonical text parses back to the value),
 * and the RFC's own examples of numbers, strings and member order.
 */
import fc from 'fast-check';
import { CanonicalJsonError, canonicalJson, type JsonValue } from '../../../data-contracts/jcs';

/** The same value with every object's members in another order (the permutation drawn by `seed`). */
function reordered(value: JsonValue, seed: number): JsonValue {
  if (Array.isArray(value)) return value.map((item, i) => reordered(item, seed + i));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  // A deterministic shuffle: rotate by the seed, then reverse on odd seeds.
  const k = entries.length === 0 ? 0 : Math.abs(seed) % entries.length;
  const rotated = [...entries.slice(k), ...entries.slice(0, k)];
  if (seed % 2 !== 0) rotated.reverse();
  return Object.fromEntries(rotated.map(([key, item], i) => [key, reordered(item, seed * 31 + i)]));
}

/** The value with -0 read as 0 (JSON has one zero; `JSON.parse('-0')` is -0). */
function withoutNegativeZero(value: JsonValue): JsonValue {
  if (typeof value === 'number') return value === 0 ? 0 : value;
  if (Array.isArray(value)) return value.map(withoutNegativeZero);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutNegativeZero(item)]));
}

const json = fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<JsonValue>;

describe('canonicalJson (RFC 8785)', () => {
  it('gives the same text whatever the member order and whitespace of the JSON it was parsed from', () => {
    fc.assert(
      fc.property(json, fc.integer(), fc.constantFrom(undefined, 0, 1, 2, '\t', ' \n '), (value, seed, space) => {
        const written = JSON.stringify(reordered(value, seed), null, space);
        expect(canonicalJson(JSON.parse(written))).toBe(canonicalJson(value));
      }),
    );
  });

  it('round-trips through JSON.parse, and is its own canonical form', () => {
    fc.assert(
      fc.property(json, (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(withoutNegativeZero(value));
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        expect(text).not.toMatch(/^\s|\s$/);
      }),
    );
  });

  it('sorts members by UTF-16 code units, at every depth, and keeps array order', () => {
    // RFC 8785 section 3.2.3's example of member order.
    const keys = ['\u20ac', '\r', '\ufb33', '1', '\ud83d\ude00', '\u0080', '\u00f6'];
    const sorted = canonicalJson(Object.fromEntries(keys.map((k) => [k, k === '\u20ac' ? 'Euro Sign' : 0])));
    // (The text, not Object.keys: JavaScript lists an integer-like key such as "1" first.)
    const order = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'];
    expect(sorted).toBe(
      `{${order.map((k) => `${JSON.stringify(k)}:${k === '\u20ac' ? '"Euro Sign"' : 0}`).join(',')}}`,
    );
    expect(canonicalJson({ b: [3, { z: 1, a: 2 }, 1], a: { y: null, x: true } })).toBe(
      '{"a":{"x":true,"y":null},"b":[3,{"a":2,"z":1},1]}',
    );
  });

  it('writes numbers and strings as RFC 8785 does', () => {
    // Section 3.2.2.3 and appendix B's samples.
    const numbers: [number, string][] = [
      [0, '0'],
      [-0, '0'],
      [1e21, '1e+21'],
      [1e-7, '1e-7'],
      [333333333.3333333, '333333333.3333333'],
      [4.5, '4.5'],
      [2e-3, '0.002'],
      [0.000001, '0.000001'],
      [-1.5e-9, '-1.5e-9'],
      [9007199254740992, '9007199254740992'],
    ];
    for (const [n, text] of numbers) expect(canonicalJson(n)).toBe(text);
    expect(canonicalJson('\u20ac$\u000f\nA\'B"\\\\"/')).toBe('"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"');
  });

  it('refuses what has no JSON form instead of dropping it', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, { a: undefined }, [() => 1], 1n, cyclic]) {
      expect(() => canonicalJson(bad)).toThrow(CanonicalJsonError);
    }
  });
});
