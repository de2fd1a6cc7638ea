/**
 * The node:http adapter (`@hono/node-server`): the same app on a local port, for `npm start` (which the load
 * tools measure) and the integration tests. Requests that node:http refuses before the app sees them (a request
 * line and headers over 16 KB, an unknown method, forbidden bytes in a header, `Content-Length` with
 * `Transfer-Encoding`) are answered with the contract's JSON error body too ({@link refusalOf}), from the server's
 * `clientError` handler.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { ApiError } from '../core/api-error';

/** A listening server. */
export interface NodeServer {
  /** `http://<host>:<port>` */
  url: string;
  port: number;
  server: Server;
  /** Stops accepting connections, closes idle keep-alive sockets and waits for in-flight requests. */
  close(): Promise<void>;
}

/** The reason phrases of the statuses a refusal can have. */
const REASONS: Record<number, string> = { 400: 'Bad Request', 431: 'Request Header Fields Too Large' };

/**
 * The contract's error for a request node:http's parser refused (`err.code` is llhttp's `HPE_*` code): 431
 * `request_too_large` for a request line and headers over the limit, 400 `malformed_request` for anything else.
 */
export function refusalOf(err: { code?: string }): ApiError {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return new ApiError('request_too_large', 'The request line and headers are too large.', {
      hint: 'Keep the URL and headers under 16 KB (8 KB through the CDN); ask for up to 100 NPIs per call.',
    });
  }
  return new ApiError('malformed_request', 'The request could not be parsed as HTTP/1.1.', {
    hint: 'Send GET with a valid request line and headers (no control characters; Content-Length or Transfer-Encoding, not both).',
  });
}

/** The raw HTTP/1.1 response of a refusal: JSON body, no-store, and the connection closed. */
function refusalBytes(error: ApiError): string {
  const requestId = randomUUID();
  const body = JSON.stringify({ ...error.toBody(), request_id: requestId });
  return [
    `HTTP/1.1 ${error.status} ${REASONS[error.status] ?? 'Bad Request'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    `X-Request-Id: ${requestId}`,
    'Access-Control-Allow-Origin: *',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Answers parser-level failures with the contract's JSON error instead of node's empty 400/431. A socket already
 * gone, or one that has had part of a response, is only closed; a request timeout keeps node's own 408.
 * https://nodejs.org/api/http.html#event-clienterror
 */
function answerClientError(err: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable || (socket as Socket & { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    return;
  }
  socket.end(refusalBytes(refusalOf(err)));
}

/**
 * Serves `app` on `hostname:port` (port 0 picks a free one).
 * @example const server = await serveNode(app, { port: 8787, hostname: '127.0.0.1' });
 */
export function serveNode(app: Hono, options: { port: number; hostname?: string }): Promise<NodeServer> {
  const hostname = options.hostname ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: options.port, hostname }, (info: AddressInfo) => {
      server.off('error', reject);
      resolve({
        url: `http://${hostname}:${info.port}`,
        port: info.port,
        server,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
      });
    }) as Server;
    server.on('clientError', answerClientError);
    server.once('error', reject);
  });
}
