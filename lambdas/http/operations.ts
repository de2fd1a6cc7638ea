/**
 * The API's operations as one table: for each operation of the contract's route table (data-contracts/routes.ts),
 * the use case it runs (lambdas/core) and the presenter of its result (presenters.ts). The app mounts each behind
 * its guard (guard.ts); a keyed operation runs over the snapshot and query its guard pinned.
 */
import { ServerResponse } from 'node:http';
import type { Context, Handler } from 'hono';
import openApiJson from '../../data-contracts/openapi.json';
import { RECEIPT_PARAMETER, RECEIPT_QUERY_OMITS } from '../../data-contracts/receipts';
import type { OperationId } from '../../data-contracts/routes';
import { getProvider } from '../core/get-provider';
import { getReceiptPublicKey, issueReceipt } from '../core/issue-receipt';
import { listChanges } from '../core/list-changes';
import { listProviders } from '../core/list-providers';
import { getNpi, lookupNpis } from '../core/lookup-npi';
import type { CoreDeps } from '../core/ports';
import { getCoverage, getSample } from '../core/public-objects';
import { assertReceiptShape, parseReceiptFlag, type ReceiptOperation } from '../core/receipt-params';
import { type BodyPool, leaseUntilClosed } from './body-pool';
import type { DocsAssets } from './docs-page';
import { type ApiEnv, type KeyedRequest, keyedRequest } from './guard';
import type { ListBodyCache } from './list-formats';
import { presentChanges, presentDetail, presentList, presentNpi, presentNpiBatch, presentPublic } from './presenters';
import { presentReceipt } from './receipt-format';
import { DOCUMENT_CACHE, jsonResponse } from './responses';

const OPENAPI_BYTES = Buffer.from(JSON.stringify(openApiJson), 'utf8');

/** What the operations share: the use cases' dependencies and the app's caches and assets. */
export interface OperationContext {
  deps: CoreDeps;
  /** The cache of list bodies. */
  bodies: ListBodyCache;
  /** The API reference page and its script. */
  docs: DocsAssets;
  /** Pooled memory for the identity pages the node server writes. */
  bodyPool: BodyPool;
}

type Env = Context<ApiEnv>;

/** A keyed operation: its use case over the guard's pinned request, then its presenter. */
function keyed<R>(
  run: (request: KeyedRequest, c: Env) => Promise<R>,
  present: (result: R, request: KeyedRequest, c: Env) => Response,
): Handler<ApiEnv> {
  return async (c) => {
    const request = keyedRequest(c);
    return present(await run(request, c), request, c);
  };
}

/** The parameters a receipt's `request.query` never echoes. */
const NOT_ECHOED = new Set<string>(RECEIPT_QUERY_OMITS);

/**
 * A batch screen: with `receipt=true` the signed receipt of the call (lambdas/core/issue-receipt.ts), else the call
 * itself; a receipt's shape and value are checked either way (400 `invalid_parameter`).
 */
function screen(operation: ReceiptOperation, call: Handler<ApiEnv>): Handler<ApiEnv> {
  return async (c, next) => {
    const { deps, query, credentials } = keyedRequest(c);
    const receipt = parseReceiptFlag(query[RECEIPT_PARAMETER]);
    assertReceiptShape(operation, query, receipt);
    if (!receipt) return call(c, next);
    const echoed = Object.entries(c.req.queries())
      .filter(([name]) => !NOT_ECHOED.has(name))
      .map(([name, values]) => [name, values.length === 1 ? (values[0] as string) : values]);
    const result = await issueReceipt(
      {
        operation,
        credentials,
        query,
        kinds: c.req.queries('kind') ?? [],
        request: { path: c.req.path, query: Object.fromEntries(echoed) },
      },
      deps,
    );
    return presentReceipt(result);
  };
}

/** The operations, by the contract's operation id. */
export function operationTable(context: OperationContext): Record<OperationId, Handler<ApiEnv>> {
  const { deps, bodies, docs, bodyPool } = context;
  const assetRequest = (c: Context) => ({
    ifNoneMatch: c.req.header('if-none-match'),
    acceptEncoding: c.req.header('accept-encoding'),
  });
  // On the node server an identity page is written into pooled memory, given back when the response is done.
  const identityLease = (c: Context, path: string) => {
    const outgoing = nodeResponseOf(c);
    return outgoing === undefined || path !== 'identity' ? undefined : leaseUntilClosed(bodyPool, outgoing);
  };
  return {
    listProviders: screen(
      'listProviders',
      keyed(
        ({ deps, query, credentials }) => listProviders({ credentials, query }, deps),
        (result, { version }, c) =>
          presentList(result, version, bodies, result.format === 'csv' ? undefined : identityLease(c, result.path)),
      ),
    ),
    getProvider: keyed(
      ({ deps, query, credentials }, c) => getProvider({ credentials, id: c.req.param('id') ?? '', query }, deps),
      (result, { version }) => presentDetail(result, version),
    ),
    getCoverage: async () => presentPublic(await getCoverage({}, deps), 'coverage.json'),
    getSample: async (c) => presentPublic(await getSample({ query: c.req.query() }, deps), 'sample.csv'),
    getOpenApi: () => jsonResponse(200, OPENAPI_BYTES, { cacheControl: DOCUMENT_CACHE }),
    // The API reference (Redoc) and its script, both from this origin (docs-page.ts).
    getDocs: (c) => docs.page(assetRequest(c)),
    getDocsScript: (c) => docs.script(assetRequest(c)),
    getNpi: keyed(
      ({ deps, credentials }, c) => getNpi({ credentials, npi: c.req.param('npi') ?? '' }, deps),
      (result, { version }) => presentNpi(result, version),
    ),
    listNpis: screen(
      'listNpis',
      keyed(
        ({ deps, query, credentials }) => lookupNpis({ credentials, numbers: query.numbers }, deps),
        (result, { version }) => presentNpiBatch(result, version),
      ),
    ),
    listChanges: screen(
      'listChanges',
      keyed(
        ({ deps, query, credentials }, c) =>
          listChanges({ credentials, query, kinds: c.req.queries('kind') ?? [] }, deps),
        (result, { version }) => presentChanges(result, version),
      ),
    ),
    // Public and cacheable: the key changes only with the deployment's secret.
    getReceiptPublicKey: async () =>
      jsonResponse(200, await getReceiptPublicKey(deps), { cacheControl: DOCUMENT_CACHE }),
  };
}

/** The node:http response of a request the node server answers; undefined under the Lambda adapter and in tests. */
function nodeResponseOf(c: Context): ServerResponse | undefined {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  return outgoing instanceof ServerResponse ? outgoing : undefined;
}
