/**
 * The API's routes: one table of method, path and OpenAPI operation. The HTTP API's routes (`infra/routes.ts`) and
 * the app's handlers (`lambdas/http/app.ts`) are derived from it, and a test checks that the OpenAPI document's
 * paths (`openapi.ts`) are exactly these routes with their trailing-slash forms.
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
] as const;

export type Route = (typeof ROUTES)[number];

/**
 * Pages for people, relative to {@link API_BASE_PATH}: HTML, not API operations, so not in the OpenAPI document.
 * The coverage page is a static object of the snapshot (data-contracts/layout.ts `coveragePage`), served by the API
 * (`npm start`, the Lambda) and, deployed, by the CDN from the bucket's `public/coverage.html`.
 */
export const PAGE_PATHS = { coverage: '/coverage.html' } as const;
/** The OpenAPI `operationId` of a route (its trailing-slash form is {@link slashOperationOf}). */
export type OperationId = Route['operation'];
export type RouteMethod = Route['method'];
/** A route's path under the base path, e.g. `/api/v1/providers/{id}`. */
export type RoutePath = `${typeof API_BASE_PATH}${Route['path']}`;

/**
 * The full path of a route.
 * @example fullPathOf(ROUTES[1]) === '/api/v1/providers/{id}'
 */
export function fullPathOf(route: Route): RoutePath {
  return `${API_BASE_PATH}${route.path}`;
}

/** The `operationId` of a route's trailing-slash form (spec §2: both forms are served). */
export function slashOperationOf(route: Route): `${OperationId}Slash` {
  return `${route.operation}Slash`;
}

/**
 * Every path of the contract as the OpenAPI document lists it (relative to the base path), trailing-slash forms
 * included, with its method and operation.
 */
export function documentedOperations(): { path: string; method: RouteMethod; operation: string }[] {
  return ROUTES.flatMap((route) => [
    { path: route.path, method: route.method, operation: route.operation },
    ...(route.slashForm ? [{ path: `${route.path}/`, method: route.method, operation: slashOperationOf(route) }] : []),
  ]);
}
