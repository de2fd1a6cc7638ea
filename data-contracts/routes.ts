/**
 * The API's routes: one table of method, path and OpenAPI operation. The HTTP API's routes (`infra/routes.ts`) and
 * the app's handlers (`lambdas/http/app.ts`) are derived from it, and a test checks that the OpenAPI document's
 * paths (`openapi.ts`) are exactly these routes.
 *
 * Trailing slashes: every route with `slashForm` is also served with a trailing slash (`/providers/`),
 * as the same operation. The document lists each path once, marked `x-trailing-slash: true` and stated in
 * `info.description`, so generated clients and the reference page do not double every operation (Redocly's
 * `no-path-trailing-slash` rule); {@link servedPaths} lists both forms for whoever needs every path a client may
 * write (the infra tests, the contract tests).
 *
 * Paths are relative to {@link API_BASE_PATH} (the document's server URL) and written as OpenAPI writes them
 * (`{id}`).
 */
import { API_BASE_PATH } from './constants';

export const ROUTES = [
  { method: 'GET', path: '/providers', operation: 'listProviders', slashForm: true },
  { method: 'GET', path: '/providers/{id}', operation: 'getProvider', slashForm: true },
  { method: 'GET', path: '/coverage', operation: 'getCoverage', slashForm: true },
  { method: 'GET', path: '/sample', operation: 'getSample', slashForm: true },
  { method: 'GET', path: '/openapi.json', operation: 'getOpenApi', slashForm: false },
  { method: 'GET', path: '/npi', operation: 'listNpis', slashForm: true },
  { method: 'GET', path: '/npi/{npi}', operation: 'getNpi', slashForm: true },
  { method: 'GET', path: '/changes', operation: 'listChanges', slashForm: true },
  { method: 'GET', path: '/docs', operation: 'getDocs', slashForm: true },
  { method: 'GET', path: '/docs/redoc.standalone.js', operation: 'getDocsScript', slashForm: false },
  { method: 'GET', path: '/receipts/public-key', operation: 'getReceiptPublicKey', slashForm: false },
] as const;

export type Route = (typeof ROUTES)[number];

/**
 * Pages for people, relative to {@link API_BASE_PATH}: HTML, not API operations, so not in the OpenAPI document.
 * The coverage page is a static object of the snapshot (data-contracts/layout.ts `coveragePage`), served by the API
 * (`npm start`, the Lambda) and, deployed, by the CDN from the bucket's `public/coverage.html`.
 */
export const PAGE_PATHS = { coverage: '/coverage.html' } as const;
/** The OpenAPI `operationId` of a route. */
export type OperationId = Route['operation'];
export type RouteMethod = Route['method'];
/** A route's path under the base path, e.g. `/api/v1/providers/{id}`. */
export type RoutePath = `${typeof API_BASE_PATH}${Route['path']}`;

/** The OpenAPI extension, on a path item, that says the path also answers with a trailing slash. */
export const TRAILING_SLASH_EXTENSION = 'x-trailing-slash' as const;

/**
 * The full path of a route.
 * @example fullPathOf(ROUTES[1]) === '/api/v1/providers/{id}'
 */
export function fullPathOf(route: Route): RoutePath {
  return `${API_BASE_PATH}${route.path}`;
}

/**
 * Every operation as the OpenAPI document lists it (relative to the base path): one path per route, with its
 * method, operation and whether the trailing-slash form is served too.
 */
export function documentedOperations(): {
  path: string;
  method: RouteMethod;
  operation: OperationId;
  slashForm: boolean;
}[] {
  return ROUTES.map((route) => ({
    path: route.path,
    method: route.method,
    operation: route.operation,
    slashForm: route.slashForm,
  }));
}

/**
 * Every path a client may write (relative to the base path), trailing-slash forms included, with the route that
 * serves it.
 * @example servedPaths().find((p) => p.path === '/providers/')?.route.operation === 'listProviders'
 */
export function servedPaths(): { path: string; route: Route }[] {
  return ROUTES.flatMap((route) => [
    { path: route.path, route },
    ...(route.slashForm ? [{ path: `${route.path}/`, route }] : []),
  ]);
}
