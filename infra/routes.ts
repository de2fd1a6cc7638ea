/**
 * The contract's paths and the HTTP API routes that serve them, derived from the contract's route table
 * (data-contracts/routes.ts).
 *
 * API Gateway rejects a route key whose path ends in `/` (CDK's `HttpRouteKey.with` refuses it at synth, and the
 * service refuses it at deploy: https://github.com/aws/serverless-application-model/issues/1949). The
 * trailing-slash forms therefore have no route of their own: a request for one that API Gateway does not match
 * to the un-slashed route falls to `$default`, which is integrated with the same API Lambda, and the Lambda's
 * router accepts both forms. {@link servingRouteKey} states that rule and the infra tests check it for every path.
 */
import { API_BASE_PATH } from '../data-contracts/constants';
import { fullPathOf, ROUTES, type RouteMethod, type RoutePath, servedPaths } from '../data-contracts/routes';

/** Routes of the HTTP API: one per contract operation (data-contracts/routes.ts), all integrated with the API Lambda. */
export const API_ROUTES: readonly { method: RouteMethod; path: RoutePath }[] = ROUTES.map((route) => ({
  method: route.method,
  path: fullPathOf(route),
}));
/** The paths of {@link API_ROUTES}. */
export const API_ROUTE_PATHS: readonly RoutePath[] = API_ROUTES.map((route) => route.path);
export type ApiRoutePath = RoutePath;

/** Every path of the contract as a client writes it, trailing-slash forms included (the API answers both). */
export const CONTRACT_PATHS: readonly string[] = servedPaths().map(({ path }) => `${API_BASE_PATH}${path}`);

/** The catch-all route: unknown paths and methods reach the Lambda, which answers a JSON 404. */
export const DEFAULT_ROUTE_KEY = '$default' as const;

/**
 * `<METHOD> <path>`: the route key API Gateway stores for a route path.
 * @example routeKeyOf('/api/v1/coverage') === 'GET /api/v1/coverage'
 */
export function routeKeyOf(path: ApiRoutePath): string {
  const route = API_ROUTES.find((r) => r.path === path);
  if (route === undefined) throw new Error(`${path} is not a route of the contract`);
  return `${route.method} ${route.path}`;
}

/**
 * The route key that serves `path` (a contract path): its own `GET` route when there is one, else `$default`.
 * @example servingRouteKey('/api/v1/providers/') === '$default'
 */
export function servingRouteKey(path: string): string {
  const own = API_ROUTE_PATHS.find((routePath) => routePath === path);
  return own === undefined ? DEFAULT_ROUTE_KEY : routeKeyOf(own);
}
