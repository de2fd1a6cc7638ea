/**
 * CORS (https://fetch.spec.whatwg.org/#http-cors-protocol). Every route allows any origin
 * (`Access-Control-Allow-Origin: *`) and never credentials: the public routes are public, and the keyed routes
 * authenticate with a key sent in a header, never with cookies, so a page on another origin gains nothing from a
 * visitor's browser that it could not do from a server with the same key. Whoever puts a key in browser code
 * publishes it (docs/api-guide.md, browsers and CORS). A preflight (`OPTIONS` with `Access-Control-Request-Method`) answers
 * 204 with the methods and request headers the API reads, on any path.
 */

import { CORS } from '../../data-contracts/constants';
import { responseOf } from './response-parts';

/** The CORS headers of every response. */
export function corsHeaders(): Record<string, string> {
  return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': CORS.exposeHeaders };
}

/** True for a CORS preflight: `OPTIONS` naming the method it asks for. */
export function isPreflight(method: string, requestMethod: string | undefined): boolean {
  return method === 'OPTIONS' && requestMethod !== undefined && requestMethod !== '';
}

/** The answer to a preflight: 204, no body. */
export function preflightResponse(): Response {
  return responseOf({
    status: 204,
    body: null,
    headers: {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': CORS.allowMethods,
      'Access-Control-Allow-Headers': CORS.allowHeaders,
      'Access-Control-Max-Age': String(CORS.maxAgeSeconds),
      'Cache-Control': 'no-store',
    },
  });
}
