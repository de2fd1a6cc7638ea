/**
 * Request ids: every response carries `X-Request-Id`, the request log line carries it as `request_id`, and error
 * bodies carry it as `request_id`, so that a support request can be traced to one log line.
 *
 * The id is, in order: a well-formed id sent by the client in `X-Request-Id` (echoed, so a caller can correlate
 * its own logs), the API Gateway request id of the invocation (deployed), or a new random UUID (locally).
 */
import { randomUUID } from 'node:crypto';

/** The header that carries the id, both ways. */
export const REQUEST_ID_HEADER = 'X-Request-Id' as const;

/** A client id that is echoed: 1 to 128 characters of `[A-Za-z0-9._=-]` (API Gateway's ids end in `=`); anything else is replaced. */
const WELL_FORMED = /^[A-Za-z0-9._=-]{1,128}$/;

/**
 * The id of a request.
 * @example requestIdOf('abc-123', undefined) === 'abc-123'; requestIdOf('bad id!', 'Xy1=') === 'Xy1='
 */
export function requestIdOf(clientId: string | undefined, gatewayId: string | undefined): string {
  if (clientId !== undefined && WELL_FORMED.test(clientId)) return clientId;
  if (gatewayId !== undefined && gatewayId !== '') return gatewayId;
  return randomUUID();
}

/** The API Gateway request id of a Lambda invocation (Hono's Lambda adapter puts `requestContext` in `c.env`). */
export function gatewayRequestIdOf(env: unknown): string | undefined {
  if (typeof env !== 'object' || env === null) return undefined;
  const context = (env as { requestContext?: { requestId?: unknown } }).requestContext;
  return typeof context?.requestId === 'string' ? context.requestId : undefined;
}
