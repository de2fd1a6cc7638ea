/**
 * The edge, on loopback: an HTTP server that does what API Gateway's HTTP API does with a Lambda integration
 * (payload format 2.0, ./payload-event.ts), and, for the static paths, what the CDN does before its S3 origin
 * (./cdn-static.ts).
 *
 * API Gateway: the function's result goes back as status, headers, `cookies` as `set-cookie`, base64 bodies decoded.
 * Limits: a request body over 10 MB is a 413; a function result over 6 MB (Lambda's synchronous response limit) or
 * a failed invocation is API Gateway's `500 {"message":"Internal Server Error"}`, as is a throttled integration; an
 * invocation still running after 30 s is a 504:
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html,
 * https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html,
 * https://repost.aws/knowledge-center/api-gateway-internal-server-error.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PoolInvoke } from '../lambda/pool';
import { type FetchStatic, StaticBehaviours } from './cdn-static';
import { apiRequestId, payloadEvent } from './payload-event';

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
  fetchStatic: FetchStatic;
  onRecord?(record: FrontRecord): void;
  /** Default {@link LIMITS}' 30 s. */
  integrationTimeoutMs?: number;
}

export class ApiFront {
  private readonly server: http.Server;
  private readonly statics: StaticBehaviours;

  private constructor(private readonly options: FrontOptions) {
    this.statics = new StaticBehaviours(options.fetchStatic);
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
      if (this.statics.takes(rawPath)) {
        const out = await this.statics.serve(req, rawPath, rawQueryString);
        send(out.status, out.headers, out.body);
        return;
      }
      if (body === null) {
        send(413, { 'content-type': 'application/json' }, Buffer.from('{"message":"Request Entity Too Large"}'));
        return;
      }
      const requestId = apiRequestId();
      const event = payloadEvent(req, rawPath, rawQueryString, body, requestId, TAG_HEADER);
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
