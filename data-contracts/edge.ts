/**
 * What the edge (CloudFront, its web ACL, the HTTP API stage) and the API function agree on: the origin header that
 * proves a call came through the CDN, the answer of a call the web ACL blocks, the pages' security headers and the
 * favicon. Shared by `infra/` (which configures the edge) and `lambdas/` (which checks and answers).
 */
import { API_KEY_PREFIX } from './tables';

/**
 * The header CloudFront adds to every request it sends to the API origin, carrying a secret generated at deploy time
 * (never in the repo). Where the deployment sets the secret, the function refuses a call without it (403
 * `cdn_required`) before any other work: the `execute-api` address cannot be used to bypass the web ACL.
 */
export const ORIGIN_VERIFY_HEADER = 'x-pf-origin-verify' as const;

/** The message and hint of the 403 `cdn_required` of a call without the origin header. */
export const CDN_REQUIRED = {
  error: 'This address only serves calls made through the API\u2019s CDN.',
  hint: 'Call the API at its public address (the CloudFront distribution or the custom domain).',
} as const;

/**
 * A well-formed API key as it may appear in a request: `pf_` and 43 base64url characters (lambdas/access/api-key.ts).
 * The web ACL's keyless rule matches its absence in the three places a key may come from.
 */
export const WELL_FORMED_KEY_PATTERN = `${API_KEY_PREFIX}[A-Za-z0-9_-]{43}` as const;

/**
 * Content-Security-Policy of the coverage page (`/api/v1/coverage.html`), from the API and from S3 through CloudFront:
 * the page has no script; its styles are inline (a `<style>` element and `style` attributes of the map and bars), its
 * only image the `data:` icon; it may not be framed.
 */
export const COVERAGE_PAGE_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** `/favicon.ico` answers 204 (no icon, nothing to fetch again for a day) at the API and at the CDN. */
export const FAVICON_PATH = '/favicon.ico' as const;
export const FAVICON_CACHE_CONTROL = 'public, max-age=86400' as const;

/**
 * The answer of a request the web ACL's rate-based rules block (a custom response of the ACL): the contract's JSON
 * error body with its own code, and `Retry-After` of the rule's evaluation window.
 */
export const EDGE_BLOCK = {
  status: 429,
  code: 'rate_limited',
  retryAfterSeconds: 300,
  body: {
    error: 'Too many requests from this address.',
    code: 'rate_limited',
    hint:
      'Requests without a well-formed API key are limited per address, and so are volumes from one address above ' +
      'what any plan allows within the limit\u2019s window. Retry after the Retry-After seconds, with your API key.',
  },
} as const;
