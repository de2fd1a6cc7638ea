/**
 * Response builders: every response of the API is made here, with explicit headers, so both adapters send
 * exactly the same status, headers and body.
 */
import type { ErrorBody } from '../../data-contracts/types';
import type { RateLimitState } from '../core/ports';
import { responseOf } from './response-parts';

/** Keyed responses must never be stored by a shared cache. */
export const NO_STORE = 'no-store' as const;
/** The public objects change at most hourly; the pointer is re-read every 60 s. */
export const PUBLIC_CACHE = 'public, max-age=60' as const;
/** The OpenAPI document changes only with a deployment. */
export const DOCUMENT_CACHE = 'public, max-age=3600' as const;

export const JSON_TYPE = 'application/json; charset=utf-8' as const;
export const CSV_TYPE = 'text/csv; charset=utf-8' as const;
export const HTML_TYPE = 'text/html; charset=utf-8' as const;

type HeaderMap = Record<string, string>;

function respond(status: number, body: string | Uint8Array, headers: HeaderMap): Response {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return responseOf({
    status,
    body: bytes,
    headers: {
      ...headers,
      'Content-Length': String(bytes.byteLength),
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/**
 * The JSON bytes of `fields` followed by a `data` member whose value is the JSON byte runs `data`, as they are
 * (records copied from storage without being parsed), concatenated once.
 * @example jsonWithData({ tier: 'paid' }, [Buffer.from('[1]')]).toString() === '{"tier":"paid","data":[1]}'
 */
export function jsonWithData(fields: Record<string, unknown>, data: readonly Buffer[]): Buffer {
  const head = JSON.stringify(fields);
  const open = head === '{}' ? '{"data":' : `${head.slice(0, -1)},"data":`;
  return Buffer.concat([Buffer.from(open, 'utf8'), ...data, CLOSE_BRACE]);
}

const CLOSE_BRACE = Buffer.from('}');

/** A JSON response from a value (serialised here) or from ready bytes. */
export function jsonResponse(
  status: number,
  body: unknown,
  options: { cacheControl: string; headers?: HeaderMap },
): Response {
  const text = Buffer.isBuffer(body) ? body : JSON.stringify(body);
  return respond(status, text, {
    'Content-Type': JSON_TYPE,
    'Cache-Control': options.cacheControl,
    ...options.headers,
  });
}

/** An HTML page (the ETL's pages: no script, nothing loaded from elsewhere). */
export function htmlResponse(body: Uint8Array, options: { cacheControl: string; csp: string }): Response {
  return respond(200, body, {
    'Content-Type': HTML_TYPE,
    'Cache-Control': options.cacheControl,
    'Content-Security-Policy': options.csp,
    'X-Content-Type-Options': 'nosniff',
  });
}

/** A CSV attachment. */
export function csvResponse(
  body: string | Uint8Array,
  options: { filename: string; cacheControl: string; headers?: HeaderMap },
): Response {
  return respond(200, body, {
    'Content-Type': CSV_TYPE,
    'Content-Disposition': `attachment; filename="${options.filename}"`,
    'Cache-Control': options.cacheControl,
    ...options.headers,
  });
}

/** 304 Not Modified: no body, the validator and data-version headers (RFC 9110 §15.4.5), never stored. */
export function notModifiedResponse(headers: HeaderMap): Response {
  return responseOf({
    status: 304,
    body: null,
    headers: { ...headers, 'Cache-Control': NO_STORE, 'X-Content-Type-Options': 'nosniff' },
  });
}

/** The challenge of a 401 (RFC 9110 §11.6.1, RFC 6750 §3): the key goes in `Authorization: Bearer`. */
export const BEARER_CHALLENGE = 'Bearer realm="provider-facts"' as const;

/**
 * An error body with its status; a 429 carries the rate-limit headers and `Retry-After`, a 401 the Bearer
 * challenge (`WWW-Authenticate`).
 */
export function errorResponse(
  status: number,
  body: ErrorBody,
  rateLimit?: RateLimitState,
  retryAfterSeconds?: number,
): Response {
  const headers: HeaderMap = rateLimit
    ? { ...rateLimitHeaders(rateLimit), 'Retry-After': String(rateLimit.resetSeconds) }
    : retryAfterSeconds !== undefined
      ? { 'Retry-After': String(retryAfterSeconds) }
      : {};
  if (status === 401) headers['WWW-Authenticate'] = BEARER_CHALLENGE;
  return jsonResponse(status, body, { cacheControl: NO_STORE, headers });
}

/** The name of the quota policy in the `RateLimit` and `RateLimit-Policy` fields. */
export const RATE_LIMIT_POLICY_NAME = 'monthly' as const;

/**
 * The rate-limit headers of a metered call: the `X-RateLimit-*` headers (the OpenAPI document) and the IETF fields of
 * draft-ietf-httpapi-ratelimit-headers (https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/):
 * `RateLimit-Policy: "monthly";q=<quota>` and `RateLimit: "monthly";r=<remaining>;t=<seconds to reset>`. The
 * policy has no `w` (window): the quota is per UTC calendar month, whose length varies; `t` says when it resets.
 */
export function rateLimitHeaders(state: RateLimitState): HeaderMap {
  const remaining = Math.max(0, state.quota - state.used);
  return {
    'X-RateLimit-Limit': String(state.quota),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Used': String(state.used),
    'X-RateLimit-Reset': String(state.resetSeconds),
    'RateLimit-Policy': `"${RATE_LIMIT_POLICY_NAME}";q=${state.quota}`,
    RateLimit: `"${RATE_LIMIT_POLICY_NAME}";r=${remaining};t=${state.resetSeconds}`,
  };
}

/**
 * The attachment name of a list page: `providers-<vertical|taxonomy>-<offset>.csv`, with the taxonomy reduced
 * to `[a-z0-9-]` so the header can never be broken by input.
 * @example csvFilename('Nurse Practitioner', 100) === 'providers-nurse-practitioner-100.csv'
 */
export function csvFilename(selector: string, offset: number): string {
  const safe =
    selector
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'providers';
  return `providers-${safe}-${offset}.csv`;
}
