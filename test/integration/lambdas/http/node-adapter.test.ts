/**
 * Requests that node:http refuses before the app sees them, sent byte for byte over raw sockets (node:net) to the
 * real node adapter: each gets the contract's JSON error body, not node's empty 400/431 or a reset.
 */
import { connect } from 'node:net';
import { ERROR_STATUS } from '../../../../data-contracts/constants';
import { createApp } from '../../../../lambdas/http/app';
import { type NodeServer, serveNode } from '../../../../lambdas/http/node-adapter';
import { fakeDeps } from '../../../helpers/api-fake-deps';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `request` as is and reads the answer until the server closes the connection. */
function sendRaw(port: number, request: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(split + 4) });
    });
    socket.end(request);
  });
}

const get = (target: string, extraHeaders = '') =>
  `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extraHeaders}Connection: close\r\n\r\n`;

describe('the node adapter, for requests node:http refuses', () => {
  let server: NodeServer;
  beforeAll(async () => {
    server = await serveNode(createApp(fakeDeps()), { port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  const cases: [string, () => string | Buffer, number, string][] = [
    [
      'a query string over 16 KB',
      () => get(`/api/v1/providers?vertical=glp1&q=${'a'.repeat(17_000)}`),
      431,
      'request_too_large',
    ],
    [
      'headers over 16 KB',
      () => get('/api/v1/coverage', `X-Filler: ${'b'.repeat(17_000)}\r\n`),
      431,
      'request_too_large',
    ],
    [
      'a method node does not know (FOO)',
      () => 'FOO /api/v1/coverage HTTP/1.1\r\nHost: x\r\n\r\n',
      400,
      'malformed_request',
    ],
    ['a NUL byte in a header value', () => get('/api/v1/coverage', 'X-Odd: a\u0000b\r\n'), 400, 'malformed_request'],
    [
      'Content-Length with Transfer-Encoding',
      () =>
        'GET /api/v1/coverage HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
      'malformed_request',
    ],
    ['a request line that is not HTTP', () => 'hello there\r\n\r\n', 400, 'malformed_request'],
  ];

  it.each(cases)('answers %s with the contract JSON error', async (_name, request, status, code) => {
    const res = await sendRaw(server.port, request());
    expect(res.status).toBe(status);
    expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS]).toBe(status);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    const body = JSON.parse(res.body) as { code: string; error: string; hint?: string };
    expect(body).toMatchObject({ code, error: expect.any(String), hint: expect.any(String) });
  });

  it('still serves well-formed requests on the same server', async () => {
    const ok = await sendRaw(server.port, get('/api/v1/openapi.json'));
    expect(ok.status).toBe(200);
    const wrongMethod = await sendRaw(
      server.port,
      'DELETE /api/v1/coverage HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(wrongMethod.status).toBe(404);
    expect(JSON.parse(wrongMethod.body)).toMatchObject({ code: 'not_found' });
  });
});
