/**
 * The first middleware of every request: its request id, the CDN check, CORS preflights, the data-version headers
 * the guard computed (guard.ts), the coding the client asked for, the CORS and request-id headers of every answer
 * (request-id.ts, cors.ts, compression.ts), and one log line per request, with the id: never the key (the target is
 * rebuilt with every key-bearing value redacted, whatever its encoding; headers are not logged).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { CDN_REQUIRED, ORIGIN_VERIFY_HEADER } from '../../data-contracts/edge';
import { type Logger, redactRequestTarget } from '../../platform/logger';
import { ApiError } from '../core/api-error';
import { compressParts } from './compression';
import { corsHeaders, isPreflight, preflightResponse } from './cors';
import { gatewayRequestIdOf, REQUEST_ID_HEADER, requestIdOf } from './request-id';
import { headerOf, partsOf, type ResponseParts, responseOf, setHeader } from './response-parts';
import { errorResponse } from './responses';

/** The `metric` field of the log line of a request refused for not coming through the CDN (infra alarms on it). */
export const EDGE_REFUSAL_METRIC = 'EdgeRefusal' as const;

/** The statuses of answers that serve data: they carry the data-version headers (and are metered). */
const SERVES_DATA = new Set([200, 410]);

/**
 * The request log's middleware. With `originSecret`, a request without the CDN's header is refused with 403
 * `cdn_required` before any other work: no key lookup, no parameters, no snapshot.
 */
export function requestLog(logger: Logger, originSecret: string | undefined): MiddlewareHandler {
  const fromCdn = originSecret ? originCheck(originSecret) : undefined;
  return async (c, next) => {
    const started = performance.now();
    const gatewayId = gatewayRequestIdOf(c.env);
    const requestId = requestIdOf(c.req.header('x-request-id'), gatewayId);
    c.set('requestId', requestId);
    let parts: ResponseParts;
    if (fromCdn !== undefined && !fromCdn(c.req.header(ORIGIN_VERIFY_HEADER))) {
      // Before any other work (the metric raises the EdgeRefusals alarm).
      logger.warn('edge_refusal', { metric: EDGE_REFUSAL_METRIC, reason: 'cdn_required', request_id: requestId });
      const error = new ApiError('cdn_required', CDN_REQUIRED.error, { hint: CDN_REQUIRED.hint });
      parts = await partsOf(errorResponse(error.status, { ...error.toBody(), request_id: requestId }));
    } else if (isPreflight(c.req.method, c.req.header('access-control-request-method'))) {
      parts = await partsOf(preflightResponse());
    } else {
      await next();
      parts = await partsOf(c.res);
      // The guard's data-version headers, on the answers that serve data (an error raised after the guard has none).
      const version = c.get('versionHeaders');
      if (version !== undefined && SERVES_DATA.has(parts.status))
        for (const [name, value] of Object.entries(version)) setHeader(parts.headers, name, value);
      parts = await compressParts(parts, c.req.header('accept-encoding'));
    }
    for (const [name, value] of Object.entries(corsHeaders())) {
      if (headerOf(parts.headers, name) === undefined) parts.headers[name] = value;
    }
    setHeader(parts.headers, REQUEST_ID_HEADER, requestId);
    // One Response with plain headers (response-parts.ts).
    const response = responseOf(parts);
    c.res = undefined;
    c.res = response;
    // The line's redacted path has a cost: not computed when the level drops the line.
    if (logger.enabled?.('info') !== false) {
      logger.info('request', {
        method: c.req.method,
        path: redactRequestTarget(requestTarget(c)),
        status: response.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        request_id: requestId,
        ...(gatewayId !== undefined && gatewayId !== requestId ? { gateway_request_id: gatewayId } : {}),
      });
    }
    return response;
  };
}

/** The request target as received (path and query, still percent-encoded): what the request log redacts. */
function requestTarget(c: Context): string {
  const url = c.req.url;
  const start = url.indexOf('/', url.indexOf('://') + 3);
  return start === -1 ? '/' : url.slice(start);
}

/**
 * A constant-time check of the origin header against the deployment's secret (both hashed first, so that neither
 * the length nor a prefix of the secret leaks through timing).
 */
function originCheck(secret: string): (header: string | undefined) => boolean {
  const expected = createHash('sha256').update(secret, 'utf8').digest();
  return (header) =>
    header !== undefined && timingSafeEqual(createHash('sha256').update(header, 'utf8').digest(), expected);
}
