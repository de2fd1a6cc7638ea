/**
 * The HTTP API: one Hono app behind two thin adapters, AWS Lambda (`lambda-adapter.ts`) and node:http
 * (`node-adapter.ts`), as Hono's own `src/adapter/aws-lambda` and `@hono/node-server` do.
 *
 * Hono was chosen over a hand-written router because it is small, has no dependencies, runs on Web
 * Request/Response (so both adapters share every byte of behaviour), and ships both adapters.
 *
 * The app is assembled from its parts, in the order a request meets them: the request log (request-log.ts: request
 * id, CDN check, CORS, compression, the log line), then per route of the contract's table its guard (guard.ts:
 * parameters, key, pinned snapshot, ETag) and its operation (operations.ts: use case, then presenter); the pages
 * around the API; the error mapping (error-mapping.ts).
 *
 * Choices: a path with or without a trailing slash is the same route (`strict: false`); an unknown path and a
 * method other than GET/HEAD both answer a JSON 404 `not_found` (the OpenAPI document has no 405 code).
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { API_BASE_PATH } from '../../data-contracts/constants';
import { COVERAGE_PAGE_CSP, FAVICON_CACHE_CONTROL, FAVICON_PATH } from '../../data-contracts/edge';
import { PAGE_PATHS, ROUTES } from '../../data-contracts/routes';
import type { CoreDeps } from '../core/ports';
import { getCoveragePage } from '../core/public-objects';
import { BodyPool } from './body-pool';
import { DOCS_PATHS, DocsAssets } from './docs-page';
import { errorMapping, notFound } from './error-mapping';
import { type ApiEnv, guardOf } from './guard';
import { ListBodyCache } from './list-formats';
import { operationTable } from './operations';
import { requestLog } from './request-log';
import { htmlResponse, NO_STORE, PUBLIC_CACHE } from './responses';

/** Options of {@link createApp}. */
export interface AppOptions {
  /** The cache of list bodies; the runtime passes its own. Default: a new one for this app. */
  bodies?: ListBodyCache;
  /** The API reference page and its script (docs-page.ts). Default: new ones for this app. */
  docs?: DocsAssets;
  /**
   * The secret the CDN sends in the `x-pf-origin-verify` header (data-contracts/edge.ts). When set, a request without
   * it is refused with 403 `cdn_required` before any other work (the `execute-api` address cannot bypass the edge);
   * unset (the local server, tests), nothing is checked.
   */
  originSecret?: string;
  /**
   * Routes a tool adds to the app (outside the API's base path), behind the request log like every route: the local
   * server's diagnostics. The product adds none.
   */
  extraRoutes?: (app: Hono) => void;
}

/** A contract path in Hono's syntax: `/providers/{id}` -> `/providers/:id`. */
function honoPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

/**
 * Builds the app over the use cases' dependencies.
 * @example const app = createApp(deps); serveNode(app, { port: 8787 });
 */
export function createApp(deps: CoreDeps, options: AppOptions = {}): Hono {
  const app = new Hono({ strict: false });
  const api = new Hono<ApiEnv>({ strict: false });
  app.use('*', requestLog(deps.logger, options.originSecret));

  const operations = operationTable({
    deps,
    bodies: options.bodies ?? new ListBodyCache(),
    docs: options.docs ?? new DocsAssets(),
    bodyPool: new BodyPool(),
  });
  // One guard and handler per route of the contract's table; Hono writes `{id}` as `:id` and answers HEAD from GET.
  for (const route of ROUTES) {
    api.on(route.method, honoPath(route.path), guardOf(route.operation, deps), operations[route.operation]);
  }

  // The coverage page: public like coverage.json, from the same pinned snapshot. Query parameters are ignored (a
  // shared link may carry some); the CDN's copy ignores them too.
  api.get(PAGE_PATHS.coverage, async () => {
    const page = await getCoveragePage({}, deps);
    return htmlResponse(page.body, { cacheControl: PUBLIC_CACHE, csp: COVERAGE_PAGE_CSP });
  });

  // A browser opening any page of this origin asks for its icon: 204, kept a day (the CDN answers the same).
  app.get(FAVICON_PATH, () => new Response(null, { status: 204, headers: { 'Cache-Control': FAVICON_CACHE_CONTROL } }));
  options.extraRoutes?.(app);
  app.route(API_BASE_PATH, api);

  // Whoever opens the service's root or the API's base address in a browser lands on the reference (302: the
  // address may serve something else one day, so nothing should remember this answer).
  for (const path of ['/', API_BASE_PATH]) {
    app.get(path, (c: Context) => {
      c.header('Cache-Control', NO_STORE);
      return c.redirect(DOCS_PATHS.page, 302);
    });
  }

  app.notFound(notFound);
  app.onError(errorMapping(deps.logger));
  return app;
}
