/**
 * What the app answers when no route matches (404 `not_found`, with the routes as a hint) and when a handler
 * throws: an `ApiError` as its own status and body; bytes that failed their integrity check as 503 with
 * `Retry-After`; anything else as 500 `internal_error`, the cause logged and never sent (CONTRIBUTING.md, the
 * error model). Every body carries the request id.
 */
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { API_BASE_PATH } from '../../data-contracts/constants';
import { ROUTES } from '../../data-contracts/routes';
import type { Logger } from '../../platform/logger';
import { IntegrityError } from '../../platform/ranged/block-digests';
import { ApiError, internalError } from '../core/api-error';
import { errorResponse } from './responses';

/** The `metric` field of the log line of a request refused for bytes that failed their check (infra alarms on it). */
export const INTEGRITY_FAILURE_METRIC = 'IntegrityFailure' as const;

/** Seconds a client is told to wait after a 503 for bytes that failed their integrity check. */
export const INTEGRITY_RETRY_AFTER_SECONDS = 30;

/** The routes as the 404 hint lists them: `/providers, /providers/{id}, …`. */
const ROUTE_LIST = ROUTES.map((route) => route.path).join(', ');

/** 404 `not_found` for a path no route serves, and for a method other than GET/HEAD. */
export const notFound: NotFoundHandler = (c: Context) => {
  const error = new ApiError('not_found', 'No such route.', {
    hint: `The API lives under ${API_BASE_PATH}: ${ROUTE_LIST} (GET).`,
  });
  return errorResponse(error.status, { ...error.toBody(), request_id: c.get('requestId') });
};

/** The answer to an error a handler threw. */
export function errorMapping(logger: Logger): ErrorHandler {
  return (err, c) => {
    const request_id = c.get('requestId');
    if (err instanceof ApiError)
      return errorResponse(
        err.status,
        { ...err.toBody(), request_id },
        err.details.rateLimit,
        err.details.retryAfterSeconds,
      );
    if (isIntegrityFailure(err)) {
      // Stored bytes that do not match the manifest (fetched twice): never served; the metric raises an alarm.
      logger.error('integrity_failure', { metric: INTEGRITY_FAILURE_METRIC, error: err, request_id });
      const error = new ApiError('service_unavailable', 'The data could not be read intact. Please retry shortly.', {
        hint: `Retry after ${INTEGRITY_RETRY_AFTER_SECONDS} s; the failure was logged and nothing unverified was served.`,
        retryAfterSeconds: INTEGRITY_RETRY_AFTER_SECONDS,
      });
      return errorResponse(error.status, { ...error.toBody(), request_id }, undefined, INTEGRITY_RETRY_AFTER_SECONDS);
    }
    // The cause goes to the log, never to the client.
    logger.error('unhandled_error', { error: err, request_id });
    const error = internalError();
    return errorResponse(error.status, { ...error.toBody(), request_id });
  };
}

/** True when `err`, or an error it was caused by, is an {@link IntegrityError}. */
function isIntegrityFailure(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth += 1) {
    if (e instanceof IntegrityError) return true;
  }
  return false;
}
