/**
 * CORS (https://fetch.spec.whatwg.org/#http-cors-protocol). Every route allows any origin
 * (`Access-Control-Allow-Origin: *`) and never credentials: the public routes are public, and the keyed routes
 * authenticate with a key sent in a header, never with cookies, so a page on another origin gains nothing from a
 * visitor's browser that it could not do from a server with the same key. Whoever puts a key in browser code
 * publishes it (README "Browsers and CORS"). A preflight (`OPTIONS` with `Access-Control-Request-Method`) answers
 * 204 with the methods and request headers the API reads, on any path.
 */

/** The methods the API answers. */
export const CORS_ALLOWED_METHODS = 'GET, HEAD, OPTIONS' as const;
/** The request headers the API reads (a preflight for any other is answered, and the browser refuses the call). */
export const CORS_ALLOWED_HEADERS = 'Authorization, X-Api-Key, If-None-Match, X-Request-Id' as const;
/** The response headers a page's script may read besides the CORS-safelisted ones. */
export const CORS_EXPOSED_HEADERS = [
  'ETag',
  'X-Request-Id',
  'X-Snapshot-Id',
  'X-Data-As-Of',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Used',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'WWW-Authenticate',
  'Content-Disposition',
].join(', ');
/** How long a browser may keep a preflight's answer (browsers cap it: Chromium at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = '86400';

/** The CORS headers of every response. */
export function corsHeaders(): Record<string, string> {
  return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS };
}

/** True for a CORS preflight: `OPTIONS` naming the method it asks for. */
export function isPreflight(method: string, requestMethod: string | undefined): boolean {
  return method === 'OPTIONS' && requestMethod !== undefined && requestMethod !== '';
}

/** The answer to a preflight: 204, no body. */
export function preflightResponse(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': CORS_ALLOWED_METHODS,
      'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS,
      'Access-Control-Max-Age': PREFLIGHT_MAX_AGE_SECONDS,
      'Cache-Control': 'no-store',
    },
  });
}
