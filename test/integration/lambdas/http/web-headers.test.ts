/**
 * What makes the API fit the web, through both adapters over the real runtime: request ids, CORS and preflights,
 * compression as the client asks, and the standard rate-limit fields.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { PLAN_RULES } from '../../../../data-contracts/constants';
import { type ApiTestEnv, bearer, startApiTestEnv } from '../../../helpers/api-test-env';
import { apiGatewayEvent } from '../../../helpers/apigw-event';
import { type LambdaAnswer, lowerHeaders, type RawAnswer, rawRequest } from '../../../helpers/raw-answers';

const BASE = '/api/v1';
/** A list page well over 1 KB, on the identity path. */
const LIST = `${BASE}/providers?taxonomy=Counselor&limit=1000`;

let env: ApiTestEnv;
beforeAll(async () => {
  env = await startApiTestEnv({ storage: 'folder' });
});
afterAll(async () => {
  await env?.close();
});

/** A request through node:http, its body as sent (fetch would decode it). */
function raw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return rawRequest(`${env.server.url}${path}`, headers, method);
}

async function viaLambda(event: ReturnType<typeof apiGatewayEvent>): Promise<LambdaAnswer> {
  return (await env.lambda(event as never, {} as never)) as LambdaAnswer;
}

function preflightEvent(path: string): ReturnType<typeof apiGatewayEvent> {
  const event = apiGatewayEvent(path, '', {
    origin: 'https://app.example.org',
    'access-control-request-method': 'GET',
    'access-control-request-headers': 'authorization',
  });
  event.requestContext.http.method = 'OPTIONS';
  return event;
}

describe('request ids', () => {
  it('gives every node answer a new UUID, echoes a well-formed client id and replaces a malformed one', async () => {
    const key = bearer(env.keys.developer);
    const a = await raw(`${BASE}/providers?vertical=glp1&limit=1`, key);
    const b = await raw(`${BASE}/providers?vertical=glp1&limit=1`, key);
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id']);
    const echoed = await raw(`${BASE}/coverage`, { 'x-request-id': 'client.trace-42_A' });
    expect(echoed.headers['x-request-id']).toBe('client.trace-42_A');
    for (const bad of ['has space', 'x'.repeat(129), 'semi;colon']) {
      const replaced = await raw(`${BASE}/coverage`, { 'x-request-id': bad });
      expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('puts the id in error bodies, on a 304 and on a preflight, and in the request log line', async () => {
    const error = await raw(`${BASE}/providers?vertical=nope`, {
      ...bearer(env.keys.free),
      'x-request-id': 'trace-error-1',
    });
    expect(error.status).toBe(400);
    expect(JSON.parse(error.body.toString('utf8')).request_id).toBe('trace-error-1');
    const missing = await raw(`${BASE}/providers?vertical=glp1`);
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.body.toString('utf8')).request_id).toBe(missing.headers['x-request-id']);

    const first = await raw(`${BASE}/providers?vertical=glp1&limit=2`, bearer(env.keys.enterprise));
    const cached = await raw(`${BASE}/providers?vertical=glp1&limit=2`, {
      ...bearer(env.keys.enterprise),
      'if-none-match': String(first.headers.etag),
      'x-request-id': 'trace-304',
    });
    expect([cached.status, cached.headers['x-request-id']]).toEqual([304, 'trace-304']);
    expect(cached.headers.vary).toBe('Accept-Encoding');

    const preflight = await raw(
      `${BASE}/providers`,
      { origin: 'https://a.example', 'access-control-request-method': 'GET' },
      'OPTIONS',
    );
    expect(preflight.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    const line = env.logs
      .map((l) => JSON.parse(l))
      .find((l) => l.message === 'request' && l.request_id === 'trace-error-1');
    expect(line).toMatchObject({ status: 400, request_id: 'trace-error-1' });
  });

  it('uses the API Gateway request id in the Lambda, unless the client sent a well-formed one', async () => {
    const event = apiGatewayEvent(`${BASE}/coverage`);
    event.requestContext.requestId = 'Xy3abC1DoAMEbcQ=';
    expect(lowerHeaders((await viaLambda(event)).headers)['x-request-id']).toBe('Xy3abC1DoAMEbcQ=');

    const unknown = apiGatewayEvent(`${BASE}/nothing`, '', { 'x-request-id': 'not valid!' });
    unknown.requestContext.requestId = 'Gw-id-1';
    const answer = await viaLambda(unknown);
    expect(lowerHeaders(answer.headers)['x-request-id']).toBe('Gw-id-1');
    expect(JSON.parse(answer.body).request_id).toBe('Gw-id-1');

    const echoed = apiGatewayEvent(`${BASE}/coverage`, '', { 'x-request-id': 'mine-1' });
    expect(lowerHeaders((await viaLambda(echoed)).headers)['x-request-id']).toBe('mine-1');
  });
});

describe('CORS', () => {
  it('allows any origin, without credentials, on public and keyed answers and on errors', async () => {
    for (const [path, headers] of [
      [`${BASE}/coverage`, {}],
      [`${BASE}/sample?format=csv`, {}],
      [`${BASE}/openapi.json`, {}],
      [`${BASE}/providers?vertical=glp1&limit=1`, bearer(env.keys.free)],
      [`${BASE}/providers?vertical=glp1`, {}],
    ] as const) {
      const res = await raw(path, { origin: 'https://app.example.org', ...headers });
      expect({ path, origin: res.headers['access-control-allow-origin'] }).toEqual({ path, origin: '*' });
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(String(res.headers['access-control-expose-headers'])).toContain('X-Request-Id');
    }
  });

  it('answers a preflight with 204, the methods and the key headers, through node and the Lambda', async () => {
    for (const path of [`${BASE}/providers`, `${BASE}/coverage`, `${BASE}/npi/1003633876`]) {
      const node = await raw(
        path,
        {
          origin: 'https://app.example.org',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
        'OPTIONS',
      );
      const lambda = await viaLambda(preflightEvent(path));
      for (const [status, headers] of [
        [node.status, node.headers],
        [lambda.statusCode, lowerHeaders(lambda.headers)],
      ] as const) {
        expect(status).toBe(204);
        expect(headers['access-control-allow-origin']).toBe('*');
        expect(headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
        expect(String(headers['access-control-allow-headers'])).toMatch(/Authorization.*X-Api-Key/);
        expect(headers['access-control-allow-credentials']).toBeUndefined();
      }
      expect(node.body.length).toBe(0);
    }
  });

  it('still answers a plain OPTIONS (not a preflight) with 404 not_found', async () => {
    const res = await raw(`${BASE}/providers`, {}, 'OPTIONS');
    expect(res.status).toBe(404);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('compression', () => {
  it('sends a large JSON page br or gzip as asked, the same bytes once decoded, with Vary and one ETag', async () => {
    const key = bearer(env.keys.enterprise);
    const plain = await raw(LIST, { ...key, 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');

    const cases: [string, string | null][] = [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0.5, br;q=0.4', 'gzip'],
      ['*', 'br'],
      ['br;q=0, gzip;q=0', null],
      ['deflate', null],
    ];
    for (const [accept, coding] of cases) {
      const res = await raw(LIST, { ...key, 'accept-encoding': accept });
      expect({ accept, coding: res.headers['content-encoding'] ?? null }).toEqual({ accept, coding });
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.headers.etag).toBe(plain.headers.etag);
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      const decoded =
        coding === 'br' ? brotliDecompressSync(res.body) : coding === 'gzip' ? gunzipSync(res.body) : res.body;
      expect(decoded.equals(plain.body)).toBe(true);
      if (coding !== null) expect(res.body.length).toBeLessThan(plain.body.length / 3);
    }
  });

  it('compresses CSV too, and leaves bodies under 1 KB alone', async () => {
    const csv = await raw(`${BASE}/sample?format=csv`, { 'accept-encoding': 'gzip' });
    expect(csv.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(csv.body).toString('utf8')).toMatch(/^entity_id,/);
    const small = await raw(`${BASE}/providers?vertical=nope`, { ...bearer(env.keys.free), 'accept-encoding': 'gzip' });
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBe('Accept-Encoding');
  });

  it('gives the Lambda a base64 body that decodes to the node adapter\u2019s compressed bytes', async () => {
    const headers = { ...bearer(env.keys.enterprise), 'accept-encoding': 'gzip', 'x-request-id': 'same-1' };
    const node = await raw(LIST, headers);
    const [path, query] = LIST.split('?') as [string, string];
    const lambda = await viaLambda(apiGatewayEvent(path, query, headers));
    expect(lambda.statusCode).toBe(200);
    expect(lambda.isBase64Encoded).toBe(true);
    expect(lowerHeaders(lambda.headers)['content-encoding']).toBe('gzip');
    expect(gunzipSync(Buffer.from(lambda.body, 'base64')).equals(gunzipSync(node.body))).toBe(true);
  });
});

describe('rate-limit fields', () => {
  it('send RateLimit and RateLimit-Policy with the X-RateLimit figures on a metered answer', async () => {
    const key = (await env.keyStore.create({ plan: 'developer', vertical: null })).key;
    const res = await raw(`${BASE}/providers?vertical=glp1&limit=1`, bearer(key));
    const quota = PLAN_RULES.developer.monthlyQuota;
    expect(res.headers['ratelimit-policy']).toBe(`"monthly";q=${quota}`);
    expect(res.headers.ratelimit).toBe(
      `"monthly";r=${res.headers['x-ratelimit-remaining']};t=${res.headers['x-ratelimit-reset']}`,
    );
    const unmetered = await raw(`${BASE}/providers?vertical=glp1&limit=1`, bearer(env.keys.enterprise));
    expect(unmetered.headers.ratelimit).toBeUndefined();
  });

  it('challenges a missing or unknown key with WWW-Authenticate: Bearer', async () => {
    for (const headers of [{}, bearer('pf_live_not_a_key')]) {
      const res = await raw(`${BASE}/providers?vertical=glp1`, headers);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="provider-facts"');
    }
  });
});
