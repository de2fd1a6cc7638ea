/**
 * The CloudFront Functions of the static behaviours, run in a `vm` context with CloudFront's event shapes
 * (https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/functions-event-structure.html).
 */
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { CORS } from '../../data-contracts/constants';
import { FAVICON_CACHE_CONTROL } from '../../data-contracts/edge';
import { OPERATION_RULES } from '../../data-contracts/query-parameters';
import {
  COVERAGE_PAGE_PATH_PATTERN,
  FAVICON_FUNCTION_CODE,
  SAMPLE_CSV_FILENAME,
  STATIC_ORIGIN_PATHS,
  STATIC_PUBLIC_PATHS,
  STATIC_REQUEST_FUNCTION_CODE,
  STATIC_RESPONSE_FUNCTION_CODE,
} from '../../infra/cdn-functions';
import type { ApiError } from '../../lambdas/core/api-error';
import { assertKnownParameters } from '../../lambdas/http/unknown-parameters';

type Query = Record<string, { value: string }>;
type Headers = Record<string, { value: string }>;
interface CfRequest {
  method: string;
  uri: string;
  querystring: Query;
  headers: Headers;
}
interface CfResponse {
  statusCode: number;
  headers: Headers;
  body?: { encoding: string; data: string };
}

function load(code: string): (event: unknown) => unknown {
  const context: { handler?: (event: unknown) => unknown } = {};
  runInNewContext(`${code}\nthis.handler = handler;`, context);
  if (context.handler === undefined) throw new Error('no handler');
  return context.handler;
}

const onRequest = load(STATIC_REQUEST_FUNCTION_CODE);
const onResponse = load(STATIC_RESPONSE_FUNCTION_CODE);
const onFavicon = load(FAVICON_FUNCTION_CODE);

const request = (uri: string, querystring: Query = {}): CfRequest => ({ method: 'GET', uri, querystring, headers: {} });
const viewerRequest = (uri: string, querystring: Query = {}) =>
  onRequest({
    version: '1.0',
    context: { eventType: 'viewer-request', requestId: 'cf-req-1' },
    request: request(uri, querystring),
  }) as CfRequest | CfResponse;

describe('static viewer-request function', () => {
  it.each(['/api/v1/coverage', '/api/v1/coverage/'])('maps %s to the coverage object', (uri) => {
    const out = viewerRequest(uri, { key: { value: 'pf_secret' } }) as CfRequest;
    expect(out.uri).toBe(STATIC_ORIGIN_PATHS.coverage);
    expect(out.querystring).toEqual({});
  });

  it.each(['/api/v1/coverage.html', '/api/v1/coverage.html/'])(
    'maps %s to the coverage page, ignoring any query',
    (uri) => {
      const out = viewerRequest(uri, { utm_source: { value: 'mail' }, format: { value: 'xml' } }) as CfRequest;
      expect(out.uri).toBe(STATIC_ORIGIN_PATHS.coveragePage);
      expect(out.querystring).toEqual({});
    },
  );

  it.each(['/api/v1/sample', '/api/v1/sample/'])('maps %s to the JSON sample, and ?format=csv to the CSV', (uri) => {
    expect((viewerRequest(uri) as CfRequest).uri).toBe(STATIC_ORIGIN_PATHS.sampleJson);
    expect((viewerRequest(uri, { format: { value: 'json' } }) as CfRequest).uri).toBe(STATIC_ORIGIN_PATHS.sampleJson);
    const csv = viewerRequest(uri, { format: { value: 'csv' }, key: { value: 'x' } }) as CfRequest;
    expect(csv.uri).toBe(STATIC_ORIGIN_PATHS.sampleCsv);
    expect(csv.querystring).toEqual({ format: { value: 'csv' } });
  });

  it('answers an unknown format with the contract 400 body', () => {
    const out = viewerRequest('/api/v1/sample', { format: { value: 'xml' } }) as CfResponse;
    expect(out.statusCode).toBe(400);
    expect(JSON.parse(out.body?.data ?? '')).toMatchObject({ code: 'invalid_parameter' });
    expect(out.headers['content-type']?.value).toMatch(/^application\/json/);
  });

  it.each(['/api/v1/coveragex', '/api/v1/sample.csv', '/api/v1/sample/extra'])('answers %s with a JSON 404', (uri) => {
    const out = viewerRequest(uri) as CfResponse;
    expect(out.statusCode).toBe(404);
    expect(JSON.parse(out.body?.data ?? '')).toEqual({ error: 'Not found', code: 'not_found' });
  });
});

describe('CORS and request ids at the edge', () => {
  const preflight = (headers: Headers) =>
    onRequest({
      version: '1.0',
      context: { eventType: 'viewer-request', requestId: 'cf-pre-1' },
      request: { method: 'OPTIONS', uri: '/api/v1/coverage', querystring: {}, headers },
    }) as CfResponse;

  it('answers a preflight with 204 and the API\u2019s methods and headers, and a plain OPTIONS is not one', () => {
    const out = preflight({
      'access-control-request-method': { value: 'GET' },
      origin: { value: 'https://a.example' },
    });
    expect(out.statusCode).toBe(204);
    expect(out.headers['access-control-allow-origin']?.value).toBe('*');
    expect(out.headers['access-control-allow-methods']?.value).toBe(CORS.allowMethods);
    expect(out.headers['access-control-allow-headers']?.value).toBe(CORS.allowHeaders);
    expect(out.headers['x-request-id']?.value).toBe('cf-pre-1');
    expect((preflight({}) as unknown as CfRequest).uri).toBe(STATIC_ORIGIN_PATHS.coverage);
  });

  it('gives an answer made at the edge the CORS headers and the request id', () => {
    const out = viewerRequest('/api/v1/sample', { format: { value: 'xml' } }) as CfResponse;
    expect(out.statusCode).toBe(400);
    expect(out.headers['access-control-allow-origin']?.value).toBe('*');
    expect(out.headers['x-request-id']?.value).toBe('cf-req-1');
  });

  it('gives every object the bucket serves the CORS headers and the request id', () => {
    const out = onResponse({
      version: '1.0',
      context: { eventType: 'viewer-response', requestId: 'cf-req-3' },
      request: request('/api/v1/coverage'),
      response: { statusCode: 200, headers: { 'content-type': { value: 'application/json' } } },
    }) as CfResponse;
    expect(out.headers['access-control-allow-origin']?.value).toBe('*');
    expect(out.headers['access-control-expose-headers']?.value).toBe(CORS.exposeHeaders);
    expect(out.headers['x-request-id']?.value).toBe('cf-req-3');
  });
});

describe('static viewer-response function', () => {
  const respond = (uri: string, querystring: Query, response: CfResponse) =>
    onResponse({
      version: '1.0',
      context: { eventType: 'viewer-response', requestId: 'cf-req-2' },
      request: request(uri, querystring),
      response,
    }) as CfResponse;

  it('serves the CSV sample as an attachment', () => {
    const out = respond(
      '/api/v1/sample',
      { format: { value: 'csv' } },
      {
        statusCode: 200,
        headers: { 'content-type': { value: 'binary/octet-stream' } },
      },
    );
    expect(out.headers['content-type']?.value).toBe('text/csv; charset=utf-8');
    expect(out.headers['content-disposition']?.value).toBe(`attachment; filename="${SAMPLE_CSV_FILENAME}"`);
  });

  it('leaves the type of JSON responses alone, even for ?format=csv on coverage', () => {
    const headers = { 'content-type': { value: 'application/json' } };
    const out = respond('/api/v1/coverage', { format: { value: 'csv' } }, { statusCode: 200, headers: { ...headers } });
    expect(out.headers['content-type']).toEqual(headers['content-type']);
    expect(out.headers['content-disposition']).toBeUndefined();
  });

  it('serves the coverage page as the HTML it was stored as, with the CORS headers', () => {
    const type = { value: 'text/html; charset=utf-8' };
    const out = respond(
      '/api/v1/coverage.html',
      { format: { value: 'csv' } },
      {
        statusCode: 200,
        headers: { 'content-type': type },
      },
    );
    expect(out.headers['content-type']).toEqual(type);
    expect(out.headers['content-disposition']).toBeUndefined();
    expect(out.headers['access-control-allow-origin']?.value).toBe('*');
  });

  it('keeps a Content-Disposition the object already carries', () => {
    const out = respond(
      STATIC_ORIGIN_PATHS.sampleCsv,
      {},
      {
        statusCode: 200,
        headers: {
          'content-type': { value: 'text/csv' },
          'content-disposition': { value: 'attachment; filename="x.csv"' },
        },
      },
    );
    expect(out.headers['content-disposition']?.value).toBe('attachment; filename="x.csv"');
  });
});

describe('unknown parameters at the edge', () => {
  /** The API's own refusal of `names` on a route, as a body (lambdas/http/unknown-parameters.ts). */
  const apiRefusal = (names: string[], allowed: readonly string[]): unknown => {
    try {
      assertKnownParameters(names, allowed);
      return null;
    } catch (err) {
      return (err as ApiError).toBody();
    }
  };
  const edgeRefusal = (uri: string, names: string[]): unknown => {
    const out = viewerRequest(uri, Object.fromEntries(names.map((n) => [n, { value: '1' }]))) as CfResponse;
    return out.statusCode === 400 ? JSON.parse(out.body?.data ?? '') : null;
  };

  it.each([
    ['/api/v1/coverage', ['x']],
    ['/api/v1/coverage/', ['kye']],
    ['/api/v1/coverage', ['key']],
    ['/api/v1/sample', ['formt']],
    ['/api/v1/sample/', ['FORMAT']],
    ['/api/v1/sample', ['key', 'zip']],
    ['/api/v1/sample', [`${'q'.repeat(50)}\n`]],
  ])('answer %s with %j as the API does', (uri, names) => {
    const allowed = OPERATION_RULES[uri.includes('coverage') ? 'getCoverage' : 'getSample'].queryParameters;
    const expected = apiRefusal(names, allowed);
    expect(edgeRefusal(uri, names)).toEqual(expected);
    if (names[0] === 'formt')
      expect(expected).toMatchObject({ hint: expect.stringContaining('Did you mean `format`?') });
  });

  it('agree with the API on any parameter name', () => {
    const allowed = OPERATION_RULES.getSample.queryParameters;
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }), (name) => {
        expect(edgeRefusal('/api/v1/sample', [name])).toEqual(apiRefusal([name], allowed));
      }),
    );
  });
});

describe('favicon viewer-request function', () => {
  const favicon = (method: string, headers: Headers = {}) =>
    onFavicon({
      version: '1.0',
      context: { eventType: 'viewer-request', requestId: 'cf-fav-1' },
      request: { method, uri: '/favicon.ico', querystring: {}, headers },
    }) as CfResponse;

  it.each(['GET', 'HEAD'])('answers %s with 204, a day of caching, no body', (method) => {
    const out = favicon(method);
    expect(out.statusCode).toBe(204);
    expect(out.body).toBeUndefined();
    expect(out.headers['cache-control']?.value).toBe(FAVICON_CACHE_CONTROL);
    expect(out.headers['access-control-allow-origin']?.value).toBe('*');
    expect(out.headers['x-request-id']?.value).toBe('cf-fav-1');
  });

  it('answers a CORS preflight as the static behaviours do, uncached', () => {
    const out = favicon('OPTIONS', { 'access-control-request-method': { value: 'GET' } });
    expect(out.statusCode).toBe(204);
    expect(out.headers['access-control-allow-methods']?.value).toBe(CORS.allowMethods);
    expect(out.headers['cache-control']?.value).toBe('no-store');
  });
});

describe('the coverage page\u2019s behaviour', () => {
  const matches = (pattern: string, uri: string) =>
    new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(uri);

  it('takes the page in both forms, and neither coverage.json nor the sample', () => {
    expect(matches(COVERAGE_PAGE_PATH_PATTERN, STATIC_PUBLIC_PATHS.coveragePage)).toBe(true);
    expect(matches(COVERAGE_PAGE_PATH_PATTERN, `${STATIC_PUBLIC_PATHS.coveragePage}/`)).toBe(true);
    expect(matches(COVERAGE_PAGE_PATH_PATTERN, STATIC_PUBLIC_PATHS.coverage)).toBe(false);
    expect(matches(COVERAGE_PAGE_PATH_PATTERN, `${STATIC_PUBLIC_PATHS.coverage}/`)).toBe(false);
    expect(matches(COVERAGE_PAGE_PATH_PATTERN, STATIC_PUBLIC_PATHS.sample)).toBe(false);
  });
});
