/**
 * The CDN's static behaviours (`/api/v1/coverage*`, `/api/v1/sample*`), on loopback: the stack's own CloudFront
 * Functions code (infra/cdn-functions.ts) runs in a `vm` context on the viewer request, the object is fetched from
 * the bucket through the S3 shaper, and the viewer-response function runs on the answer.
 */
import type http from 'node:http';
import { runInNewContext } from 'node:vm';
import {
  STATIC_PATH_PATTERNS,
  STATIC_REQUEST_FUNCTION_CODE,
  STATIC_RESPONSE_FUNCTION_CODE,
} from '../../../infra/cdn-functions';
import { apiRequestId } from './payload-event';

/** An answer of the edge: status, headers and body. */
export interface StaticAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** GETs an object of the bucket through the CDN's origin connection (shaped as S3 is). */
export type FetchStatic = (uri: string) => Promise<StaticAnswer>;

type CfHeaders = Record<string, { value: string }>;
type CfRequest = { method: string; uri: string; querystring: Record<string, { value: string }>; headers: CfHeaders };
type CfResponse = { statusCode: number; headers: CfHeaders; body?: { encoding: string; data: string } };

function loadFunction(code: string): (event: unknown) => unknown {
  const context: { handler?: (event: unknown) => unknown } = {};
  runInNewContext(`${code}\nthis.handler = handler;`, context);
  if (context.handler === undefined) throw new Error('the CloudFront function defines no handler');
  return context.handler;
}

/** The static paths' behaviours: which paths they take, and their answer to a request. */
export class StaticBehaviours {
  private readonly viewerRequest = loadFunction(STATIC_REQUEST_FUNCTION_CODE);
  private readonly viewerResponse = loadFunction(STATIC_RESPONSE_FUNCTION_CODE);
  private readonly prefixes = STATIC_PATH_PATTERNS.map((p) => p.replace(/\*$/, ''));

  constructor(private readonly fetchStatic: FetchStatic) {}

  /** Whether a static behaviour, not the API, takes `rawPath`. */
  takes(rawPath: string): boolean {
    return this.prefixes.some((p) => rawPath.startsWith(p));
  }

  async serve(req: http.IncomingMessage, rawPath: string, rawQueryString: string): Promise<StaticAnswer> {
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
    const origin = await this.fetchStatic(out.uri);
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

function fromCloudFront(response: CfResponse): StaticAnswer {
  const headers: Record<string, string> = {};
  for (const [name, { value }] of Object.entries(response.headers)) headers[name] = value;
  const body = response.body
    ? Buffer.from(response.body.data, response.body.encoding === 'base64' ? 'base64' : 'utf8')
    : Buffer.alloc(0);
  return { status: response.statusCode, headers, body };
}
