/**
 * Use-case results to wire bodies: the JSON envelopes of the contract and the CSV pages (data-contracts/csv.ts
 * column sets: free and paid vertical columns, identity columns).
 */
import {
  FREE_PROVIDER_CSV_COLUMNS,
  flattenIdentityProvider,
  flattenProvider,
  IDENTITY_CSV_COLUMNS,
  PAID_PROVIDER_CSV_COLUMNS,
  toCsv,
} from '../../data-contracts/csv';
import type {
  IdentityListResponse,
  Provider,
  ProviderDetailResponse,
  ProviderListResponse,
} from '../../data-contracts/types';
import type { GetProviderResult } from '../core/get-provider';
import type { ListProvidersResult } from '../core/list-providers';

/** The JSON envelope of a list page. */
export function listBody(result: ListProvidersResult): ProviderListResponse | IdentityListResponse {
  const common = {
    tier: result.tier,
    plan: result.plan,
    ...(result.usage ? { usage: result.usage } : {}),
    ...(result.notice ? { notice: result.notice } : {}),
  };
  if (result.path === 'vertical') {
    return {
      ...common,
      publish_boundary: result.publishBoundary,
      pagination: result.pagination,
      filters: result.filters,
      data: result.data,
    };
  }
  return { ...common, layer: 'identity', pagination: result.pagination, filters: result.filters, data: result.data };
}

// CSV lines of the shared, frozen provider views (core/present-provider.ts), per column set.
const csvLines = new WeakMap<object, Map<readonly string[], string>>();

function csvLine(provider: Provider, columns: readonly string[]): string {
  let byColumns = csvLines.get(provider);
  const known = byColumns?.get(columns);
  if (known !== undefined) return known;
  // toCsv of one record: header line, record line, trailing CRLF; keep the record line only.
  const text = toCsv(columns, [flattenProvider(provider)]);
  const line = text.slice(text.indexOf('\r\n') + 2, -2);
  if (Object.isFrozen(provider)) {
    if (byColumns === undefined) {
      byColumns = new Map();
      csvLines.set(provider, byColumns);
    }
    byColumns.set(columns, line);
  }
  return line;
}

const jsonTexts = new WeakMap<object, string>();

function providerJson(provider: Provider): string {
  const known = jsonTexts.get(provider);
  if (known !== undefined) return known;
  const text = JSON.stringify(provider);
  if (Object.isFrozen(provider)) jsonTexts.set(provider, text);
  return text;
}

/**
 * The JSON text of a list page: the same bytes as `JSON.stringify(listBody(result))`, with the rows' texts
 * reused from earlier responses (a shared provider view is serialised once per snapshot).
 */
export function listJson(result: ListProvidersResult): string {
  if (result.path === 'identity') return JSON.stringify(listBody(result));
  const { data, ...envelope } = listBody(result) as ProviderListResponse;
  const head = JSON.stringify(envelope);
  // `data` is the envelope's last key, so it goes just before the closing brace.
  return `${head.slice(0, -1)},"data":[${data.map(providerJson).join(',')}]}`;
}

/** The CSV text of a list page, in the caller's tier's column set. */
export function listCsv(result: ListProvidersResult): string {
  if (result.path === 'identity') return toCsv(IDENTITY_CSV_COLUMNS, result.data.map(flattenIdentityProvider));
  const columns = result.tier === 'paid' ? PAID_PROVIDER_CSV_COLUMNS : FREE_PROVIDER_CSV_COLUMNS;
  const header = toCsv(columns, []);
  if (result.data.length === 0) return header;
  return `${header}${result.data.map((p) => csvLine(p, columns)).join('\r\n')}\r\n`;
}

/** The JSON envelope of a detail response. */
export function detailBody(result: GetProviderResult): ProviderDetailResponse {
  return {
    tier: result.tier,
    plan: result.plan,
    publish_boundary: result.publishBoundary,
    ...(result.usage ? { usage: result.usage } : {}),
    ...(result.notice ? { notice: result.notice } : {}),
    data: result.data,
  };
}
