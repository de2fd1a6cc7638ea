/**
 * The error examples of the OpenAPI document: one error body per error code, with the API's own message and hint
 * (the success examples: openapi-examples.ts).
 */
import { ERROR_STATUS, type ErrorCode, PAGE_LIMIT, PRICING_URL, VERTICALS } from './constants';
import { CDN_REQUIRED, EDGE_BLOCK } from './edge';

/** The request id every example error body carries. */
const REQUEST_ID = '6f1c2a8e-3b7d-4e5f-9a10-2c4d6e8f0a1b';

/** One error body per code: the API's own message and hint. */
const ERROR_BODIES: Record<
  ErrorCode,
  { error: string; hint?: string; upgrade?: string; plan?: string; usage?: object }
> = {
  invalid_vertical: { error: `vertical must be one of ${VERTICALS.join(', ')}.` },
  invalid_business_mode: { error: 'business_mode must be one of online, physical, both.' },
  invalid_limit: {
    error: `limit must be an integer from ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}.`,
    hint: `Omit it for the default of ${PAGE_LIMIT.default}.`,
  },
  invalid_offset: {
    error: 'offset 500 is beyond the result set of 41 rows.',
    hint: 'Use an offset from 0 to 41.',
  },
  invalid_parameter: {
    error: 'Unknown query parameter `limt`.',
    hint:
      'Did you mean `limit`? This route takes: vertical, taxonomy, name, postal_code, entity_type, npi, state, ' +
      'city, business_mode, limit, offset, format, include, key.',
  },
  invalid_npi: {
    error: 'Not a valid NPI. The check digit fails (Luhn over 80840 and the NPI).',
    hint: 'An NPI is 10 digits whose last digit is the Luhn check digit of 80840 and the first nine.',
  },
  invalid_near: {
    error: 'near must be a 5-digit ZIP code or lat,lon in decimal degrees within the US and its territories.',
    hint: 'e.g. near=10001 or near=40.7506,-73.9973',
  },
  unknown_zip: {
    error: 'ZIP code 99999 has no centroid in the ZIP table this snapshot was built with.',
    hint: 'PO-box and single-building ZIPs have none: give a nearby ZIP, or near=lat,lon.',
  },
  invalid_radius: {
    error: 'radius_miles must be a number from 1 to 100.',
    hint: 'Omit it for the default of 25 miles.',
  },
  near_conflict: {
    error: 'near does not combine with state, city, postal_code or npi.',
    hint: 'A circle replaces the place filters: e.g. taxonomy=363L00000X&near=10001&radius_miles=10',
  },
  since_too_old: {
    error:
      'since "2025-01-01" is older than the changes kept (13 months): the oldest since answered is ' +
      '20251101T000000Z-a1b2c3d4 (2025-11-01T00:00:00Z).',
    hint:
      'Re-screen the whole roster (GET /npi?numbers=…) as of now, then ask /changes?since=<the snapshot_id of that ' +
      'answer> from then on; or ask since=20251101T000000Z-a1b2c3d4 for what is kept.',
  },
  malformed_request: {
    error: 'The request could not be parsed as HTTP/1.1.',
    hint: 'Send GET with a valid request line and headers (no control characters; Content-Length or Transfer-Encoding, not both).',
  },
  key_required: {
    error: 'An API key is required.',
    hint: 'Send it as "Authorization: Bearer <API_KEY>" (preferred), as the x-api-key header, or as key=<API_KEY>.',
  },
  invalid_key: {
    error: 'The API key is not recognised, or it was rotated or revoked.',
    hint: 'Check the key, or use the key that replaced it.',
  },
  vertical_not_permitted: {
    error: 'This Builder key is bound to the glp1 vertical and cannot query dental.',
    upgrade: `The Developer plan covers every vertical: upgrade at ${PRICING_URL}`,
    plan: 'builder',
  },
  not_found: {
    error: 'No active provider matches this id.',
    hint: 'Use an entity_id or a slug from a list response.',
  },
  quota_exceeded: {
    error: 'The monthly call quota of this key is used up.',
    hint: 'The quota resets at 00:00 UTC on the 1st; see the Retry-After header.',
    upgrade: `The Developer plan has 25,000 calls a month: ${PRICING_URL}`,
    plan: 'builder',
    usage: { used: 5000, quota: 5000 },
  },
  cdn_required: { ...CDN_REQUIRED },
  rate_limited: { error: EDGE_BLOCK.body.error, hint: EDGE_BLOCK.body.hint },
  request_too_large: {
    error: 'The request line and headers are too large.',
    hint: 'Keep the URL and headers under 16 KB (8 KB through the CDN); ask for up to 100 NPIs per call.',
  },
  internal_error: { error: 'Internal server error. The failure was logged; please retry later.' },
  service_unavailable: {
    error: 'API keys cannot be checked at the moment. Please retry shortly.',
    hint: 'Retry after 30 s; the failure was logged.',
  },
  radius_unavailable: {
    error: 'Radius search is not available on the current snapshot (built before radius search).',
    hint: 'Retry after the next hourly build, or filter by state, city or postal_code.',
  },
};

/**
 * The `examples` of an error response: one per code it may carry, named by the code.
 * @example errorExamples(['not_found']).not_found.value.code === 'not_found'
 */
export function errorExamples(
  codes: readonly ErrorCode[],
): Record<string, { summary: string; value: Record<string, unknown> }> {
  return Object.fromEntries(
    codes.map((code) => {
      const { error, ...details } = ERROR_BODIES[code];
      return [
        code,
        { summary: `${ERROR_STATUS[code]} ${code}`, value: { error, code, ...details, request_id: REQUEST_ID } },
      ];
    }),
  );
}
