/**
 * The API reference at /api/v1/docs through both adapters over the real runtime: an HTML page that loads Redoc from
 * this origin only, under a Content-Security-Policy that allows nothing else; the script itself, byte for byte
 * Redoc's bundle (but for the CDN logo); both public, cacheable, tagged and compressed as the client asks.
 */
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  BLANK_LOGO,
  DOCS_CSP,
  DOCS_PATHS,
  REDOC_BUNDLE_MODULE,
  REDOC_CDN_LOGO,
} from '../../../../lambdas/http/docs-page';
import { type ApiTestEnv, startApiTestEnv } from '../../../helpers/api-test-env';
import { apiGatewayEvent } from '../../../helpers/apigw-event';
import { type LambdaAnswer, lowerHeaders, type RawAnswer, rawRequest } from '../../../helpers/raw-answers';

/** Redoc's bundle as installed, and as the API must serve it. */
const REDOC_FILE = readFileSync(require.resolve(REDOC_BUNDLE_MODULE));
const SERVED_SCRIPT = Buffer.from(REDOC_FILE.toString('utf8').replace(REDOC_CDN_LOGO, BLANK_LOGO), 'utf8');

let env: ApiTestEnv;
beforeAll(async () => {
  env = await startApiTestEnv({ storage: 'folder' });
});
afterAll(async () => {
  await env?.close();
});

/** A request through node:http, its body as sent (fetch would decode it). */
function raw(path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return rawRequest(`${env.server.url}${path}`, headers);
}

async function viaLambda(path: string, headers: Record<string, string> = {}): Promise<LambdaAnswer> {
  return (await env.lambda(apiGatewayEvent(path, '', headers) as never, {} as never)) as LambdaAnswer;
}

/** Every `src` and `href` attribute value of an HTML text. */
function linksOf(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href|spec-url)="([^"]*)"/g)].map((m) => m[1] as string);
}

describe('the reference page', () => {
  it('answers 200 HTML that loads Redoc from our own origin, under a CSP that allows only this origin', async () => {
    const res = await raw(DOCS_PATHS.page);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(DOCS_CSP);
    for (const directive of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"])
      expect(DOCS_CSP.split('; ')).toContain(directive);
    const html = res.body.toString('utf8');
    expect(html).toContain('<script src="/api/v1/docs/redoc.standalone.js"></script>');
    expect(html).toContain('<redoc spec-url="/api/v1/openapi.json"');
    // No inline script (script-src 'self' has no hash or nonce) and no other host, not even as a link.
    expect(html.match(/<script\b[^>]*>[^<]+<\/script>/g)).toBeNull();
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/(?:src|href)="\/\//);
    const links = linksOf(html);
    expect(links.length).toBeGreaterThanOrEqual(3);
    for (const link of links) expect(link).toMatch(/^\/api\/v1\//);
  });

  it('is public, cacheable and CORS-open like the other public answers, never metered', async () => {
    const res = await raw(DOCS_PATHS.page, { origin: 'https://app.example.org' });
    expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('answers the trailing-slash form with the same page', async () => {
    const plain = await raw(DOCS_PATHS.page);
    const slash = await raw(`${DOCS_PATHS.page}/`);
    expect(slash.status).toBe(200);
    expect(slash.body.equals(plain.body)).toBe(true);
  });

  it('answers 304 to its own ETag, and 400 invalid_parameter to an unknown query parameter', async () => {
    const first = await raw(DOCS_PATHS.page);
    const again = await raw(DOCS_PATHS.page, { 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.byteLength).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    const unknown = await raw(`${DOCS_PATHS.page}?theme=dark`);
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body.toString('utf8')).code).toBe('invalid_parameter');
  });
});

describe('the way in', () => {
  it('redirects the root and the base address (with or without a slash) to the reference, 302', async () => {
    for (const path of ['/', '/api/v1', '/api/v1/']) {
      const res = await raw(path);
      expect({ path, status: res.status, location: res.headers.location }).toEqual({
        path,
        status: 302,
        location: DOCS_PATHS.page,
      });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const lambda = await viaLambda('/');
    expect([lambda.statusCode, lowerHeaders(lambda.headers).location]).toEqual([302, DOCS_PATHS.page]);
    // Anything else still answers the JSON 404.
    expect((await raw('/docs')).status).toBe(404);
  });
});

describe('the reference page script', () => {
  it('is Redoc standalone bundle, byte for byte but for the CDN logo, as JavaScript', async () => {
    expect(REDOC_FILE.toString('utf8').split(REDOC_CDN_LOGO)).toHaveLength(2);
    const res = await raw(DOCS_PATHS.script);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(SERVED_SCRIPT.byteLength));
    expect(res.body.equals(SERVED_SCRIPT)).toBe(true);
    expect(res.body.includes('cdn.redoc.ly')).toBe(false);
    expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('is sent br or gzip as the client asks, the same bytes once decoded, with one ETag', async () => {
    const br = await raw(DOCS_PATHS.script, { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.body.byteLength).toBeLessThan(SERVED_SCRIPT.byteLength / 2);
    expect(brotliDecompressSync(br.body).equals(SERVED_SCRIPT)).toBe(true);
    const gzip = await raw(DOCS_PATHS.script, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(SERVED_SCRIPT)).toBe(true);
    expect(gzip.headers.etag).toBe(br.headers.etag);
    const cached = await raw(DOCS_PATHS.script, { 'if-none-match': String(br.headers.etag) });
    expect(cached.status).toBe(304);
  });

  it('reaches the browser through the Lambda too (compressed, base64 for API Gateway)', async () => {
    const page = await viaLambda(DOCS_PATHS.page);
    expect(page.statusCode).toBe(200);
    expect(lowerHeaders(page.headers)['content-security-policy']).toBe(DOCS_CSP);
    const script = await viaLambda(DOCS_PATHS.script, { 'accept-encoding': 'gzip' });
    expect(script.statusCode).toBe(200);
    expect(lowerHeaders(script.headers)['content-encoding']).toBe('gzip');
    expect(script.isBase64Encoded).toBe(true);
    expect(gunzipSync(Buffer.from(script.body, 'base64')).equals(SERVED_SCRIPT)).toBe(true);
  });
});
