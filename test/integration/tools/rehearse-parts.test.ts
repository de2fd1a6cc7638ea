/**
 * The rehearsal's parts that must be right for its figures to mean anything: the shaper (first-byte delay, the
 * per-connection bandwidth, every byte delivered in order, its counters), the API Gateway front's event and result
 * mapping, and the template's references resolved to the rehearsal's resources.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolveEnvironment } from '../../../tools/rehearse/deploy/synth';
import type { InvokeOutcome, LambdaInstance } from '../../../tools/rehearse/lambda/instance';
import type { PoolInvoke } from '../../../tools/rehearse/lambda/pool';
import { ApiFront, LIMITS, parseResult } from '../../../tools/rehearse/network/front';
import { Shaper, subtractCounters } from '../../../tools/rehearse/network/shaper';

const BODY = randomBytes(3 * 1024 * 1024 + 17);
let upstream: http.Server;
let endpoint: string;

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    if (req.url === '/missing') {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no');
      return;
    }
    // Written in small pieces, as a file stream writes them.
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(BODY.length) });
    let at = 0;
    const write = () => {
      while (at < BODY.length) {
        const piece = BODY.subarray(at, at + 16_384);
        at += piece.length;
        if (!res.write(piece)) {
          res.once('drain', write);
          return;
        }
      }
      res.end();
    };
    write();
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

function get(url: string, headers: Record<string, string> = {}) {
  const started = performance.now();
  return new Promise<{ status: number; body: Buffer; firstByteMs: number; ms: number }>((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const firstByteMs = performance.now() - started;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            firstByteMs,
            ms: performance.now() - started,
          }),
        );
      })
      .on('error', reject);
  });
}

/** A warm invocation's outcome, as the pool gives it to the front. */
function invoked(outcome: InvokeOutcome): PoolInvoke {
  return {
    outcome,
    durationMs: 1,
    throttled: false,
    instance: { id: 'i-1' } as LambdaInstance,
    initMs: null,
    machineWaitMs: 0,
  };
}

describe('the shaper', () => {
  it('delays the first byte, caps the bandwidth and delivers every byte in order', async () => {
    const shaper = new Shaper(endpoint, { latencyMs: 80, bytesPerSecond: 20 * 1024 * 1024 });
    const port = await shaper.open();
    try {
      const answer = await get(`${port.endpoint}/object`);
      expect(answer.status).toBe(200);
      expect(answer.body.equals(BODY)).toBe(true);
      expect(answer.firstByteMs).toBeGreaterThanOrEqual(80);
      // 3 MB at 20 MB/s cannot take less than 150 ms after the first byte.
      expect(answer.ms - answer.firstByteMs).toBeGreaterThanOrEqual(140);
      expect(port.counters).toMatchObject({ requests: 1, gets: 1, rangeGets: 0, bytesOut: BODY.length, errors: {} });
    } finally {
      await port.close();
    }
  });

  it('counts each port apart, range GETs and error answers', async () => {
    const shaper = new Shaper(endpoint, { latencyMs: 0, bytesPerSecond: Number.POSITIVE_INFINITY });
    const [a, b] = [await shaper.open(), await shaper.open()];
    try {
      await get(`${a.endpoint}/object`, { range: 'bytes=0-9' });
      const before = structuredClone(b.counters);
      expect((await get(`${b.endpoint}/missing`)).status).toBe(404);
      expect(subtractCounters(b.counters, before)).toMatchObject({ requests: 1, gets: 1, errors: { 'HTTP 404': 1 } });
      expect(a.counters).toMatchObject({ gets: 1, rangeGets: 1, errors: {} });
      expect(b.counters).toMatchObject({ gets: 1, rangeGets: 0, errors: { 'HTTP 404': 1 } });
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('the API Gateway front', () => {
  it('turns a payload 2.0 result into status, headers, cookies and a decoded body', () => {
    const result = parseResult(
      Buffer.from(
        JSON.stringify({
          statusCode: 201,
          headers: { 'Content-Type': 'text/csv' },
          cookies: ['a=1', 'b=2'],
          body: Buffer.from('x,y\n').toString('base64'),
          isBase64Encoded: true,
        }),
      ),
    );
    expect(result).toEqual({
      status: 201,
      headers: { 'content-type': 'text/csv', 'set-cookie': ['a=1', 'b=2'] },
      body: Buffer.from('x,y\n'),
    });
  });

  it('answers a result without a status code as a 200 JSON of the result itself', () => {
    const payload = Buffer.from('{"hello":"world"}');
    expect(parseResult(payload)).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: payload,
    });
  });

  it("answers API Gateway's 500 for a result over 6 MB, a function error and a throttle, 504 past its timeout", async () => {
    const result = (body: string) =>
      Buffer.from(JSON.stringify({ statusCode: 200, headers: { 'content-type': 'text/plain' }, body }));
    const outcomes: Record<string, PoolInvoke> = {
      '/small': invoked({ kind: 'response', body: result('ok') }),
      '/large': invoked({ kind: 'response', body: result('x'.repeat(LIMITS.responseBytes)) }),
      '/failed': invoked({ kind: 'error', reason: 'function_error', detail: 'Error: boom' }),
      '/throttled': { throttled: true },
    };
    const never = new Promise<PoolInvoke>(() => undefined);
    const events: Record<string, unknown>[] = [];
    const front = await ApiFront.start({
      invoke: async (event) => {
        const parsed = JSON.parse(event.toString('utf8')) as Record<string, unknown>;
        events.push(parsed);
        return parsed.rawPath === '/slow' ? never : (outcomes[parsed.rawPath as string] as PoolInvoke);
      },
      integrationTimeoutMs: 200,
      fetchStatic: async () => ({ status: 404, headers: {}, body: Buffer.alloc(0) }),
    });
    try {
      const small = await get(`${front.origin}/small?a=1&b=%20`, { cookie: 'c=1; d=2', 'X-Custom': 'v' });
      expect([small.status, small.body.toString()]).toEqual([200, 'ok']);
      expect(events[0]).toMatchObject({
        version: '2.0',
        rawPath: '/small',
        rawQueryString: 'a=1&b=%20',
        cookies: ['c=1', 'd=2'],
        headers: { 'x-custom': 'v' },
        isBase64Encoded: false,
        requestContext: { http: { method: 'GET', path: '/small', sourceIp: '127.0.0.1' }, stage: '$default' },
      });
      for (const path of ['/large', '/failed', '/throttled']) {
        const answer = await get(`${front.origin}${path}`);
        expect([path, answer.status, answer.body.toString()]).toEqual([
          path,
          500,
          '{"message":"Internal Server Error"}',
        ]);
      }
    } finally {
      await front.close();
    }
  });
});

describe("the template's references", () => {
  it('resolves a Ref to the rehearsal name and refuses any other intrinsic', () => {
    expect(resolveEnvironment({ A: 'x', B: { Ref: 'KeysTable1' } }, { KeysTable1: 'keys' })).toEqual({
      A: 'x',
      B: 'keys',
    });
    expect(() => resolveEnvironment({ B: { Ref: 'Other' } }, {})).toThrow('refers to Other');
    expect(() => resolveEnvironment({ C: { 'Fn::GetAtt': ['T', 'Arn'] } }, {})).toThrow('intrinsic');
  });
});
