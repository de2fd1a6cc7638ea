/**
 * The guard in front of every route, driven by the OpenAPI document (data-contracts/query-parameters.ts): unknown
 * query parameters are refused (400). On a keyed route the key is checked first (401), then a quota this process
 * knows to be used up (429), then the parameters (400); one snapshot is pinned for the whole request, and an
 * `If-None-Match` naming the current tag answers 304 without running (or metering) the use case. The data-version
 * headers it computes are added by the request log's middleware to the answers that serve data (request-log.ts).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { OPERATION_RULES } from '../../data-contracts/query-parameters';
import type { OperationId } from '../../data-contracts/routes';
import { admit, type Credentials } from '../core/authenticate';
import type { CoreDeps } from '../core/ports';
import { asksForReceipt } from '../core/receipt-params';
import { type DataVersion, dataVersionHeaders, entityTag, ifNoneMatchHits } from './data-version';
import { notModifiedResponse } from './responses';
import { assertKnownParameters } from './unknown-parameters';

/**
 * What the guard hands a keyed route's handler: the use cases' dependencies over the pinned snapshot, its version,
 * and the request's query (the first value of each parameter, parsed once with every value: Hono parses the URL again
 * on every `c.req.query()` or `c.req.queries()`) and credentials.
 */
export interface KeyedRequest {
  deps: CoreDeps;
  version: DataVersion;
  query: Readonly<Record<string, string>>;
  credentials: Credentials;
}

/** The variables of the API's routes. */
export type ApiEnv = { Variables: { keyed: KeyedRequest } };

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
export function keyedRequest(c: Context<ApiEnv>): KeyedRequest {
  const keyed = c.get('keyed');
  if (keyed === undefined) throw new Error('a keyed handler ran without its guard');
  return keyed;
}

/**
 * The guard of the route of `operation`. Only an answer that serves data (200, an NPI's 410) gets the data-version
 * headers.
 */
export function guardOf(operation: OperationId, deps: CoreDeps): MiddlewareHandler<ApiEnv> {
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
      // A receipt is issued anew on every call (its own id and time): never a 304, and no tag.
      const receipt = asksForReceipt(query);
      if (receipt) delete headers.ETag;
      // Not metered: the key was checked, no data is served (docs/api-guide.md, data versions).
      else if (ifNoneMatchHits(c.req.header('if-none-match'), etag)) return notModifiedResponse(headers);
      c.set('keyed', {
        deps: { ...deps, keys, snapshots: { withSnapshot: (work) => work(data) } },
        version,
        query,
        credentials,
      });
      // Added by the first middleware when the answer serves data.
      c.set('versionHeaders', headers);
      await next();
    });
  };
}

function credentialsOf(c: Context, query: Readonly<Record<string, string>>): Credentials {
  return {
    authorization: c.req.header('authorization') ?? null,
    apiKeyHeader: c.req.header('x-api-key') ?? null,
    keyParam: query.key ?? null,
  };
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
