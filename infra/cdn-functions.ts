/**
 * CloudFront Functions (cloudfront-js-2.0) of the static behaviours `/api/v1/coverage.html*` (the coverage page),
 * `/api/v1/coverage*` and `/api/v1/sample*`, and of `/favicon.ico` (answered at the edge).
 * They are plain ES5-style source strings because CloudFront runs them, not Node; the infra tests evaluate them
 * in a `vm` context with recorded event shapes.
 * Reference: https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/functions-event-structure.html
 */
import { API_BASE_PATH, CORS } from '../data-contracts/constants';
import { FAVICON_CACHE_CONTROL } from '../data-contracts/edge';
import { PUBLIC_KEYS } from '../data-contracts/layout';
import { OPERATION_RULES } from '../data-contracts/query-parameters';
import { PAGE_PATHS } from '../data-contracts/routes';

/** The static objects behind the public endpoints, as CloudFront origin paths (S3 keys with a leading `/`). */
export const STATIC_ORIGIN_PATHS = {
  coverage: `/${PUBLIC_KEYS.coverage}`,
  coveragePage: `/${PUBLIC_KEYS.coveragePage}`,
  sampleJson: `/${PUBLIC_KEYS.sampleJson}`,
  sampleCsv: `/${PUBLIC_KEYS.sampleCsv}`,
} as const;

/** Public paths served from the bucket, without their trailing-slash forms. */
export const STATIC_PUBLIC_PATHS = {
  coverage: `${API_BASE_PATH}/coverage`,
  sample: `${API_BASE_PATH}/sample`,
  /** The coverage page: a behaviour of its own (its security headers), with the same functions as the others. */
  coveragePage: `${API_BASE_PATH}${PAGE_PATHS.coverage}`,
} as const;

/** Path patterns of the static cache behaviours (they must precede `/api/v1/*`). */
export const STATIC_PATH_PATTERNS = [`${STATIC_PUBLIC_PATHS.coverage}*`, `${STATIC_PUBLIC_PATHS.sample}*`] as const;

/**
 * The coverage page's behaviour, before the coverage pattern (which it would otherwise match): the page gets its
 * Content-Security-Policy and X-Frame-Options, coverage.json keeps the headers of every other answer. `*` takes the
 * trailing-slash form too.
 */
export const COVERAGE_PAGE_PATH_PATTERN = `${STATIC_PUBLIC_PATHS.coveragePage}*` as const;

/** The file name of the CSV attachment, as the API's CSV responses name it. */
export const SAMPLE_CSV_FILENAME = 'provider-facts-sample.csv' as const;

const json = (value: unknown): string => JSON.stringify(value);

/**
 * Viewer request: maps the public paths to the static objects, keeps only a normalised `format` in the query
 * string (the cache key), and answers anything else under the static patterns with the contract's JSON error
 * body, so `/api/v1/coveragex` is a JSON 404 as it would be from the API. An unknown query parameter gets the
 * API's 400 `invalid_parameter`, with the allowed names of the OpenAPI document and the same "Did you mean"
 * rule as `lambdas/http/unknown-parameters.ts` (written again here in ES5 for CloudFront; a test compares the two).
 * The coverage page maps to its object with the query string dropped (a page takes no parameters; a shared link
 * may carry some, and they must neither fail nor split the cache).
 * A CORS preflight is answered here with 204, as the API answers it (S3 would refuse `OPTIONS`); an answer made
 * here carries the CORS headers and CloudFront's request id as `X-Request-Id` (the viewer-response function does
 * not run on it).
 */
export const STATIC_REQUEST_FUNCTION_CODE = `
var COVERAGE = ${json(STATIC_PUBLIC_PATHS.coverage)};
var SAMPLE = ${json(STATIC_PUBLIC_PATHS.sample)};
var COVERAGE_PAGE = ${json(STATIC_PUBLIC_PATHS.coveragePage)};
var COVERAGE_PARAMS = ${json(OPERATION_RULES.getCoverage.queryParameters)};
var SAMPLE_PARAMS = ${json(OPERATION_RULES.getSample.queryParameters)};
var CORS = ${json(CORS)};
function withWebHeaders(response, event) {
  response.headers['access-control-allow-origin'] = { value: '*' };
  response.headers['access-control-expose-headers'] = { value: CORS.exposeHeaders };
  response.headers['x-request-id'] = { value: event.context.requestId };
  return response;
}
function jsonError(statusCode, statusDescription, code, message) {
  return {
    statusCode: statusCode,
    statusDescription: statusDescription,
    headers: {
      'content-type': { value: 'application/json; charset=utf-8' },
      'cache-control': { value: 'no-store' }
    },
    body: { encoding: 'text', data: JSON.stringify({ error: message, code: code }) }
  };
}
function distance(a, b) {
  var cols = b.length + 1, d = [], i, j;
  for (i = 0; i <= a.length; i++) for (j = 0; j <= b.length; j++) d[i * cols + j] = i === 0 ? j : j === 0 ? i : 0;
  for (i = 1; i <= a.length; i++) {
    for (j = 1; j <= b.length; j++) {
      var cost = a.charAt(i - 1) === b.charAt(j - 1) ? 0 : 1;
      var best = Math.min(d[(i - 1) * cols + j] + 1, d[i * cols + j - 1] + 1, d[(i - 1) * cols + j - 1] + cost);
      if (i > 1 && j > 1 && a.charAt(i - 1) === b.charAt(j - 2) && a.charAt(i - 2) === b.charAt(j - 1)) {
        best = Math.min(best, d[(i - 2) * cols + j - 2] + 1);
      }
      d[i * cols + j] = best;
    }
  }
  return d[a.length * cols + b.length];
}
function unknownParameter(query, allowed) {
  for (var name in query) {
    if (name === '' || allowed.indexOf(name) !== -1) continue;
    var closest = null, closestDistance = Infinity;
    for (var k = 0; k < allowed.length; k++) {
      var dist = distance(name.toLowerCase(), allowed[k].toLowerCase());
      if (dist <= Math.max(1, Math.floor(allowed[k].length / 3)) && dist < closestDistance) {
        closest = allowed[k];
        closestDistance = dist;
      }
    }
    var list = 'This route takes: ' + allowed.join(', ') + '.';
    var shown = JSON.stringify(name.length > 40 ? name.slice(0, 40) + '\u2026' : name).slice(1, -1);
    var response = jsonError(400, 'Bad Request', 'invalid_parameter', 'Unknown query parameter \u0060' + shown + '\u0060.');
    var hint = closest === null ? list : 'Did you mean \u0060' + closest + '\u0060? ' + list;
    response.body.data = JSON.stringify({ error: JSON.parse(response.body.data).error, code: 'invalid_parameter', hint: hint });
    return response;
  }
  return null;
}
function handler(event) {
  var request = event.request;
  var asks = request.headers['access-control-request-method'];
  if (request.method === 'OPTIONS' && asks && asks.value !== '') {
    return withWebHeaders({
      statusCode: 204,
      statusDescription: 'No Content',
      headers: {
        'access-control-allow-methods': { value: CORS.allowMethods },
        'access-control-allow-headers': { value: CORS.allowHeaders },
        'access-control-max-age': { value: String(CORS.maxAgeSeconds) },
        'cache-control': { value: 'no-store' }
      }
    }, event);
  }
  var out = route(request);
  return out.statusCode === undefined ? out : withWebHeaders(out, event);
}
function route(request) {
  var uri = request.uri;
  if (uri === COVERAGE_PAGE || uri === COVERAGE_PAGE + '/') {
    request.uri = ${json(STATIC_ORIGIN_PATHS.coveragePage)};
    request.querystring = {};
    return request;
  }
  var formatParam = request.querystring.format;
  var format = formatParam && formatParam.value !== '' ? formatParam.value : 'json';
  var isCoverage = uri === COVERAGE || uri === COVERAGE + '/';
  var isSample = uri === SAMPLE || uri === SAMPLE + '/';
  var refusal = isCoverage || isSample ? unknownParameter(request.querystring, isCoverage ? COVERAGE_PARAMS : SAMPLE_PARAMS) : null;
  if (refusal !== null) return refusal;
  if (isCoverage) {
    request.uri = ${json(STATIC_ORIGIN_PATHS.coverage)};
    request.querystring = {};
    return request;
  }
  if (isSample) {
    if (format !== 'json' && format !== 'csv') {
      return jsonError(400, 'Bad Request', 'invalid_parameter', 'format must be json or csv');
    }
    request.uri = format === 'csv' ? ${json(STATIC_ORIGIN_PATHS.sampleCsv)} : ${json(STATIC_ORIGIN_PATHS.sampleJson)};
    request.querystring = { format: { value: format } };
    return request;
  }
  return jsonError(404, 'Not Found', 'not_found', 'Not found');
}
`.trim();

/**
 * Viewer response: the CSV sample leaves as an attachment with a CSV content type, whatever metadata the
 * object was uploaded with (the API's CSV responses carry `Content-Disposition: attachment`); every answer gets
 * the API's CORS headers and an `X-Request-Id`, CloudFront's request id (the `X-Amz-Cf-Id` of the answer).
 */
export const STATIC_RESPONSE_FUNCTION_CODE = `
var SAMPLE = ${json(STATIC_PUBLIC_PATHS.sample)};
var SAMPLE_CSV = ${json(STATIC_ORIGIN_PATHS.sampleCsv)};
function handler(event) {
  var response = event.response;
  var headers = response.headers;
  var request = event.request;
  var formatParam = request.querystring.format;
  var type = headers['content-type'] ? headers['content-type'].value : '';
  // event.request is the viewer's request (original or rewritten URI, depending on the point of view): accept both.
  var isSample = request.uri === SAMPLE || request.uri === SAMPLE + '/' || request.uri === SAMPLE_CSV;
  var asksCsv = formatParam !== undefined && formatParam.value === 'csv';
  var isCsv = type.indexOf('text/csv') === 0 || (isSample && asksCsv) || request.uri === SAMPLE_CSV;
  if (response.statusCode === 200 && isCsv) {
    headers['content-type'] = { value: 'text/csv; charset=utf-8' };
    if (!headers['content-disposition']) {
      headers['content-disposition'] = { value: 'attachment; filename="${SAMPLE_CSV_FILENAME}"' };
    }
  }
  headers['access-control-allow-origin'] = { value: '*' };
  headers['access-control-expose-headers'] = { value: ${json(CORS.exposeHeaders)} };
  if (!headers['x-request-id']) headers['x-request-id'] = { value: event.context.requestId };
  return response;
}
`.trim();

/**
 * Viewer request of `/favicon.ico`: 204 at the edge with a day of browser caching, as the API answers it
 * (lambdas/http/app.ts), so a browser's favicon request never reaches the function. A CORS preflight gets the
 * static behaviours' 204 answer.
 */
export const FAVICON_FUNCTION_CODE = `
var CORS = ${json(CORS)};
function handler(event) {
  var request = event.request;
  var asks = request.headers['access-control-request-method'];
  var headers = {
    'access-control-allow-origin': { value: '*' },
    'access-control-expose-headers': { value: CORS.exposeHeaders },
    'x-request-id': { value: event.context.requestId }
  };
  if (request.method === 'OPTIONS' && asks && asks.value !== '') {
    headers['access-control-allow-methods'] = { value: CORS.allowMethods };
    headers['access-control-allow-headers'] = { value: CORS.allowHeaders };
    headers['access-control-max-age'] = { value: String(CORS.maxAgeSeconds) };
    headers['cache-control'] = { value: 'no-store' };
  } else {
    headers['cache-control'] = { value: ${json(FAVICON_CACHE_CONTROL)} };
  }
  return { statusCode: 204, statusDescription: 'No Content', headers: headers };
}
`.trim();
