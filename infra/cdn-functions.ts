/**
 * CloudFront Functions (cloudfront-js-2.0) of the static behaviours `/api/v1/coverage*` and `/api/v1/sample*`.
 * They are plain ES5-style source strings because CloudFront runs them, not Node; the infra tests evaluate them
 * in a `vm` context with recorded event shapes.
 * Reference: https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/functions-event-structure.html
 */
import { API_BASE_PATH } from '../data-contracts/constants';
import { PUBLIC_KEYS } from '../data-contracts/layout';

/** The static objects behind the public endpoints, as CloudFront origin paths (S3 keys with a leading `/`). */
export const STATIC_ORIGIN_PATHS = {
  coverage: `/${PUBLIC_KEYS.coverage}`,
  sampleJson: `/${PUBLIC_KEYS.sampleJson}`,
  sampleCsv: `/${PUBLIC_KEYS.sampleCsv}`,
} as const;

/** Public paths served from the bucket, without their trailing-slash forms. */
export const STATIC_PUBLIC_PATHS = {
  coverage: `${API_BASE_PATH}/coverage`,
  sample: `${API_BASE_PATH}/sample`,
} as const;

/** Path patterns of the static cache behaviours (they must precede `/api/v1/*`). */
export const STATIC_PATH_PATTERNS = [`${STATIC_PUBLIC_PATHS.coverage}*`, `${STATIC_PUBLIC_PATHS.sample}*`] as const;

/** The file name of the CSV attachment, as the API's CSV responses name it. */
export const SAMPLE_CSV_FILENAME = 'provider-facts-sample.csv' as const;

const json = (value: unknown): string => JSON.stringify(value);

/**
 * Viewer request: maps the public paths to the static objects, keeps only a normalised `format` in the query
 * string (the cache key), and answers anything else under the static patterns with the contract's JSON error
 * body, so `/api/v1/coveragex` is a JSON 404 as it would be from the API.
 */
export const STATIC_REQUEST_FUNCTION_CODE = `
var COVERAGE = ${json(STATIC_PUBLIC_PATHS.coverage)};
var SAMPLE = ${json(STATIC_PUBLIC_PATHS.sample)};
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
function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var formatParam = request.querystring.format;
  var format = formatParam && formatParam.value !== '' ? formatParam.value : 'json';
  if (uri === COVERAGE || uri === COVERAGE + '/') {
    request.uri = ${json(STATIC_ORIGIN_PATHS.coverage)};
    request.querystring = {};
    return request;
  }
  if (uri === SAMPLE || uri === SAMPLE + '/') {
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
 * object was uploaded with (the API's CSV responses carry `Content-Disposition: attachment`).
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
  return response;
}
`.trim();
