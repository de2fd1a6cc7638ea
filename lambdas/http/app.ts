/**
 * The HTTP API: one Hono app (routing, parameter hand-off, error mapping, CSV, request log) behind two thin
 * adapters, AWS Lambda (`lambda-adapter.ts`) and node:http (`node-adapter.ts`), as Hono's own
 * `src/adapter/aws-lambda` and `@hono/node-server` do.
 *
 * Hono was chosen over a hand-written router because it is small, has no dependencies, runs on Web
 * Request/Response (so both adapters share every byte of behaviour), and ships both adapters.
 *
 * Choices: a path with or without a trailing slash is the same route (`strict: false`); an unknown path and a
 * method other than GET/HEAD both answer a JSON 404 `not_found` (the contract's code table has no 405 code).
 *
 * Every route runs behind one guard ({@link guardOf}), driven by the OpenAPI document (query-parameters.ts):
 * unknown query parameters are refused (400), and on a keyed route the key is checked first (401), one snapshot
 * is pinned for the whole request, an `If-None-Match` naming the current tag answers 304 without running (or
 * metering) the use case, and every 200 carries `ETag`, `X-Snapshot-Id` and `X-Data-As-Of` (data-version.ts).
 */

import { createHash, timingSafeEqual } from 'node:crypto';
import { ServerResponse } from 'node:http';
import type { Context, Handler, MiddlewareHandler } from 'hono';
import { Hono } from 'hono';
import { API_BASE_PATH } from '../../data-contracts/constants';
import {
  CDN_REQUIRED,
  COVERAGE_PAGE_CSP,
  FAVICON_CACHE_CONTROL,
  FAVICON_PATH,
  ORIGIN_VERIFY_HEADER,
} from '../../data-contracts/edge';
import openApiJson from '../../data-contracts/openapi.json';
import { OPERATION_RULES } from '../../data-contracts/query-parameters';
import { type OperationId, PAGE_PATHS, ROUTES } from '../../data-contracts/routes';
import { redactRequestTarget } from '../../platform/logger';
import { IntegrityError } from '../../platform/ranged/block-digests';
import { ApiError, internalError } from '../core/api-error';
import { admit, type Credentials } from '../core/authenticate';
import { getProvider } from '../core/get-provider';
import { listChanges } from '../core/list-changes';
import { listProviders } from '../core/list-providers';
import { getNpi, lookupNpis, npiBatchParts } from '../core/lookup-npi';
import type { CoreDeps } from '../core/ports';
import { getCoverage, getCoveragePage, getSample } from '../core/public-objects';
import { BodyPool, leaseUntilClosed } from './body-pool';
import { changesCsvBytes } from './changes-format';
import { compressParts } from './compression';
import { corsHeaders, isPreflight, preflightResponse } from './cors';
import { type DataVersion, dataVersionFields, dataVersionHeaders, entityTag, ifNoneMatchHits } from './data-version';
import { DOCS_PATHS, DocsAssets } from './docs-page';
import { detailBody, ListBodyCache, listCsvBytes, listJsonBytes } from './list-formats';
import { gatewayRequestIdOf, REQUEST_ID_HEADER, requestIdOf } from './request-id';
import { headerOf, partsOf, type ResponseParts, responseOf, setHeader } from './response-parts';
import {
  csvFilename,
  csvResponse,
  DOCUMENT_CACHE,
  errorResponse,
  htmlResponse,
  jsonResponse,
  jsonWithData,
  NO_STORE,
  notModifiedResponse,
  PUBLIC_CACHE,
  rateLimitHeaders,
} from './responses';
import { assertKnownParameters } from './unknown-parameters';

/** Options of {@link createApp}. */
export interface AppOptions {
  /**
   * Adds `GET /__bench/ceiling`, a fixed in-memory JSON answer that measures the HTTP ceiling of the server, and
   * `GET /__bench/memory`, the process's memory by kind (V8's heap, ArrayBuffers) for the benchmark's report.
   * Off unless the benchmark's server turns it on.
   */
  benchCeiling?: boolean;
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
}

/** What `GET /__bench/memory` answers: bytes by kind, from `process.memoryUsage()`. */
export interface BenchMemory {
  rss: number;
  /** V8's heap, every space (new, old, code, large objects). */
  heap_total: number;
  heap_used: number;
  /** Memory of ArrayBuffers and Buffers (outside V8's heap: index bytes, caches, bodies). */
  array_buffers: number;
}

function benchMemory(): BenchMemory {
  const { rss, heapTotal, heapUsed, arrayBuffers } = process.memoryUsage();
  return { rss, heap_total: heapTotal, heap_used: heapUsed, array_buffers: arrayBuffers };
}

const OPENAPI_BYTES = Buffer.from(JSON.stringify(openApiJson), 'utf8');
const CEILING_BODY = Buffer.from(JSON.stringify({ ok: true, data: [] }), 'utf8');
/** The statuses of answers that serve data: they carry the data-version headers (and are metered). */
const SERVES_DATA = new Set([200, 410]);

/** The routes as the 404 hint lists them: `/providers, /providers/{id}, …`. */
const ROUTE_LIST = ROUTES.map((route) => route.path).join(', ');

/** A contract path in Hono's syntax: `/providers/{id}` -> `/providers/:id`. */
function honoPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

function credentialsOf(c: Context, query: Readonly<Record<string, string>>): Credentials {
  return {
    authorization: c.req.header('authorization') ?? null,
    apiKeyHeader: c.req.header('x-api-key') ?? null,
    keyParam: query.key ?? null,
  };
}

/**
 * What the guard hands a keyed route's handler: the use cases' dependencies over the pinned snapshot, its version,
 * and the request's query (the first value of each parameter, parsed once with every value: Hono parses the URL again
 * on every `c.req.query()` or `c.req.queries()`, about 5 microseconds each) and credentials.
 */
interface KeyedRequest {
  deps: CoreDeps;
  version: DataVersion;
  query: Readonly<Record<string, string>>;
  credentials: Credentials;
}
type ApiEnv = { Variables: { keyed: KeyedRequest } };

// The request id of every request (set by the first middleware), typed for every context of the app.
// https://hono.dev/docs/api/context#contextvariablemap
declare module 'hono' {
  interface ContextVariableMap {
    requestId: string;
    /** The data-version headers of a keyed request (ETag, X-Snapshot-Id, X-Data-As-Of), set by its guard. */
    versionHeaders: Record<string, string>;
  }
}

/** The pinned snapshot of a keyed route; set by the guard before the handler runs. */
function keyedRequest(c: Context<ApiEnv>): KeyedRequest {
  const keyed = c.get('keyed');
  if (keyed === undefined) throw new Error('a keyed handler ran without its guard');
  return keyed;
}

/** A request's key lookup: each key is looked up once, however often the request asks. */
function onceKeys(keys: CoreDeps['keys']): CoreDeps['keys'] {
  const found = new Map<string, ReturnType<CoreDeps['keys']['findByKey']>>();
  return {
    findByKey(rawKey) {
      let record = found.get(rawKey);
      if (record === undefined) {
        record = keys.findByKey(rawKey);
        found.set(rawKey, record);
      }
      return record;
    },
  };
}

/** The node:http response of a request the node server answers; undefined under the Lambda adapter and in tests. */
function nodeResponseOf(c: Context): ServerResponse | undefined {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  return outgoing instanceof ServerResponse ? outgoing : undefined;
}

/** Parameter names in request order, repeated ones included (the use cases read the first value). */
function parameterNames(c: Context): IterableIterator<string> {
  return new URL(c.req.url).searchParams.keys();
}

/** The first value of each parameter, as `c.req.query()` reads them (without parsing the URL again). */
function firstValues(values: Readonly<Record<string, readonly string[]>>): Record<string, string> {
  // No prototype, as Hono's own: a parameter named `__proto__` is a parameter like any other.
  const first: Record<string, string> = Object.create(null);
  for (const [name, all] of Object.entries(values)) if (all[0] !== undefined) first[name] = all[0];
  return first;
}

/** The request target as received (path and query, still percent-encoded): what the request log redacts. */
function requestTarget(c: Context): string {
  const url = c.req.url;
  const start = url.indexOf('/', url.indexOf('://') + 3);
  return start === -1 ? '/' : url.slice(start);
}

/**
 * Builds the app over the use cases' dependencies.
 * @example const app = createApp(deps); serveNode(app, { port: 8787 });
 */
export function createApp(deps: CoreDeps, options: AppOptions = {}): Hono {
  const app = new Hono({ strict: false });
  const api = new Hono<ApiEnv>({ strict: false });
  const bodies = options.bodies ?? new ListBodyCache();
  const docs = options.docs ?? new DocsAssets();
  const bodyPool = new BodyPool();
  const assetRequest = (c: Context) => ({
    ifNoneMatch: c.req.header('if-none-match'),
    acceptEncoding: c.req.header('accept-encoding'),
  });

  // Every response: its request id, the CORS headers and the coding the client asked for (request-id.ts, cors.ts,
  // compression.ts). One log line per request, with the id: never the key (the target is rebuilt with every
  // key-bearing value redacted, whatever its encoding; headers are not logged).
  const fromCdn = options.originSecret ? originCheck(options.originSecret) : undefined;
  app.use('*', async (c, next) => {
    const started = performance.now();
    const gatewayId = gatewayRequestIdOf(c.env);
    const requestId = requestIdOf(c.req.header('x-request-id'), gatewayId);
    c.set('requestId', requestId);
    let parts: ResponseParts;
    if (fromCdn !== undefined && !fromCdn(c.req.header(ORIGIN_VERIFY_HEADER))) {
      // Before any other work: no key lookup, no parameters, no snapshot (the metric raises the EdgeRefusals alarm).
      deps.logger.warn('edge_refusal', { metric: EDGE_REFUSAL_METRIC, reason: 'cdn_required', request_id: requestId });
      const error = new ApiError('cdn_required', CDN_REQUIRED.error, { hint: CDN_REQUIRED.hint });
      parts = await partsOf(errorResponse(error.status, { ...error.toBody(), request_id: requestId }));
    } else if (isPreflight(c.req.method, c.req.header('access-control-request-method'))) {
      parts = await partsOf(preflightResponse());
    } else {
      await next();
      parts = await partsOf(c.res);
      // The guard's data-version headers, on the answers that serve data (an error raised after the guard has none).
      const version = c.get('versionHeaders');
      if (version !== undefined && SERVES_DATA.has(parts.status))
        for (const [name, value] of Object.entries(version)) setHeader(parts.headers, name, value);
      parts = await compressParts(parts, c.req.header('accept-encoding'));
    }
    for (const [name, value] of Object.entries(corsHeaders())) {
      if (headerOf(parts.headers, name) === undefined) parts.headers[name] = value;
    }
    setHeader(parts.headers, REQUEST_ID_HEADER, requestId);
    // One Response with plain headers (response-parts.ts).
    const response = responseOf(parts);
    c.res = undefined;
    c.res = response;
    // The line's redacted path costs a few microseconds: not computed when the level drops the line.
    if (deps.logger.enabled?.('info') !== false) {
      deps.logger.info('request', {
        method: c.req.method,
        path: redactRequestTarget(requestTarget(c)),
        status: response.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        request_id: requestId,
        ...(gatewayId !== undefined && gatewayId !== requestId ? { gateway_request_id: gatewayId } : {}),
      });
    }
    return response;
  });

  /** The guard of a route: see the file's comment. Only an answer that serves data (200, an NPI's 410) gets the
   * data-version headers. */
  const guardOf = (operation: OperationId): MiddlewareHandler<ApiEnv> => {
    const rules = OPERATION_RULES[operation];
    return async (c, next) => {
      if (!rules.keyed) {
        assertKnownParameters(parameterNames(c), rules.queryParameters);
        return next();
      }
      // The use case authenticates again with the same key: it gets the record this lookup found, not a second one.
      const keys = onceKeys(deps.keys);
      // Every value, parsed once: the entity tag covers them all, the use cases read the first of each.
      const values = c.req.queries();
      const query = firstValues(values);
      const credentials = credentialsOf(c, query);
      // Key (401), then a quota this process knows to be used up (429), then the parameters (400): an exhausted key
      // costs no parsing, no snapshot and no query (lambdas/core/charge-call.ts).
      const principal = await admit(credentials, { ...deps, keys });
      assertKnownParameters(parameterNames(c), rules.queryParameters);
      return deps.snapshots.withSnapshot(async (data) => {
        const version = { snapshotId: data.snapshotId, asOf: data.asOf };
        const etag = entityTag({ version, path: c.req.path, query: values, principal });
        const headers = dataVersionHeaders(version, etag);
        // Not metered: the key was checked, no data is served (README "Data versions and caching").
        if (ifNoneMatchHits(c.req.header('if-none-match'), etag)) return notModifiedResponse(headers);
        c.set('keyed', {
          deps: { ...deps, keys, snapshots: { withSnapshot: (work) => work(data) } },
          version,
          query,
          credentials,
        });
        // Added by the first middleware when the answer serves data (SERVES_DATA).
        c.set('versionHeaders', headers);
        await next();
      });
    };
  };

  const operations: Record<OperationId, Handler<ApiEnv>> = {
    listProviders: async (c) => {
      const { deps, version, query, credentials } = keyedRequest(c);
      const result = await listProviders({ credentials, query }, deps);
      const headers = result.rateLimit ? rateLimitHeaders(result.rateLimit) : undefined;
      if (result.format === 'csv') {
        const selector = result.path === 'vertical' ? result.vertical : (result.taxonomy ?? 'identity-search');
        return csvResponse(listCsvBytes(result, bodies), {
          filename: csvFilename(selector, result.pagination.offset),
          cacheControl: NO_STORE,
          ...(headers ? { headers } : {}),
        });
      }
      // On the node server an identity page is written into pooled memory, given back when the response is done.
      const outgoing = nodeResponseOf(c);
      const lease =
        outgoing === undefined || result.path !== 'identity' ? undefined : leaseUntilClosed(bodyPool, outgoing);
      return jsonResponse(200, listJsonBytes(result, bodies, version, lease), {
        cacheControl: NO_STORE,
        ...(headers ? { headers } : {}),
      });
    },

    getProvider: async (c) => {
      const { deps, version, query, credentials } = keyedRequest(c);
      const result = await getProvider({ credentials, id: c.req.param('id') ?? '', query }, deps);
      const headers = result.rateLimit ? rateLimitHeaders(result.rateLimit) : undefined;
      return jsonResponse(200, detailBody(result, version), {
        cacheControl: NO_STORE,
        ...(headers ? { headers } : {}),
      });
    },

    getCoverage: async () => {
      const coverage = await getCoverage({}, deps);
      return jsonResponse(200, coverage.body, { cacheControl: PUBLIC_CACHE });
    },

    getSample: async (c) => {
      const sample = await getSample({ query: c.req.query() }, deps);
      if (sample.format === 'csv') {
        return csvResponse(sample.body, { filename: 'sample.csv', cacheControl: PUBLIC_CACHE });
      }
      return jsonResponse(200, sample.body, { cacheControl: PUBLIC_CACHE });
    },

    getOpenApi: () => jsonResponse(200, OPENAPI_BYTES, { cacheControl: DOCUMENT_CACHE }),

    // The API reference (Redoc) and its script, both from this origin (docs-page.ts).
    getDocs: (c) => docs.page(assetRequest(c)),
    getDocsScript: (c) => docs.script(assetRequest(c)),

    // NPI lookups: an active NPI is 200, a deactivated one 410 (both serve data and are metered).
    getNpi: async (c) => {
      const { deps, version, credentials } = keyedRequest(c);
      const { rateLimit, status, ...result } = await getNpi({ credentials, npi: c.req.param('npi') ?? '' }, deps);
      const headers = rateLimit ? rateLimitHeaders(rateLimit) : undefined;
      const { record, ...envelope } = result;
      const body = jsonWithData({ ...envelope, ...dataVersionFields(version) }, [record.head, record.tail]);
      return jsonResponse(status === 'active' ? 200 : 410, body, {
        cacheControl: NO_STORE,
        ...(headers ? { headers } : {}),
      });
    },

    listNpis: async (c) => {
      const { deps, version, query, credentials } = keyedRequest(c);
      const { rateLimit, ...result } = await lookupNpis({ credentials, numbers: query.numbers }, deps);
      const headers = rateLimit ? rateLimitHeaders(rateLimit) : undefined;
      const { data, ...envelope } = result;
      const body = jsonWithData({ ...envelope, ...dataVersionFields(version) }, npiBatchParts(data));
      return jsonResponse(200, body, { cacheControl: NO_STORE, ...(headers ? { headers } : {}) });
    },

    listChanges: async (c) => {
      const { deps, version, query, credentials } = keyedRequest(c);
      const { rateLimit, format, ...result } = await listChanges(
        { credentials, query, kinds: c.req.queries('kind') ?? [] },
        deps,
      );
      const headers = rateLimit ? rateLimitHeaders(rateLimit) : undefined;
      if (format === 'csv') {
        return csvResponse(changesCsvBytes(result.data), {
          filename: `changes-since-${result.span.from_snapshot}-${result.pagination.offset}.csv`,
          cacheControl: NO_STORE,
          ...(headers ? { headers } : {}),
        });
      }
      const { data, span, pagination, filters, ...envelope } = result;
      const body = { ...envelope, ...dataVersionFields(version), span, pagination, filters, data };
      return jsonResponse(200, body, { cacheControl: NO_STORE, ...(headers ? { headers } : {}) });
    },
  };
  // One guard and handler per route of the contract's table; Hono writes `{id}` as `:id` and answers HEAD from GET.
  for (const route of ROUTES) {
    api.on(route.method, honoPath(route.path), guardOf(route.operation), operations[route.operation]);
  }

  // The coverage page: public like coverage.json, from the same pinned snapshot. Query parameters are ignored (a
  // shared link may carry some); the CDN's copy ignores them too.
  api.get(PAGE_PATHS.coverage, async () => {
    const page = await getCoveragePage({}, deps);
    return htmlResponse(page.body, { cacheControl: PUBLIC_CACHE, csp: COVERAGE_PAGE_CSP });
  });

  // A browser opening any page of this origin asks for its icon: 204, kept a day (the CDN answers the same).
  app.get(FAVICON_PATH, () => new Response(null, { status: 204, headers: { 'Cache-Control': FAVICON_CACHE_CONTROL } }));

  if (options.benchCeiling) {
    app.get('/__bench/ceiling', () => jsonResponse(200, CEILING_BODY, { cacheControl: NO_STORE }));
    app.get('/__bench/memory', () => jsonResponse(200, benchMemory(), { cacheControl: NO_STORE }));
  }

  app.route(API_BASE_PATH, api);

  // Whoever opens the service's root or the API's base address in a browser lands on the reference (302: the
  // address may serve something else one day, so nothing should remember this answer).
  for (const path of ['/', API_BASE_PATH]) {
    app.get(path, (c) => {
      c.header('Cache-Control', NO_STORE);
      return c.redirect(DOCS_PATHS.page, 302);
    });
  }

  app.notFound((c) => {
    const error = new ApiError('not_found', 'No such route.', {
      hint: `The API lives under ${API_BASE_PATH}: ${ROUTE_LIST} (GET).`,
    });
    return errorResponse(error.status, { ...error.toBody(), request_id: c.get('requestId') });
  });

  app.onError((err, c) => {
    const request_id = c.get('requestId');
    if (err instanceof ApiError)
      return errorResponse(
        err.status,
        { ...err.toBody(), request_id },
        err.details.rateLimit,
        err.details.retryAfterSeconds,
      );
    if (isIntegrityFailure(err)) {
      // Stored bytes that do not match the manifest (fetched twice): never served; the metric raises an alarm.
      deps.logger.error('integrity_failure', { metric: INTEGRITY_FAILURE_METRIC, error: err, request_id });
      const error = new ApiError('service_unavailable', 'The data could not be read intact. Please retry shortly.', {
        hint: `Retry after ${INTEGRITY_RETRY_AFTER_SECONDS} s; the failure was logged and nothing unverified was served.`,
        retryAfterSeconds: INTEGRITY_RETRY_AFTER_SECONDS,
      });
      return errorResponse(error.status, { ...error.toBody(), request_id }, undefined, INTEGRITY_RETRY_AFTER_SECONDS);
    }
    // The cause goes to the log, never to the client (STYLE §3).
    deps.logger.error('unhandled_error', { error: err, request_id });
    const error = internalError();
    return errorResponse(error.status, { ...error.toBody(), request_id });
  });

  return app;
}

/** The `metric` field of the log line of a request refused for not coming through the CDN (infra alarms on it). */
export const EDGE_REFUSAL_METRIC = 'EdgeRefusal' as const;

/**
 * A constant-time check of the origin header against the deployment's secret (both hashed first, so that neither
 * the length nor a prefix of the secret leaks through timing).
 */
function originCheck(secret: string): (header: string | undefined) => boolean {
  const expected = createHash('sha256').update(secret, 'utf8').digest();
  return (header) =>
    header !== undefined && timingSafeEqual(createHash('sha256').update(header, 'utf8').digest(), expected);
}

/** The `metric` field of the log line of a request refused for bytes that failed their check (infra alarms on it). */
export const INTEGRITY_FAILURE_METRIC = 'IntegrityFailure' as const;

/** Seconds a client is told to wait after a 503 for bytes that failed their integrity check. */
export const INTEGRITY_RETRY_AFTER_SECONDS = 30;

/** True when `err`, or an error it was caused by, is an {@link IntegrityError}. */
function isIntegrityFailure(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth += 1) {
    if (e instanceof IntegrityError) return true;
  }
  return false;
}
