import { openApiDocument } from '../../../data-contracts/openapi';
import openApiJson from '../../../data-contracts/openapi.json';
import { documentedOperations, fullPathOf, ROUTES } from '../../../data-contracts/routes';

/** `[path, method, operationId]` of every operation of an OpenAPI document. */
function operationsOf(document: { paths?: Record<string, Record<string, unknown>> }): [string, string, unknown][] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]): [string, string, unknown] => [
      path,
      method.toUpperCase(),
      (operation as { operationId?: unknown }).operationId,
    ]),
  );
}

describe('the route table', () => {
  const expected = documentedOperations().map(({ path, method, operation }) => [path, method, operation]);

  it('is exactly the paths, methods and operationIds of the OpenAPI document, trailing-slash forms included', () => {
    expect(operationsOf(openApiDocument as never)).toEqual(expected);
    expect(operationsOf(openApiJson as never)).toEqual(expected);
  });

  it('has one row per operation and per path', () => {
    expect(new Set(ROUTES.map((r) => r.operation)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((r) => `${r.method} ${r.path}`)).size).toBe(ROUTES.length);
  });

  it('puts every route under the base path', () => {
    expect(ROUTES.map(fullPathOf)).toEqual([
      '/api/v1/providers',
      '/api/v1/providers/{id}',
      '/api/v1/coverage',
      '/api/v1/sample',
      '/api/v1/openapi.json',
      '/api/v1/npi',
      '/api/v1/npi/{npi}',
    ]);
  });
});
