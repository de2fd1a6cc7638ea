/**
 * The contract's paths and the HTTP API routes that serve them.
 *
 * API Gateway rejects a route key whose path ends in `/` (CDK's `HttpRouteKey.with` refuses it at synth, and the
 * service refuses it at deploy: https://github.com/aws/serverless-application-model/issues/1949). The
 * trailing-slash forms therefore have no route of their own: a request for one that API Gateway does not match
 * to the un-slashed route falls to `$default`, which is integrated with the same API Lambda, and the Lambda's
 * router accepts both forms. {@link servingRouteKey} states that rule and the infra tests check it for every path.
 */
import { API_BASE_PATH } from '../data-contracts/constants';

/** Route paths of the HTTP API: one per contract operation, each `GET`, all integrated with the API Lambda. */
export const API_ROUTE_PATHS = [
  `${API_BASE_PATH}/providers`,
  `${API_BASE_PATH}/providers/{id}`,
  `${API_BASE_PATH}/coverage`,
  `${API_BASE_PATH}/sample`,
  `${API_BASE_PATH}/openapi.json`,
] as const;
export type ApiRoutePath = (typeof API_ROUTE_PATHS)[number];

/** Every path of the contract as a client writes it, trailing-slash forms included (spec §2). */
export const CONTRACT_PATHS = [
  `${API_BASE_PATH}/providers`,
  `${API_BASE_PATH}/providers/`,
  `${API_BASE_PATH}/providers/{id}`,
  `${API_BASE_PATH}/providers/{id}/`,
  `${API_BASE_PATH}/coverage`,
  `${API_BASE_PATH}/coverage/`,
  `${API_BASE_PATH}/sample`,
  `${API_BASE_PATH}/sample/`,
  `${API_BASE_PATH}/openapi.json`,
] as const;

/** The catch-all route: unknown paths and methods reach the Lambda, which answers a JSON 404. */
export const DEFAULT_ROUTE_KEY = '$default' as const;

/** `GET <path>`: the route key API Gateway stores for a route path. */
export function routeKeyOf(path: ApiRoutePath): string {
  return `GET ${path}`;
}

/**
 * The route key that serves `path` (a contract path): its own `GET` route when there is one, else `$default`.
 * @example servingRouteKey('/api/v1/providers/') === '$default'
 */
export function servingRouteKey(path: string): string {
  const own = API_ROUTE_PATHS.find((routePath) => routePath === path);
  return own === undefined ? DEFAULT_ROUTE_KEY : routeKeyOf(own);
}
