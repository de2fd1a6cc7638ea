/**
 * The JSON Canonicalization Scheme (RFC 8785, https://www.rfc-editor.org/rfc/rfc8785): one byte sequence per JSON
 * value, whatever the key order or whitespace it was written with, so that a signature over it can be checked by
 * anyone who parses the JSON and canonicalises it again. Receipts are signed over it (data-contracts/receipts.ts).
 *
 * The scheme's rules are ECMAScript's own serialisation, which `JSON.stringify` implements for strings and finite
 * numbers (RFC 8785 section 3.2.2 cites it); what it adds is the order of object members, sorted by their UTF-16 code
 * units (section 3.2.3), which is the default order of `Array.prototype.sort` on strings. No whitespace is written.
 */

/** A JSON value as `JSON.parse` returns it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Thrown for a value that has no JSON form (a non-finite number, `undefined`, a function, a bigint, a cycle). */
export class CanonicalJsonError extends Error {
  override readonly name = 'CanonicalJsonError';
}

/**
 * The canonical JSON text of `value`. Members whose value is `undefined` are refused, not dropped: what is signed
 * must be exactly what was meant.
 * @example canonicalJson({ b: [1, 2.50, 'x'], a: null }) === '{"a":null,"b":[1,2.5,"x"]}'
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set());
}

function write(value: unknown, open: Set<object>): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError(`${value} has no JSON form`);
      // ECMAScript's Number-to-String, which is RFC 8785's number form (-0 is written 0).
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      throw new CanonicalJsonError(`a ${typeof value} has no JSON form`);
  }
  const object = value as object;
  if (open.has(object)) throw new CanonicalJsonError('a cyclic value has no JSON form');
  open.add(object);
  let text: string;
  if (Array.isArray(object)) {
    text = `[${object.map((item) => write(item, open)).join(',')}]`;
  } else {
    const record = object as Record<string, unknown>;
    const members = Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${write(record[key], open)}`);
    text = `{${members.join(',')}}`;
  }
  open.delete(object);
  return text;
}
