/**
 * Typed queries to rows, over one pinned snapshot: the identity layer from its partition's serving index
 * (`identity-partitions.ts`: a few positional reads of the ETL's precomputed lists, or the same reads in memory);
 * the small vertical layer through typed filters over the arrays that `snapshot-tables.ts` loaded with SQL when the
 * snapshot became current.
 *
 * Every value from a request is compared in JS or looked up in the index; no request runs SQL (the only SQL is
 * `snapshot-tables.ts`' load statements, run once per snapshot).
 */
import type { ChangesSpan } from '../../data-contracts/changes';
import { LIVE_VERTICALS, type PublishBoundary, VERTICAL_STATUS } from '../../data-contracts/constants';
import { type IdentityRows, identityRowsOf } from '../../data-contracts/identity-json';
import { npiBucketOf, staticKey } from '../../data-contracts/layout';
import type { LeieRelease } from '../../data-contracts/manifest';
import { type NpiRecordBytes, npiActiveLineOf, npiRecordText } from '../../data-contracts/npi-record';
import type { VerticalRow } from '../../data-contracts/rows';
import type { NpiRecord } from '../../data-contracts/types';
import { circleTest } from '../../platform/geo/distance';
import type { NearZips } from '../../platform/identity-index/reader';
import { setNewest, touch } from '../../platform/lru';
import type { SnapshotCache } from '../storage/snapshot-cache';
import { searchIdentity, searchIdentityNear } from './identity-search';
import type { SnapshotTables, VerticalLayer } from './snapshot-tables';
import type {
  ChangeRow,
  ChangesQuery,
  IdentityListQuery,
  IdentityNearQuery,
  IdentitySearchQuery,
  NearCircle,
  NearInput,
  NearPage,
  NearResolution,
  Page,
  ProviderData,
  SnapshotSource,
  StaticName,
  TaxonomyResolution,
  VerticalListQuery,
} from './types';

const STATIC_FILE_OF = {
  coverage: 'coverage.json',
  coveragePage: 'coverage.html',
  sampleJson: 'sample.json',
  sampleCsv: 'sample.csv',
} as const satisfies Record<StaticName, string>;

/**
 * Circles remembered per snapshot (by ZIP or point, and radius): a 100-mile circle in New York is about 1,800 ZIPs
 * (29 KB with its scratch layout), so at most about 15 MB, and a repeated place (the popular ZIPs) skips the cell walk.
 */
const CIRCLE_CACHE_ENTRIES = 512;

/** Filters remembered per layer: each a list of row indexes, at most 40 KB for the 10,000-row layer. */
const MATCH_CACHE_FILTERS = 256;

/**
 * Radius answers remembered per layer, counted in rows kept (12 bytes each: an index and a distance): 1,000,000 is
 * at most 12 MB, and each answer holds at most the layer's rows.
 */
const NEAR_CACHE_ROWS = 1_000_000;

/** The rows of a filter within a circle, nearest first (ties by entity_id), with their unrounded distances. */
export interface VerticalNearMatches {
  indexes: Uint32Array;
  miles: Float64Array;
}

/**
 * The indexes (in list order) of a layer's rows that match a query's filters, remembered per layer for the most
 * recent {@link MATCH_CACHE_FILTERS} filters, so that a repeated filter costs a lookup instead of a pass over every
 * row (the total needs all matches, whatever the page); and the same for a filter within a circle (ordered by
 * distance), for the most recent answers up to {@link NEAR_CACHE_ROWS} rows kept in all. Owned by the runtime, so
 * tests and measuring tools hold their own; a layer's entries go with the layer (a WeakMap), that is with its
 * snapshot.
 */
export class VerticalMatchCache {
  private byLayer = new WeakMap<VerticalLayer, Map<string, Uint32Array>>();
  private nearByLayer = new WeakMap<VerticalLayer, { answers: Map<string, VerticalNearMatches>; rows: number }>();

  /** Forgets every remembered filter and radius answer. */
  clear(): void {
    this.byLayer = new WeakMap();
    this.nearByLayer = new WeakMap();
  }

  /** The matches of `query` in `layer`: one pass over the presorted layer on a miss. */
  matches(layer: VerticalLayer, query: VerticalListQuery): Uint32Array {
    const key = filterKey(query);
    let cache = this.byLayer.get(layer);
    if (cache === undefined) {
      cache = new Map();
      this.byLayer.set(layer, cache);
    }
    const known = touch(cache, key);
    if (known !== undefined) return known;
    const city = query.city?.toLowerCase() ?? null;
    const found: number[] = [];
    for (let i = 0; i < layer.rows.length; i += 1) {
      if (layer.vertical[i] !== query.vertical) continue;
      if (query.state !== null && layer.state[i] !== query.state) continue;
      if (city !== null && layer.cityLower[i] !== city) continue;
      if (query.businessMode !== null && layer.businessMode[i] !== query.businessMode) continue;
      found.push(i);
    }
    const matches = Uint32Array.from(found);
    setNewest(cache, key, matches, MATCH_CACHE_FILTERS);
    return matches;
  }

  /**
   * The matches of `query` in `layer` within `circle`, nearest first (ties by entity_id): on a miss, one pass over
   * the filter's matches. Rows that are not placed (NaN coordinates) never match.
   */
  near(layer: VerticalLayer, query: VerticalListQuery, circle: NearCircle): VerticalNearMatches {
    const key = `${filterKey(query)}|${circle.latitude},${circle.longitude}|${circle.radiusMiles}`;
    let cache = this.nearByLayer.get(layer);
    if (cache === undefined) {
      cache = { answers: new Map(), rows: 0 };
      this.nearByLayer.set(layer, cache);
    }
    const known = touch(cache.answers, key);
    if (known !== undefined) return known;
    const answer = withinCircle(layer, this.matches(layer, query), circle);
    cache.answers.set(key, answer);
    cache.rows += answer.indexes.length;
    for (const [oldest, old] of cache.answers) {
      if (cache.rows <= NEAR_CACHE_ROWS || oldest === key) break;
      cache.answers.delete(oldest);
      cache.rows -= old.indexes.length;
    }
    return answer;
  }
}

/** The rows of a page of `indexes` (row indexes of `layer`, in answer order). */
function pageRows(layer: VerticalLayer, indexes: Uint32Array, page: { offset: number; limit: number }): VerticalRow[] {
  const rows: VerticalRow[] = [];
  const end = Math.min(indexes.length, page.offset + page.limit);
  for (let k = page.offset; k < end; k += 1) rows.push(layer.rows[indexes[k] as number] as VerticalRow);
  return rows;
}

/** A vertical filter as a cache key (the city case-insensitively). */
function filterKey(query: VerticalListQuery): string {
  return JSON.stringify([query.vertical, query.state, query.city?.toLowerCase() ?? null, query.businessMode]);
}

/** The rows of `matches` within `circle`, nearest first (ties by entity_id). */
function withinCircle(layer: VerticalLayer, matches: Uint32Array, circle: NearCircle): VerticalNearMatches {
  const found: { index: number; miles: number; id: string }[] = [];
  const within = circleTest(circle.latitude, circle.longitude, circle.radiusMiles);
  const points = { latitude: layer.latitude, longitude: layer.longitude, ...layer.vectors };
  for (const index of matches) {
    const miles = within(points, index);
    if (miles >= 0) found.push({ index, miles, id: String((layer.rows[index] as VerticalRow).entity_id) });
  }
  found.sort((a, b) => a.miles - b.miles || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { indexes: Uint32Array.from(found, (f) => f.index), miles: Float64Array.from(found, (f) => f.miles) };
}

/** {@link ProviderData} over one snapshot's tables. */
export class SnapshotProviderData implements ProviderData {
  readonly snapshotId: string;
  readonly asOf: string;
  readonly leieFiles: readonly LeieRelease[];

  constructor(
    private readonly tables: SnapshotTables,
    private readonly matchCache: VerticalMatchCache,
  ) {
    this.snapshotId = tables.files.id;
    this.asOf = tables.files.manifest.created_at;
    this.leieFiles = tables.files.manifest.leie_files ?? [];
  }

  async listVertical(query: VerticalListQuery): Promise<Page<VerticalRow>> {
    // Verticals that are not live are in the enum but return no data (data-contracts/constants.ts).
    if (VERTICAL_STATUS[query.vertical] !== 'live') return { total: 0, rows: [] };
    const layer = (await this.tables.vertical())[query.boundary];
    const matches = this.matchCache.matches(layer, query);
    return { total: matches.length, rows: pageRows(layer, matches, query) };
  }

  async resolveNear(near: NearInput): Promise<NearResolution> {
    const table = await this.tables.zipTable();
    if (table === null) return { kind: 'unavailable' };
    const key = `${near.zip ?? `${near.latitude},${near.longitude}`}|${near.radiusMiles}`;
    const known = touch(this.tables.circles, key);
    if (known !== undefined) return { kind: 'circle', circle: known };
    let latitude = near.latitude;
    let longitude = near.longitude;
    if (near.zip !== null) {
      const found = table.find(near.zip);
      if (found === null) return { kind: 'unknown_zip' };
      latitude = found.latitude;
      longitude = found.longitude;
    }
    if (latitude === null || longitude === null) throw new Error('near: neither a ZIP nor a point');
    const radiusMiles = near.radiusMiles;
    const centre = { latitude, longitude };
    let zips: NearZips | null = null;
    let codes: string[] | null = null;
    let states: string[] | null = null;
    const zipsOf = () => {
      zips ??= table.circle(centre.latitude, centre.longitude, radiusMiles);
      return zips;
    };
    const circle: NearCircle = {
      latitude,
      longitude,
      zip: near.zip,
      radiusMiles,
      zips: zipsOf,
      zipCodes: () => {
        codes ??= Array.from(zipsOf().ranks, (rank) => table.zipAt(rank));
        return codes;
      },
      states: () => {
        states ??= [...new Set(Array.from(zipsOf().ranks, (rank) => table.stateAt(rank)))].sort();
        return states;
      },
    };
    setNewest(this.tables.circles, key, circle, CIRCLE_CACHE_ENTRIES);
    return { kind: 'circle', circle };
  }

  async listVerticalNear(query: VerticalListQuery, circle: NearCircle): Promise<NearPage<VerticalRow[]>> {
    if (VERTICAL_STATUS[query.vertical] !== 'live') return { total: 0, rows: [], miles: new Float64Array(0) };
    const layer = (await this.tables.vertical())[query.boundary];
    const { indexes, miles } = this.matchCache.near(layer, query, circle);
    const rows = pageRows(layer, indexes, query);
    return { total: indexes.length, rows, miles: miles.slice(query.offset, query.offset + rows.length) };
  }

  async listIdentityNear(query: IdentityNearQuery): Promise<NearPage<IdentityRows> | null> {
    await this.tables.ensureTaxonomy();
    const empty = { total: 0, rows: identityRowsOf([]), miles: new Float64Array(0) };
    const resolution = query.taxonomy === null ? null : this.tables.resolveTaxonomy(query.taxonomy);
    if (resolution?.kind === 'unknown') return empty;
    if (query.name !== null) {
      const { files, search, searchKeys } = this.tables;
      return searchIdentityNear(query, resolution, (state, q) => {
        const key = searchKeys.get(state);
        return key === undefined
          ? Promise.resolve(null)
          : search.search(key, (cache) => files.openIndex(key, cache), q);
      });
    }
    if (resolution === null) throw new Error('identity radius query: neither a taxonomy nor a name');
    const partition = this.tables.identityPartitions.get(resolution.classificationKey);
    if (partition === undefined) return empty;
    const { files } = this.tables;
    return this.tables.identity.use(
      partition.key,
      (cache) => files.openIndex(partition.key, cache),
      (reader) =>
        reader.hasRadiusLists
          ? reader.nearQuery({
              code: resolution.kind === 'code' ? resolution.code : null,
              zips: query.circle.zips(),
              entityType: query.entityType,
              limit: query.limit,
              offset: query.offset,
            })
          : null,
    );
  }

  async findVertical(id: string, boundary: PublishBoundary): Promise<VerticalRow | null> {
    const layer = (await this.tables.vertical())[boundary];
    // entity_id first: a slug equal to another record's entity_id never shadows that record.
    const row = layer.byEntityId.get(id) ?? layer.bySlug.get(id) ?? null;
    if (row === null || !LIVE_VERTICALS.includes(row.vertical as (typeof LIVE_VERTICALS)[number])) return null;
    return row;
  }

  resolveTaxonomy(taxonomy: string): TaxonomyResolution {
    return this.tables.resolveTaxonomy(taxonomy);
  }

  async listIdentity(query: IdentityListQuery): Promise<{ total: number; rows: IdentityRows }> {
    await this.tables.ensureTaxonomy();
    const resolution = this.tables.resolveTaxonomy(query.taxonomy);
    if (resolution.kind === 'unknown') return { total: 0, rows: identityRowsOf([]) };
    const partition = this.tables.identityPartitions.get(resolution.classificationKey);
    if (partition === undefined) return { total: 0, rows: identityRowsOf([]) };
    const { files } = this.tables;
    return this.tables.identity.use(
      partition.key,
      (cache) => files.openIndex(partition.key, cache),
      (reader) =>
        reader.query({
          code: resolution.kind === 'code' ? resolution.code : null,
          state: query.state,
          city: query.city,
          limit: query.limit,
          offset: query.offset,
        }),
    );
  }

  async searchIdentity(query: IdentitySearchQuery): Promise<{ total: number; rows: IdentityRows }> {
    await this.tables.ensureTaxonomy();
    const { files, search, searchKeys } = this.tables;
    return searchIdentity(query, {
      resolveTaxonomy: (taxonomy) => this.tables.resolveTaxonomy(taxonomy),
      findActive: async (npis) =>
        (await this.findNpis(npis)).map((record) =>
          record?.status === 'active' ? npiActiveLineOf(JSON.parse(npiRecordText(record)) as NpiRecord) : null,
        ),
      searchState: async (state, q) => {
        const key = searchKeys.get(state);
        return key === undefined ? null : search.search(key, (cache) => files.openIndex(key, cache), q);
      },
    });
  }

  async findNpis(npis: readonly string[]): Promise<(NpiRecordBytes | null)[]> {
    const digits = this.tables.npiBucketDigits;
    const found: (NpiRecordBytes | null)[] = new Array(npis.length).fill(null);
    if (digits === null) return found;
    const { files, npi: buckets, npiBucketKeys } = this.tables;
    const loads: Promise<void>[] = [];
    for (const [i, npi] of npis.entries()) {
      const key = npiBucketKeys.get(npiBucketOf(npi, digits));
      // No bucket object: no NPI of that prefix in the snapshot.
      if (key === undefined) continue;
      // A bucket read in place (layout 4) or in the arena answers at once when its bytes are here; the others are
      // fetched side by side.
      // A local folder's buckets go to the arena (one open file for all, placed once per process): a process
      // cannot keep thousands of bucket files open, and opening one per lookup costs more than one copy.
      const inPlace = files.readsInPlace(key) && !files.isLocal;
      const held = inPlace ? buckets.inPlace.heldRecord(key, npi) : buckets.placedRecord(key, npi);
      if (held !== undefined) found[i] = held;
      else
        loads.push(
          (inPlace
            ? buckets.inPlace.find(key, (cache) => files.openIndex(key, cache), npi)
            : buckets.find(key, () => files.localPath(key), npi)
          ).then((record) => {
            found[i] = record;
          }),
        );
    }
    if (loads.length > 0) await Promise.all(loads);
    return found;
  }

  changesSpan(): ChangesSpan {
    return this.tables.changes.span();
  }

  listChanges(query: ChangesQuery): Promise<Page<ChangeRow>> {
    return this.tables.changes.list(query);
  }

  hasStatic(name: StaticName): boolean {
    return this.tables.files.has(staticKey(this.snapshotId, STATIC_FILE_OF[name]));
  }

  readStatic(name: StaticName): Promise<Buffer> {
    return this.tables.files.readSmall(staticKey(this.snapshotId, STATIC_FILE_OF[name]));
  }
}

/**
 * The core's {@link SnapshotSource} over a {@link SnapshotCache} of {@link SnapshotTables}: each unit of work
 * pins one snapshot and releases it afterwards. `matches` is the runtime's filter cache (default: a new one).
 */
export function createSnapshotSource(
  cache: SnapshotCache<SnapshotTables>,
  matches: VerticalMatchCache = new VerticalMatchCache(),
): SnapshotSource {
  return {
    async withSnapshot(work) {
      const lease = await cache.acquire();
      try {
        return await work(new SnapshotProviderData(lease.state, matches));
      } finally {
        lease.release();
      }
    },
  };
}
