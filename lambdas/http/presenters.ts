/**
 * The presenters of the operations (operations.ts): a use case's result to the HTTP answer, its status, headers,
 * cache policy and body in the format asked for. Keyed answers are never stored by a shared cache and carry the
 * rate-limit headers of a metered plan; public ones may be cached briefly.
 */
import type { GetProviderResult } from '../core/get-provider';
import type { ListChangesResult } from '../core/list-changes';
import type { ListProvidersResult } from '../core/list-providers';
import { type GetNpiResult, type NpiBatchResult, npiBatchParts } from '../core/lookup-npi';
import type { RateLimitState } from '../core/ports';
import type { StaticObject } from '../core/public-objects';
import type { BodyLease } from './body-pool';
import { changesCsvBytes } from './changes-format';
import { type DataVersion, dataVersionFields } from './data-version';
import { detailBody, type ListBodyCache, listCsvBytes, listJsonBytes } from './list-formats';
import {
  csvFilename,
  csvResponse,
  jsonResponse,
  jsonWithData,
  NO_STORE,
  PUBLIC_CACHE,
  rateLimitHeaders,
} from './responses';

/** The cache policy and rate-limit headers of a keyed answer. */
function keyedOptions(rateLimit: RateLimitState | undefined): {
  cacheControl: string;
  headers?: Record<string, string>;
} {
  return rateLimit ? { cacheControl: NO_STORE, headers: rateLimitHeaders(rateLimit) } : { cacheControl: NO_STORE };
}

/** A page of providers, JSON or CSV; `lease` lends pooled memory for an identity page's JSON (body-pool.ts). */
export function presentList(
  result: ListProvidersResult,
  version: DataVersion,
  bodies: ListBodyCache,
  lease: BodyLease | undefined,
): Response {
  const options = keyedOptions(result.rateLimit);
  if (result.format === 'csv') {
    const selector = result.path === 'vertical' ? result.vertical : (result.taxonomy ?? 'identity-search');
    return csvResponse(listCsvBytes(result, bodies), {
      filename: csvFilename(selector, result.pagination.offset),
      ...options,
    });
  }
  return jsonResponse(200, listJsonBytes(result, bodies, version, lease), options);
}

/** One provider. */
export function presentDetail(result: GetProviderResult, version: DataVersion): Response {
  return jsonResponse(200, detailBody(result, version), keyedOptions(result.rateLimit));
}

/** One NPI: an active NPI is 200, a deactivated one 410 (both serve data and are metered). */
export function presentNpi(answer: GetNpiResult, version: DataVersion): Response {
  const { rateLimit, status, record, ...envelope } = answer;
  const body = jsonWithData({ ...envelope, ...dataVersionFields(version) }, [record.head, record.tail]);
  return jsonResponse(status === 'active' ? 200 : 410, body, keyedOptions(rateLimit));
}

/** A batch of NPIs, each record's bytes as they came from storage. */
export function presentNpiBatch(answer: NpiBatchResult, version: DataVersion): Response {
  const { rateLimit, data, ...envelope } = answer;
  const body = jsonWithData({ ...envelope, ...dataVersionFields(version) }, npiBatchParts(data));
  return jsonResponse(200, body, keyedOptions(rateLimit));
}

/** A page of the change feed, JSON or CSV. */
export function presentChanges(answer: ListChangesResult, version: DataVersion): Response {
  const { rateLimit, format, ...result } = answer;
  const options = keyedOptions(rateLimit);
  if (format === 'csv') {
    return csvResponse(changesCsvBytes(result.data), {
      filename: `changes-since-${result.span.from_snapshot}-${result.pagination.offset}.csv`,
      ...options,
    });
  }
  const { data, span, pagination, filters, ...envelope } = result;
  const body = { ...envelope, ...dataVersionFields(version), span, pagination, filters, data };
  return jsonResponse(200, body, options);
}

/** A public object of the snapshot (coverage.json, the sample): JSON, or the sample's CSV attachment. */
export function presentPublic(object: StaticObject, csvName: string): Response {
  if (object.format === 'csv') return csvResponse(object.body, { filename: csvName, cacheControl: PUBLIC_CACHE });
  return jsonResponse(200, object.body, { cacheControl: PUBLIC_CACHE });
}
