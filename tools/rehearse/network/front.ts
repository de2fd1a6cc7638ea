/**
 * The edge, on loopback: an HTTP server that does what API Gateway's HTTP API does with a Lambda integration
 * (payload format 2.0), and, for the static paths, what the CDN does before its S3 origin.
 *
 * API Gateway: each request becomes the payload 2.0 event (`rawPath`, `rawQueryString`, lower-cased `headers` with
 * repeated values joined by commas, `cookies`, `requestContext` with `requestId`, `http.method`, `http.path`,
 * `http.sourceIp`, `timeEpoch`, `routeKey` as the stack's routes give it, `isBase64Encoded`), and the function's
 * result goes back as status, headers, `cookies` as `set-cookie`, base64 bodies decoded. Limits: a request body
 * over 10 MB is a 413; a function result over 6 MB (Lambda's synchronous response limit) or a failed invocation
 * is API Gateway's `500 {"message":"Internal Server Error"}`, as is a throttled integration; an invocation still
 * running after 30 s is a 504:
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html,
 * https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html,
 * https://repost.aws/knowledge-center/api-gateway-internal-server-error.
 *
 * The CDN's static behaviours (`/api/v1/coverage*`, `/api/v1/sample*`): the stack's own CloudFront Functions code
 * (infra/cdn-functions.ts) runs in a `vm` context on the viewer request, the object is fetched from the bucket
 * through the S3 shaper, and the viewer-response function runs on the answer.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runInNewContext } from 'node:vm';
import {
  STATIC_PATH_PATTERNS,
  STATIC_REQUEST_FUNCTION_CODE,
  STATIC_RESPONSE_FUNCTION_CODE,
} from '../../../infra/cdn-functions';
import { API_ROUTES, DEFAULT_ROUTE_KEY } from '../../../infra/routes';
import type { PoolInvoke } from '../lambda/pool';

/**
 * API Gateway's largest request payload, Lambda's largest synchronous response, and the HTTP API's integration
 * timeout (30 s), past which the client gets a 504 while the invocation runs on
 * (https://repost.aws/knowledge-center/api-gateway-504-errors).
 */
export const LIMITS = {
  requestBytes: 10 * 1024 * 1024,
  responseBytes: 6 * 1024 * 1024,
  integrationTimeoutMs: 30_000,
} as const;

const GATEWAY_TIMEOUT = Buffer.from('{"message":"Endpoint request timed out"}');

/** A header the rehearsal's own client sets to find its requests' records; never passed to the function. */
export const TAG_HEADER = 'x-rehearsal-tag';

const INTERNAL_ERROR = Buffer.from('{"message":"Internal Server Error"}');

/** One request as the front saw it. */
export interface FrontRecord {
  path: string;
  /** The client's `x-rehearsal-tag` (not passed on): which measurement the request belongs to. */
  tag: string | null;
  status: number;
  /** From the receipt of the request to the end of the response. */
  ms: number;
  /** The function's part: init (cold) and duration; null for static paths. */
  initMs: number | null;
  durationMs: number | null;
  cold: boolean;
  throttled: boolean;
  /** The function's result payload size (JSON), to compare with the 6 MB limit. */
  resultBytes: number;
  machineWaitMs: number;
  instanceId: string | null;
  error: string | null;
}

/** A record before anything is known of its answer (status 0: no answer). */
export function newRecord(path: string, tag: string | null, error: string | null = null): FrontRecord {
  return {
    path,
    tag,
    status: 0,
    ms: 0,
    initMs: null,
    durationMs: null,
    cold: false,
    throttled: false,
    resultBytes: 0,
    machineWaitMs: 0,
    instanceId: null,
    error,
  };
}

export interface FrontOptions {
  invoke(event: Buffer): Promise<PoolInvoke>;
  /** GETs an object of the bucket through the CDN's origin connection (shaped as S3 is). */
  fetchStatic(uri: string): Promise<{ status: number; headers: Record<string, string>; body: Buffer }>;
  onRecord?(record: FrontRecord): void;
  /** Default {@link LIMITS}' 30 s. */
  integrationTimeoutMs?: number;
}

type CfHeaders = Record<string, { value: string }>;
type CfRequest = { method: string; uri: string; querystring: Record<string, { value: string }>; headers: CfHeaders };
type CfResponse = { statusCode: number; headers: CfHeaders; body?: { encoding: string; data: string } };

function loadFunction(code: string): (event: unknown) => unknown {
  const context: { handler?: (event: unknown) => unknown } = {};
  runInNewContext(`${code}\nthis.handler = handler;`, context);
  if (context.handler === undefined) throw new Error('the CloudFront function defines no handler');
  return context.handler;
}

export class ApiFront {
  private readonly server: http.Server;
  private readonly viewerRequest = loadFunction(STATIC_REQUEST_FUNCTION_CODE);
  private readonly viewerResponse = loadFunction(STATIC_RESPONSE_FUNCTION_CODE);
  private readonly staticPrefixes = STATIC_PATH_PATTERNS.map((p) => p.replace(/\*$/, ''));

  private constructor(private readonly options: FrontOptions) {
    this.server = http.createServer((req, res) => {
      const received = performance.now();
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= LIMITS.requestBytes) chunks.push(c);
      });
      req.on('end', () => {
        void this.handle(req, res, received, size > LIMITS.requestBytes ? null : Buffer.concat(chunks));
      });
    });
    this.server.keepAliveTimeout = 65_000;
  }

  static async start(options: FrontOptions): Promise<ApiFront> {
    const front = new ApiFront(options);
    await new Promise<void>((resolve) => front.server.listen(0, '127.0.0.1', resolve));
    return front;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    received: number,
    body: Buffer | null,
  ): Promise<void> {
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const rawPath = q < 0 ? target : target.slice(0, q);
    const rawQueryString = q < 0 ? '' : target.slice(q + 1);
    const tag = req.headers[TAG_HEADER];
    const record = newRecord(target, typeof tag === 'string' ? tag : null);
    const send = (status: number, headers: Record<string, string | string[]>, payload: Buffer) => {
      record.status = status;
      res.writeHead(status, { ...headers, 'content-length': String(payload.length) });
      res.end(payload, () => {
        record.ms = performance.now() - received;
        this.options.onRecord?.(record);
      });
    };
    try {
      if (this.staticPrefixes.some((p) => rawPath.startsWith(p))) {
        const out = await this.serveStatic(req, rawPath, rawQueryString);
        send(out.status, out.headers, out.body);
        return;
      }
      if (body === null) {
        send(413, { 'content-type': 'application/json' }, Buffer.from('{"message":"Request Entity Too Large"}'));
        return;
      }
      const requestId = apiRequestId();
      const event = payloadEvent(req, rawPath, rawQueryString, body, requestId);
      const gatewayHeaders = { 'apigw-requestid': requestId };
      let timer: NodeJS.Timeout | undefined;
      const result = await Promise.race([
        this.options.invoke(Buffer.from(JSON.stringify(event))),
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(
            () => resolve('timeout'),
            this.options.integrationTimeoutMs ?? LIMITS.integrationTimeoutMs,
          );
        }),
      ]);
      clearTimeout(timer);
      if (result === 'timeout') {
        record.error = 'integration timeout';
        send(504, { 'content-type': 'application/json', ...gatewayHeaders }, GATEWAY_TIMEOUT);
        return;
      }
      if (result.throttled) {
        record.throttled = true;
        send(500, { 'content-type': 'application/json', ...gatewayHeaders }, INTERNAL_ERROR);
        return;
      }
      record.cold = result.initMs !== null;
      record.initMs = result.initMs;
      record.durationMs = result.durationMs;
      record.machineWaitMs = result.machineWaitMs;
      record.instanceId = result.instance.id;
      if (result.outcome.kind === 'error') {
        record.error = `${result.outcome.reason}: ${result.outcome.detail.slice(0, 300)}`;
        send(500, { 'content-type': 'application/json', ...gatewayHeaders }, INTERNAL_ERROR);
        return;
      }
      record.resultBytes = result.outcome.body.length;
      if (result.outcome.body.length > LIMITS.responseBytes) {
        record.error = `function result of ${result.outcome.body.length} bytes is over Lambda's 6 MB`;
        send(500, { 'content-type': 'application/json', ...gatewayHeaders }, INTERNAL_ERROR);
        return;
      }
      const answer = parseResult(result.outcome.body);
      send(answer.status, { ...answer.headers, ...gatewayHeaders }, answer.body);
    } catch (err) {
      record.error = (err as Error).message;
      send(500, { 'content-type': 'application/json' }, INTERNAL_ERROR);
    }
  }

  private async serveStatic(
    req: http.IncomingMessage,
    rawPath: string,
    rawQueryString: string,
  ): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
    const querystring: Record<string, { value: string }> = {};
    for (const [name, value] of new URLSearchParams(rawQueryString)) querystring[name] = { value };
    const headers: CfHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers[name] = { value };
    }
    const request: CfRequest = { method: req.method ?? 'GET', uri: rawPath, querystring, headers };
    const context = { eventType: 'viewer-request', requestId: apiRequestId() };
    const out = this.viewerRequest({ version: '1.0', context, request }) as CfRequest | CfResponse;
    if ('statusCode' in out) return fromCloudFront(out);
    const origin = await this.options.fetchStatic(out.uri);
    const response: CfResponse = { statusCode: origin.status, headers: {} };
    for (const [name, value] of Object.entries(origin.headers)) response.headers[name.toLowerCase()] = { value };
    const shaped = this.viewerResponse({
      version: '1.0',
      context: { ...context, eventType: 'viewer-response' },
      request: out,
      response,
    }) as CfResponse;
    return { ...fromCloudFront(shaped), body: origin.body };
  }
}

function fromCloudFront(response: CfResponse): { status: number; headers: Record<string, string>; body: Buffer } {
  const headers: Record<string, string> = {};
  for (const [name, { value }] of Object.entries(response.headers)) headers[name] = value;
  const body = response.body
    ? Buffer.from(response.body.data, response.body.encoding === 'base64' ? 'base64' : 'utf8')
    : Buffer.alloc(0);
  return { status: response.statusCode, headers, body };
}

/** An id in the shape API Gateway gives (`apigw-requestid`). */
function apiRequestId(): string {
  return `${randomBytes(12).toString('base64').replace(/[+/]/g, 'A').slice(0, 15)}=`;
}

/** The HTTP API payload 2.0 event of a request. */
export function payloadEvent(
  req: http.IncomingMessage,
  rawPath: string,
  rawQueryString: string,
  body: Buffer,
  requestId: string,
) {
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = (req.rawHeaders[i] as string).toLowerCase();
    const value = req.rawHeaders[i + 1] as string;
    if (name === TAG_HEADER) continue;
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

/** The function's payload 2.0 result as an HTTP answer (status, headers, cookies, decoded body). */
export function parseResult(payload: Buffer): {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
} {
  const result = JSON.parse(payload.toString('utf8')) as {
    statusCode?: number;
    headers?: Record<string, string>;
    multiValueHeaders?: Record<string, string[]>;
    cookies?: string[];
    body?: string;
    isBase64Encoded?: boolean;
  };
  if (typeof result.statusCode !== 'number') {
    // Payload 2.0: a result without a status code is a 200 JSON of the result itself.
    return { status: 200, headers: { 'content-type': 'application/json' }, body: payload };
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name.toLowerCase()] = value;
  if (result.cookies && result.cookies.length > 0) headers['set-cookie'] = result.cookies;
  const body = Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8');
  return { status: result.statusCode, headers, body };
}
