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
import { identityProvidersJson, identityRowList, identityRowsOf } from '../../data-contracts/identity-json';
import { roundedMiles } from '../../data-contracts/near';
import { identityProviderFromRow } from '../../data-contracts/rows';
import type {
  IdentityListResponse,
  Provider,
  ProviderDetailResponse,
  ProviderListResponse,
} from '../../data-contracts/types';
import type { GetProviderResult } from '../core/get-provider';
import type { ListProvidersResult } from '../core/list-providers';
import { maskIdentityProvider } from '../masking/tier-masking';
import type { BodyLease } from './body-pool';
import { type DataVersion, dataVersionFields } from './data-version';

/** The JSON envelope of a list page, read from the snapshot `version`. */
export function listBody(
  result: ListProvidersResult,
  version: DataVersion,
): ProviderListResponse | IdentityListResponse {
  const common = {
    tier: result.tier,
    plan: result.plan,
    ...(result.usage ? { usage: result.usage } : {}),
    ...(result.notice ? { notice: result.notice } : {}),
    ...dataVersionFields(version),
  };
  const near = result.near ? { near: result.near.circle } : {};
  const miles = result.near?.miles ?? null;
  if (result.path === 'vertical') {
    return {
      ...common,
      publish_boundary: result.publishBoundary,
      pagination: result.pagination,
      filters: result.filters,
      ...near,
      data: miles === null ? result.data : withDistances(result.data, miles),
    };
  }
  const rows = identityRowList(result.rows).map((row) => maskIdentityProvider(identityProviderFromRow(row)));
  const data = miles === null ? rows : withDistances(rows, miles);
  return { ...common, layer: 'identity', pagination: result.pagination, filters: result.filters, ...near, data };
}

/** Rows with their rounded distance as the last member (a radius answer). */
function withDistances<T extends object>(
  rows: readonly T[],
  miles: ArrayLike<number>,
): (T & { distance_miles: number })[] {
  return rows.map((row, i) => ({ ...row, distance_miles: roundedMiles(miles[i] as number) }));
}

/** Bytes of the page cache at most. */
const PAGE_CACHE_BYTES = 16 * 1024 * 1024;
/** Bodies kept per page (a metered key's envelope changes on every call). */
const PAGE_VARIANTS = 4;

interface CachedPage {
  rows: readonly object[];
  bodies: Map<string, Buffer>;
  bytes: number;
}

/**
 * The wire bytes of the shared, frozen provider views (core/present-provider.ts), owned by the runtime (one per
 * app), so tests and measuring tools hold their own and can clear them:
 * - per CSV column set and for JSON, each view's bytes: a view is serialised once per snapshot, and a page's body is
 *   one copy of its rows' bytes (`Buffer.concat`), several times cheaper on a long page than joining strings and
 *   encoding the result;
 * - whole bodies of recent pages of shared frozen views, by the page's first view, the rows compared one by one,
 *   then by a variant key (the JSON envelope, or the CSV column set): a repeated page is answered with the same
 *   Buffer, without allocating, joining or copying its bytes again. Bounded by {@link PAGE_CACHE_BYTES}, least
 *   recently used out.
 *
 * @example
 * const bodies = new ListBodyCache();
 * const bytes = listJsonBytes(result, bodies);
 */
export class ListBodyCache {
  private csvLines = new Map<readonly string[], WeakMap<object, Buffer>>();
  private jsonTexts = new WeakMap<object, Buffer>();
  private readonly pages = new Map<object, CachedPage>();
  private pagesBytes = 0;

  /** Forgets every cached row and body. */
  clear(): void {
    this.csvLines = new Map();
    this.jsonTexts = new WeakMap();
    this.pages.clear();
    this.pagesBytes = 0;
  }

  /** The memo of one CSV column set's record lines. */
  csvMemo(columns: readonly string[]): WeakMap<object, Buffer> {
    let memo = this.csvLines.get(columns);
    if (memo === undefined) {
      memo = new WeakMap();
      this.csvLines.set(columns, memo);
    }
    return memo;
  }

  /** `,` and the provider's JSON: a page copies one part per row; the first row is the view without the comma. */
  providerJson(provider: Provider): Buffer {
    const known = this.jsonTexts.get(provider);
    if (known !== undefined) return known;
    const bytes = Buffer.from(`,${JSON.stringify(provider)}`, 'utf8');
    if (Object.isFrozen(provider)) this.jsonTexts.set(provider, bytes);
    return bytes;
  }

  /** The body of a page of frozen rows in one variant, built by `build` when it is not cached. */
  page(data: readonly object[], variant: string, build: () => Buffer): Buffer {
    const first = data[0];
    if (first === undefined || !data.every((row) => Object.isFrozen(row))) {
      return build();
    }
    const { pages } = this;
    let entry = pages.get(first);
    if (entry !== undefined && (entry.rows.length !== data.length || !entry.rows.every((row, i) => row === data[i]))) {
      pages.delete(first);
      this.pagesBytes -= entry.bytes;
      entry = undefined;
    }
    if (entry === undefined) entry = { rows: [...data], bodies: new Map(), bytes: 0 };
    pages.delete(first);
    pages.set(first, entry);
    const known = entry.bodies.get(variant);
    if (known !== undefined) return known;
    const body = build();
    if (body.length > PAGE_CACHE_BYTES / 4) return body;
    for (const [key, old] of entry.bodies) {
      if (entry.bodies.size < PAGE_VARIANTS) break;
      entry.bodies.delete(key);
      entry.bytes -= old.length;
      this.pagesBytes -= old.length;
    }
    entry.bodies.set(variant, body);
    entry.bytes += body.length;
    this.pagesBytes += body.length;
    for (const [key, old] of pages) {
      if (this.pagesBytes <= PAGE_CACHE_BYTES) break;
      pages.delete(key);
      this.pagesBytes -= old.bytes;
    }
    return body;
  }
}

function csvLine(provider: Provider, columns: readonly string[], memo: WeakMap<object, Buffer>): Buffer {
  const known = memo.get(provider);
  if (known !== undefined) return known;
  // toCsv of one record: header line, record line, trailing CRLF; keep the record line and its CRLF.
  const text = toCsv(columns, [flattenProvider(provider)]);
  const line = Buffer.from(text.slice(text.indexOf('\r\n') + 2), 'utf8');
  if (Object.isFrozen(provider)) memo.set(provider, line);
  return line;
}

/**
 * The JSON bytes of a list page: the same bytes as `JSON.stringify(listBody(result))`, with the rows' bytes reused
 * from earlier responses (per row, and whole bodies of recent pages).
 */
export function listJsonBytes(
  result: ListProvidersResult,
  cache: ListBodyCache,
  version: DataVersion,
  lease?: BodyLease,
): Buffer {
  if (result.path === 'identity') {
    // The envelope without its rows, then the rows' bytes written straight from the rows (`data` is last).
    const head = JSON.stringify(
      listBody(
        {
          ...result,
          rows: identityRowsOf([]),
          ...(result.near ? { near: { ...result.near, miles: new Float64Array(0) } } : {}),
        },
        version,
      ),
    );
    return identityProvidersJson(
      result.rows,
      head.slice(0, -'[]}'.length),
      '}',
      lease?.allocate,
      result.near?.miles ?? null,
    );
  }
  if (result.near) {
    // The envelope without its rows (their distances are spliced into their cached bytes below).
    const { data: _none, ...envelope } = listBody({ ...result, data: [] }, version) as ProviderListResponse;
    const head = JSON.stringify(envelope);
    // A radius page: each row's cached bytes with its distance as the last member; the page is not cached.
    const { miles } = result.near;
    const parts: Buffer[] = [Buffer.from(`${head.slice(0, -1)},"data":[`, 'utf8')];
    result.data.forEach((provider, i) => {
      const bytes = cache.providerJson(provider);
      const row = i === 0 ? bytes.subarray(1) : bytes;
      parts.push(
        row.subarray(0, row.length - 1),
        Buffer.from(`,"distance_miles":${roundedMiles(miles[i] as number)}}`),
      );
    });
    parts.push(Buffer.from(']}'));
    return Buffer.concat(parts);
  }
  const { data, ...envelope } = listBody(result, version) as ProviderListResponse;
  const head = JSON.stringify(envelope);
  return cache.page(data, `json ${head}`, () => {
    // `data` is the envelope's last key, so it goes just before the closing brace.
    const parts: Buffer[] = [Buffer.from(`${head.slice(0, -1)},"data":[`, 'utf8')];
    for (let i = 0; i < data.length; i += 1) {
      const bytes = cache.providerJson(data[i] as Provider);
      parts.push(i === 0 ? bytes.subarray(1) : bytes);
    }
    parts.push(Buffer.from(']}'));
    return Buffer.concat(parts);
  });
}

/** {@link listJsonBytes} as text. */
export function listJson(result: ListProvidersResult, cache: ListBodyCache, version: DataVersion): string {
  return listJsonBytes(result, cache, version).toString('utf8');
}

/** The CSV bytes of a list page, in the caller's tier's column set. */
export function listCsvBytes(result: ListProvidersResult, cache: ListBodyCache): Buffer {
  const miles = result.near?.miles ?? null;
  if (result.path === 'identity') {
    const rows = identityRowList(result.rows).map((row) => flattenIdentityProvider(identityProviderFromRow(row)));
    if (miles !== null)
      return Buffer.from(toCsv([...IDENTITY_CSV_COLUMNS, 'distance_miles'], withDistances(rows, miles)), 'utf8');
    return Buffer.from(toCsv(IDENTITY_CSV_COLUMNS, rows), 'utf8');
  }
  const columns = result.tier === 'paid' ? PAID_PROVIDER_CSV_COLUMNS : FREE_PROVIDER_CSV_COLUMNS;
  if (miles !== null) {
    // A radius page: the distance is the last column.
    const flat = withDistances(result.data.map(flattenProvider), miles);
    return Buffer.from(toCsv([...columns, 'distance_miles'], flat), 'utf8');
  }
  const lines = cache.csvMemo(columns);
  return cache.page(result.data, `csv ${result.tier === 'paid' ? 'paid' : 'free'}`, () => {
    const parts: Buffer[] = [Buffer.from(toCsv(columns, []), 'utf8')];
    for (const provider of result.data) parts.push(csvLine(provider, columns, lines));
    return Buffer.concat(parts);
  });
}

/** {@link listCsvBytes} as text. */
export function listCsv(result: ListProvidersResult, cache: ListBodyCache): string {
  return listCsvBytes(result, cache).toString('utf8');
}

/** The JSON envelope of a detail response, read from the snapshot `version`. */
export function detailBody(result: GetProviderResult, version: DataVersion): ProviderDetailResponse {
  return {
    tier: result.tier,
    plan: result.plan,
    publish_boundary: result.publishBoundary,
    ...(result.usage ? { usage: result.usage } : {}),
    ...(result.notice ? { notice: result.notice } : {}),
    ...dataVersionFields(version),
    data: result.data,
  };
}
