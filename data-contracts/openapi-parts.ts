/** Pieces of the OpenAPI document shared by its operation files (openapi.ts, openapi-npi.ts). */

import { PARAMETER_RULES } from './parameter-rules';

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const nullable = (type: string, extra: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...extra });
export const errorResponse = (name: string) => ({ $ref: `#/components/responses/${name}` });
export const notModified = { $ref: '#/components/responses/NotModified' };

export const rateLimitHeaders = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Used': { $ref: '#/components/headers/X-RateLimit-Used' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
  RateLimit: { $ref: '#/components/headers/RateLimit' },
};

/** On every response: the request id (also `request_id` in error bodies). */
export const requestIdHeader = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };

/**
 * Error responses by status, each a reference to its component.
 * @example errorResponses({ 404: 'NotFound' }) // { '404': { $ref: '#/components/responses/NotFound' } }
 */
export function errorResponses(byStatus: Readonly<Record<number, string>>): Record<string, { $ref: string }> {
  return Object.fromEntries(Object.entries(byStatus).map(([status, name]) => [status, errorResponse(name)]));
}

/** What any operation may be refused with before it runs: at the edge (403, 429), or as a bad or too large request. */
export const REFUSALS = errorResponses({
  400: 'BadRequest',
  403: 'EdgeForbidden',
  429: 'EdgeRateLimited',
  431: 'RequestTooLarge',
});

/** The errors of a public operation that reads the snapshot. */
export const PUBLIC_ERRORS = { ...REFUSALS, ...errorResponses({ 500: 'InternalError', 503: 'ServiceUnavailable' }) };

/** The errors of a keyed operation: the key (401), the plan (403), the quota (429), a failure (500, 503). */
export const KEYED_ERRORS = errorResponses({
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  429: 'QuotaExceeded',
  431: 'RequestTooLarge',
  500: 'InternalError',
  503: 'ServiceUnavailable',
});

/** Answers tied to a data version (keyed operations): envelope fields, headers, ETag and 304. */
export const dataVersionHeaders = {
  ETag: { $ref: '#/components/headers/ETag' },
  'X-Snapshot-Id': { $ref: '#/components/headers/X-Snapshot-Id' },
  'X-Data-As-Of': { $ref: '#/components/headers/X-Data-As-Of' },
};
/** The headers of a keyed answer that serves data. */
export const keyedHeaders = { ...rateLimitHeaders, ...dataVersionHeaders, ...requestIdHeader };

/**
 * The responses of a keyed operation: its 200 with the keyed headers, 304, the keyed errors, and `more` (statuses of
 * its own, or another reason for one of them).
 */
export function keyedResponses(
  ok: { description: string; content: Record<string, unknown> },
  more: Record<string, unknown> = {},
) {
  return {
    '200': { description: ok.description, headers: keyedHeaders, content: ok.content },
    '304': notModified,
    ...KEYED_ERRORS,
    ...more,
  };
}

export const dataVersionProperties = {
  snapshot_id: { type: 'string', description: 'The snapshot the answer was read from (also `X-Snapshot-Id`).' },
  as_of: {
    type: 'string',
    format: 'date-time',
    description:
      'The data as-of time: the snapshot time, equal to the `generated_at` of that snapshot\u2019s coverage.',
  },
};
export const DATA_VERSION_RULES =
  'Every 200 names its snapshot (`snapshot_id`, `as_of` in JSON; `X-Snapshot-Id`, `X-Data-As-Of` in every format) ' +
  'and carries an `ETag` derived from the snapshot, the path, the query without the key, the caller\u2019s plan and ' +
  'the format (weak, `W/"..."`, where the body carries per-call `usage`). A request whose `If-None-Match` lists the ' +
  'current tag gets 304 with no body, after the key is checked; a 304 is not counted against the quota, and is ' +
  'served even when the quota is used up.';

/** The paging parameters of every list (providers, changes). */
export const pagingParameters = [
  {
    name: 'limit',
    in: 'query',
    required: false,
    schema: { type: 'integer', ...PARAMETER_RULES.limit },
  },
  {
    name: 'offset',
    in: 'query',
    required: false,
    description:
      'An offset greater than `total` is refused with 400 `invalid_offset`; `offset=0` on an empty result is fine.',
    schema: { type: 'integer', ...PARAMETER_RULES.offset },
  },
] as const;

/** The order of a keyed call's checks (lambdas/core/charge-call.ts), said once for every keyed operation. */
export const CHECK_ORDER =
  'Order of checks: the edge (403 `cdn_required`, 429 `rate_limited`), the key (401), a quota this serving ' +
  'instance already saw used up this month (429 `quota_exceeded`, before any parameter is read or any data ' +
  'touched), the parameters (400), the plan (403), the data (404; 400 for an offset past the end), then the ' +
  'charge (429 `quota_exceeded` when the quota is used up; a batch\u2019s charge comes before its query).';
