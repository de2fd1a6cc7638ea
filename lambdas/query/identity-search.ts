/**
 * The identity searches that are not a taxonomy list: by `npi` (a roster of NPIs, answered from the NPI lookup
 * records), or by `name` prefix or `postal_code` within one state (answered from that state's search index,
 * platform/search-index), each narrowed by `entity_type`, `taxonomy`, `city` (and `state`, `name`, `postal_code`
 * when given). One row per NPI (from the search index, or for a roster from its NPI lookup record): the taxonomy
 * shown is the one the filter matched (a code; for a classification the row a classification list would answer),
 * else the primary taxonomy.
 *
 * Row order: NPI order for a roster; (search name, NPI) for a name or postal-code search.
 */
import type { IdentityRows } from '../../data-contracts/identity-json';
import { identityRowsOf } from '../../data-contracts/identity-json';
import type { NpiActiveLine } from '../../data-contracts/layout';
import type { IdentityRow } from '../../data-contracts/rows';
import { searchCityKey, searchKey } from '../../platform/search-index/format';
import type { SearchQuery, SearchResult, SearchTaxonomy } from '../../platform/search-index/reader';
import type { IdentityNearQuery, IdentitySearchQuery, NearPage, TaxonomyResolution } from './types';

/** What a search needs from a snapshot. */
export interface SearchSource {
  resolveTaxonomy(taxonomy: string): TaxonomyResolution;
  /** The lookup line of each NPI, in the order given, or null when it is not an active NPI of the snapshot. */
  findActive(npis: readonly string[]): Promise<(NpiActiveLine | null)[]>;
  /** The state's search result, or null when the snapshot has no search index for the state. */
  searchState(state: string, query: SearchQuery): Promise<SearchResult | null>;
}

/** The search index's taxonomy filter of a resolution (null: no filter; undefined: matches nothing). */
function taxonomyFilter(resolution: TaxonomyResolution | null): SearchTaxonomy | null | undefined {
  if (resolution === null) return null;
  if (resolution.kind === 'unknown') return undefined;
  return resolution.kind === 'code' ? { code: resolution.code } : { classificationKey: resolution.classificationKey };
}

/** The search index query of a request. */
function searchStateQuery(query: IdentitySearchQuery, taxonomy: SearchTaxonomy | null): SearchQuery {
  return {
    name: query.name,
    postalCode: query.postalCode,
    entityType: query.entityType,
    city: query.city,
    taxonomy,
    limit: query.limit,
    offset: query.offset,
  };
}

/**
 * A line's codes in the search index's order (etl/sources/identity-search.ts): the primary first, then each
 * classification's representative (the primary when in it, else its first slot) by code, then the rest by code;
 * a code held in two slots counts once.
 */
export function orderedCodes(line: NpiActiveLine, classOf: (code: string) => string): string[] {
  const slots: string[] = [];
  for (const t of line.taxonomies) if (!slots.includes(t.code)) slots.push(t.code);
  const primary = line.taxonomies.find((t) => t.primary)?.code ?? null;
  const reps = new Map<string, string>();
  if (primary !== null) reps.set(classOf(primary), primary);
  for (const code of slots) if (!reps.has(classOf(code))) reps.set(classOf(code), code);
  const repCodes = [...reps.values()].filter((c) => c !== primary).sort(byBytes);
  const rest = slots.filter((c) => c !== primary && !repCodes.includes(c)).sort(byBytes);
  return [...(primary === null ? [] : [primary]), ...repCodes, ...rest];
}

function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** The identity row of an active NPI line shown with taxonomy `code`. */
export function identityRowOf(line: NpiActiveLine, code: string): IdentityRow {
  const slot = line.taxonomies.find((t) => t.code === code);
  return {
    npi: line.npi,
    name: line.name,
    taxonomy_code: code,
    taxonomy_display: slot?.display ?? null,
    classification_key: null,
    is_primary: slot?.primary ?? null,
    class_rep: null,
    city: line.city,
    state: line.state,
    checked_at: line.last_update_date,
    oig_excluded: line.oig_excluded,
    oig_type: line.oig_type,
    oig_date: line.oig_date,
    oig_checked_at: line.oig_checked_at,
    oig_candidate_count: line.oig_candidates?.length ?? 0,
  };
}

/** A page of a roster, name or postal-code search. */
export async function searchIdentity(
  query: IdentitySearchQuery,
  source: SearchSource,
): Promise<{ total: number; rows: IdentityRows }> {
  const empty = { total: 0, rows: identityRowsOf([]) };
  const filter = taxonomyFilter(query.taxonomy === null ? null : source.resolveTaxonomy(query.taxonomy));
  if (filter === undefined) return empty;
  if (query.npis !== null) return searchRoster(query, filter, source);
  if (query.state === null) throw new Error('identity search: a name or postal code search needs a state');
  const found = await source.searchState(query.state, searchStateQuery(query, filter));
  return found === null ? empty : found;
}

async function searchRoster(
  query: IdentitySearchQuery,
  filter: SearchTaxonomy | null,
  source: SearchSource,
): Promise<{ total: number; rows: IdentityRows }> {
  const npis = [...new Set(query.npis)].sort();
  const lines = await source.findActive(npis);
  const classOf = (code: string) => {
    const r = source.resolveTaxonomy(code);
    return r.kind === 'unknown' ? '' : r.classificationKey;
  };
  const prefix = query.name === null ? null : searchKey(query.name);
  const city = query.city === null ? null : searchCityKey(query.city);
  const rows: IdentityRow[] = [];
  for (const line of lines) {
    if (line === null || line === undefined) continue;
    if (query.state !== null && line.state !== query.state) continue;
    if (city !== null && (line.city === null || searchCityKey(line.city) !== city)) continue;
    if (query.postalCode !== null && line.postal_code !== query.postalCode) continue;
    if (query.entityType !== null && line.entity_type !== query.entityType) continue;
    if (prefix !== null) {
      const name = line.entity_type === 'organization' ? line.organization_name : line.last_name;
      if (!searchKey(name ?? line.name).startsWith(prefix)) continue;
    }
    const codes = orderedCodes(line, classOf);
    const code =
      filter === null
        ? codes[0]
        : 'code' in filter
          ? codes.find((c) => c === filter.code)
          : codes.find((c) => classOf(c) === filter.classificationKey);
    if (code === undefined) continue;
    rows.push(identityRowOf(line, code));
  }
  return { total: rows.length, rows: identityRowsOf(rows.slice(query.offset, query.offset + query.limit)) };
}

/**
 * A page of a name search within a circle: every state the circle's ZIPs lie in is searched (its search index, the
 * name prefix's range narrowed to the circle's ZIPs), the matches merged nearest first, then by NPI.
 */
export async function searchIdentityNear(
  query: IdentityNearQuery,
  resolution: TaxonomyResolution | null,
  searchState: (state: string, query: SearchQuery) => Promise<SearchResult | null>,
): Promise<NearPage<IdentityRows>> {
  const filter = taxonomyFilter(resolution);
  const empty = { total: 0, rows: identityRowsOf([]), miles: new Float64Array(0) };
  if (filter === undefined || query.name === null) return empty;
  const { circle } = query;
  const near = new Map<string, number>();
  circle.zipCodes().forEach((zip, i) => {
    near.set(zip, circle.zips().miles[i] as number);
  });
  const q: SearchQuery = {
    name: query.name,
    postalCode: null,
    entityType: query.entityType,
    city: null,
    taxonomy: filter,
    limit: Number.MAX_SAFE_INTEGER,
    offset: 0,
    near,
  };
  const found = await Promise.all(circle.states().map((state) => searchState(state, q)));
  // Every match as a reference (its state's result, its place there, its distance), ordered by distance; only the
  // page's rows and those tied with its first or last distance become objects (ties are ordered by NPI): a common
  // name prefix within a wide circle matches thousands of rows.
  const refs: { rows: IdentityRows; i: number; miles: number }[] = [];
  for (const result of found) {
    if (result === null) continue;
    for (let i = 0; i < result.rows.length; i += 1) {
      refs.push({ rows: result.rows, i, miles: result.miles?.[i] as number });
    }
  }
  refs.sort((a, b) => a.miles - b.miles);
  const end = Math.min(refs.length, query.offset + query.limit);
  if (end <= query.offset) return { total: refs.length, rows: identityRowsOf([]), miles: new Float64Array(0) };
  let lo = query.offset;
  while (lo > 0 && (refs[lo - 1]?.miles as number) === (refs[query.offset]?.miles as number)) lo -= 1;
  let hi = end;
  while (hi < refs.length && (refs[hi]?.miles as number) === (refs[end - 1]?.miles as number)) hi += 1;
  const window = refs.slice(lo, hi).map((r) => ({ row: r.rows.row(r.i), miles: r.miles }));
  const npi = (r: { row: IdentityRow }) => String(r.row.npi);
  window.sort((a, b) => a.miles - b.miles || (npi(a) < npi(b) ? -1 : npi(a) > npi(b) ? 1 : 0));
  const page = window.slice(query.offset - lo, end - lo);
  return {
    total: refs.length,
    rows: identityRowsOf(page.map((p) => p.row)),
    miles: Float64Array.from(page, (p) => p.miles),
  };
}
