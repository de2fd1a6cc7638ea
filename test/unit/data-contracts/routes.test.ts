import { openApiDocument } from '../../../data-contracts/openapi';
import openApiJson from '../../../data-contracts/openapi.json';
import {
  documentedOperations,
  fullPathOf,
  ROUTES,
  servedPaths,
  TRAILING_SLASH_EXTENSION,
} from '../../../data-contracts/routes';

type PathItems = Record<string, Record<string, unknown>>;

/** `[path, method, operationId]` of every operation of an OpenAPI document (extensions are not methods). */
function operationsOf(document: { paths?: PathItems }): [string, string, unknown][] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([key]) => !key.startsWith('x-'))
      .map(([method, operation]): [string, string, unknown] => [
        path,
        method.toUpperCase(),
        (operation as { operationId?: unknown }).operationId,
      ]),
  );
}

describe('the route table', () => {
  const expected = documentedOperations().map(({ path, method, operation }) => [path, method, operation]);

  it('is exactly the paths, methods and operationIds of the OpenAPI document, each path listed once', () => {
    expect(operationsOf(openApiDocument as never)).toEqual(expected);
    expect(operationsOf(openApiJson as never)).toEqual(expected);
  });

  it('marks in the document, with x-trailing-slash, exactly the routes also served with a trailing slash', () => {
    for (const document of [openApiDocument, openApiJson] as { paths: PathItems }[]) {
      for (const route of ROUTES) {
        expect({ path: route.path, marked: document.paths[route.path]?.[TRAILING_SLASH_EXTENSION] ?? false }).toEqual({
          path: route.path,
          marked: route.slashForm,
        });
      }
      expect(Object.keys(document.paths).filter((path) => path.endsWith('/'))).toEqual([]);
    }
  });

  it('serves every path and the trailing-slash form of every marked one, each by its route', () => {
    const served = servedPaths().map(({ path, route }) => [path, route.operation]);
    expect(served).toEqual(
      ROUTES.flatMap((route) => [
        [route.path, route.operation],
        ...(route.slashForm ? [[`${route.path}/`, route.operation]] : []),
      ]),
    );
    expect(served).toContainEqual(['/providers/', 'listProviders']);
    expect(served).not.toContainEqual(['/openapi.json/', 'getOpenApi']);
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
      '/api/v1/changes',
      '/api/v1/docs',
      '/api/v1/docs/redoc.standalone.js',
      '/api/v1/receipts/public-key',
    ]);
  });
});
