/**
 * What each operation accepts, derived from the OpenAPI document (`openapi.ts`), so the document is the one
 * place that lists an operation's parameters: its query parameter names (with `key`, which every route accepts
 * for clients that cannot send a header) and whether it needs a key (an operation with `security: []` is public).
 *
 * A route added to `routes.ts` and described in `openapi.ts` gets its allowed parameters from here with no
 * second list to keep in step.
 */
import { openApiDocument } from './openapi';
import { type OperationId, ROUTES } from './routes';

/** The query parameter of the API key: accepted on every route, keyed or public. */
export const KEY_PARAMETER = 'key' as const;

interface ParameterObject {
  name?: string;
  in?: string;
  $ref?: string;
}

interface OperationObject {
  operationId?: string;
  parameters?: readonly ParameterObject[];
  security?: readonly unknown[];
}

const components = openApiDocument.components.parameters as Record<string, ParameterObject>;

function resolve(parameter: ParameterObject): ParameterObject {
  if (parameter.$ref === undefined) return parameter;
  const found = components[parameter.$ref.replace('#/components/parameters/', '')];
  if (found === undefined) throw new Error(`unresolved parameter ${parameter.$ref}`);
  return found;
}

function operationOf(operationId: OperationId): OperationObject {
  for (const item of Object.values(openApiDocument.paths as Record<string, { get?: OperationObject }>)) {
    if (item.get?.operationId === operationId) return item.get;
  }
  throw new Error(`operation ${operationId} is not in the OpenAPI document`);
}

/** Per operation, as the document describes it. */
export interface OperationRules {
  /** Query parameter names in the document's order, `key` last. */
  queryParameters: readonly string[];
  /** Needs an API key (the document's global security applies). */
  keyed: boolean;
}

function rulesOf(operationId: OperationId): OperationRules {
  const operation = operationOf(operationId);
  const names = (operation.parameters ?? [])
    .map(resolve)
    .filter((p) => p.in === 'query' && typeof p.name === 'string')
    .map((p) => p.name as string);
  return {
    queryParameters: [...new Set([...names, KEY_PARAMETER])],
    keyed: operation.security === undefined || operation.security.length > 0,
  };
}

/**
 * Every route's rules.
 * @example OPERATION_RULES.getSample.queryParameters // ['format', 'key']
 */
export const OPERATION_RULES = Object.fromEntries(
  ROUTES.map((route) => [route.operation, rulesOf(route.operation)]),
) as Record<OperationId, OperationRules>;
