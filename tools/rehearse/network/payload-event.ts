/**
 * What API Gateway's HTTP API hands a Lambda integration (payload format 2.0): each request becomes an event with
 * `rawPath`, `rawQueryString`, lower-cased `headers` with repeated values joined by commas, `cookies`,
 * `requestContext` with `requestId`, `http.method`, `http.path`, `http.sourceIp`, `timeEpoch`, `routeKey` as the
 * stack's routes give it, and `isBase64Encoded`.
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { API_ROUTES, DEFAULT_ROUTE_KEY } from '../../../infra/routes';

/** An id in the shape API Gateway gives (`apigw-requestid`). */
export function apiRequestId(): string {
  return `${randomBytes(12).toString('base64').replace(/[+/]/g, 'A').slice(0, 15)}=`;
}

/** The HTTP API payload 2.0 event of a request; `hiddenHeader` (the rehearsal's own) is not passed on. */
export function payloadEvent(
  req: http.IncomingMessage,
  rawPath: string,
  rawQueryString: string,
  body: Buffer,
  requestId: string,
  hiddenHeader: string,
) {
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = (req.rawHeaders[i] as string).toLowerCase();
    const value = req.rawHeaders[i + 1] as string;
    if (name === hiddenHeader) continue;
    if (name === 'cookie') {
      cookies = [...(cookies ?? []), ...value.split(/;\s*/)];
      continue;
    }
    headers[name] = headers[name] === undefined ? value : `${headers[name]},${value}`;
  }
  const now = new Date();
  const method = req.method ?? 'GET';
  const host = headers.host ?? 'localhost';
  return {
    version: '2.0',
    routeKey: routeKeyFor(method, rawPath),
    rawPath,
    rawQueryString,
    ...(cookies ? { cookies } : {}),
    headers,
    requestContext: {
      accountId: '000000000000',
      apiId: 'rehearse',
      domainName: host,
      domainPrefix: host.split('.')[0],
      http: {
        method,
        path: rawPath,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: routeKeyFor(method, rawPath),
      stage: '$default',
      time: apiGatewayTime(now),
      timeEpoch: now.getTime(),
    },
    ...(body.length > 0 ? { body: body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0,
  };
}

/** The stack's routes as API Gateway matches them (`{id}` is one path segment). */
const ROUTE_MATCHERS = API_ROUTES.map((route) => ({
  key: `${route.method} ${route.path}`,
  method: route.method,
  pattern: new RegExp(`^${route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/** The route key API Gateway puts in the event: the matching route's, else `$default`. */
function routeKeyFor(method: string, rawPath: string): string {
  return ROUTE_MATCHERS.find((r) => r.method === method && r.pattern.test(rawPath))?.key ?? DEFAULT_ROUTE_KEY;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `27/Nov/2026:19:00:00 +0000`. */
function apiGatewayTime(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}
