/**
 * Use case: the provider list (`GET /providers`), on the vertical path or the identity path.
 *
 * Order: authenticate (401), a quota known to be used up (429), validate (400), authorise (403), resolve a `near`
 * against the snapshot's ZIP table (400 `unknown_zip`, 503 `radius_unavailable`), query, check the offset against
 * the total (400), meter (429), answer. Only a call that will be answered with 200 is counted. An NPI
 * roster (`npi=`) counts one call per NPI its page can hold ({@link rosterPageCost}), charged before the query and
 * given back if it fails.
 */
import { type Plan, type PublishBoundary, type Tier, VERTICAL_STATUS } from '../../data-contracts/constants';
import type { IdentityRows } from '../../data-contracts/identity-json';
import type { Filters, Pagination, Provider, Usage } from '../../data-contracts/types';
import { carriesPublishTier, resolveBoundary } from '../masking/publication-boundary';
import type { NearCircle, ProviderData } from '../query/types';
import { ApiError } from './api-error';
import { admit, authoriseVertical, type Credentials } from './authenticate';
import { chargeCall, chargeUpFront } from './charge-call';
import { freeTierNotice, notLiveNotice } from './notices';
import {
  assertOffsetWithin,
  type Format,
  type ListRequest,
  type NearRequest,
  parseListRequest,
  type RawQuery,
} from './params';
import type { CoreDeps, RateLimitState } from './ports';

/** The input of {@link listProviders}. */
export interface ListProvidersInput {
  credentials: Credentials;
  query: RawQuery;
}

interface ListCommon {
  tier: Tier;
  plan: Plan;
  format: Format;
  usage?: Usage;
  notice?: string;
  pagination: Pagination;
  filters: Filters;
  rateLimit?: RateLimitState;
  /** A radius query's resolved circle (the answer's `near`) and each row's unrounded distance, in page order. */
  near?: { circle: NearEcho; miles: Float64Array };
}

/** The circle a radius answer echoes. */
export interface NearEcho {
  latitude: number;
  longitude: number;
  zip: string | null;
  radius_miles: number;
}

/**
 * A page ready for the wire (JSON envelope or CSV rows). Vertical rows are already masked for the caller's tier.
 * Identity rows are the same for every tier (the identity layer carries no paid value: their paid fields are always
 * locked by the contract's mapping, data-contracts/rows.ts), so they go to the wire as rows.
 */
export type ListProvidersResult =
  | (ListCommon & { path: 'vertical'; publishBoundary: PublishBoundary; vertical: string; data: Provider[] })
  | (ListCommon & { path: 'identity'; taxonomy: string | null; rows: IdentityRows });

/**
 * @example
 * const page = await listProviders({ credentials: { authorization: 'Bearer pf_…' }, query: { vertical: 'glp1' } }, deps);
 */
export async function listProviders(input: ListProvidersInput, deps: CoreDeps): Promise<ListProvidersResult> {
  const principal = await admit(input.credentials, deps);
  const request = parseListRequest(input.query);
  if (request.path === 'vertical') authoriseVertical(principal, request.vertical);

  return deps.snapshots.withSnapshot(async (data) => {
    const circle = request.near === null ? null : await resolveCircle(data, request.near);
    if (request.path === 'vertical') {
      const boundary = resolveBoundary({
        tier: principal.tier,
        format: request.format,
        includeTracked: request.includeTracked,
      });
      const verticalQuery = {
        vertical: request.vertical,
        state: request.state,
        city: request.city,
        businessMode: request.businessMode,
        boundary,
        limit: request.limit,
        offset: request.offset,
      };
      const page =
        circle === null
          ? { ...(await data.listVertical(verticalQuery)), miles: null }
          : await data.listVerticalNear(verticalQuery, circle);
      assertOffsetWithin(request.offset, page.total);
      const charge = await chargeCall(principal, deps);
      const withPublishTier = carriesPublishTier(boundary);
      const rows = page.rows.map((row) => deps.views.present(row, principal.tier, withPublishTier));
      const notice = joinNotices(
        VERTICAL_STATUS[request.vertical] === 'live' ? undefined : notLiveNotice(request.vertical),
        principal.tier === 'free' ? freeTierNotice() : undefined,
      );
      return {
        path: 'vertical',
        vertical: request.vertical,
        tier: principal.tier,
        plan: principal.plan,
        format: request.format,
        publishBoundary: boundary,
        ...charge,
        ...(notice ? { notice } : {}),
        pagination: pagination(request, page.total, rows.length),
        filters: filtersOf(request),
        ...nearOf(circle, page.miles),
        data: rows,
      };
    }
    const { search, taxonomy } = request;
    const query = async (): Promise<{ total: number; rows: IdentityRows; miles: Float64Array | null }> => {
      if (circle !== null) {
        const page = await data.listIdentityNear({
          taxonomy,
          name: search?.name ?? null,
          entityType: search?.entityType ?? null,
          circle,
          limit: request.limit,
          offset: request.offset,
        });
        if (page === null) throw radiusUnavailable();
        assertOffsetWithin(request.offset, page.total);
        return page;
      }
      const page =
        search === null && taxonomy !== null
          ? await data.listIdentity({
              taxonomy,
              state: request.state,
              city: request.city,
              limit: request.limit,
              offset: request.offset,
            })
          : await data.searchIdentity({
              npis: search?.npis ?? null,
              state: request.state,
              name: search?.name ?? null,
              postalCode: search?.postalCode ?? null,
              entityType: search?.entityType ?? null,
              taxonomy,
              city: request.city,
              limit: request.limit,
              offset: request.offset,
            });
      assertOffsetWithin(request.offset, page.total);
      return { ...page, miles: null };
    };
    // An NPI roster costs one call per NPI asked, as the same NPIs through /npi?numbers= do, however it is paged:
    // known before the query, so charged first and given back if the query fails (an offset past the end included).
    const npis = search?.npis ?? null;
    const { charge, value: page } =
      npis === null
        ? await query().then(async (value) => ({ charge: await chargeCall(principal, deps), value }))
        : await chargeUpFront(principal, deps, rosterPageCost(npis.length, request.offset, request.limit), query);
    const notice = principal.tier === 'free' ? freeTierNotice() : undefined;
    return {
      path: 'identity',
      taxonomy: request.taxonomy,
      tier: principal.tier,
      plan: principal.plan,
      format: request.format,
      ...charge,
      ...(notice ? { notice } : {}),
      pagination: pagination(request, page.total, page.rows.length),
      filters: filtersOf(request),
      ...nearOf(circle, page.miles),
      rows: page.rows,
    };
  });
}

/** 503 `radius_unavailable`: the snapshot was built before radius search. */
function radiusUnavailable(): ApiError {
  return new ApiError(
    'radius_unavailable',
    'Radius search is not available on the current snapshot (built before radius search).',
    { hint: 'Retry after the next hourly build, or filter by state, city or postal_code.', retryAfterSeconds: 3600 },
  );
}

/** The circle of a `near`: 400 `unknown_zip` for a ZIP without a centroid, 503 without a ZIP table. */
async function resolveCircle(data: ProviderData, near: NearRequest): Promise<NearCircle> {
  const resolved = await data.resolveNear(near);
  if (resolved.kind === 'unavailable') throw radiusUnavailable();
  if (resolved.kind === 'unknown_zip') {
    throw new ApiError(
      'unknown_zip',
      `ZIP code ${near.zip} has no centroid in the ZIP table this snapshot was built with.`,
      {
        hint: 'PO-box and single-building ZIPs have none: give a nearby ZIP, or near=lat,lon.',
      },
    );
  }
  return resolved.circle;
}

/** The `near` part of a result: the circle and the rows' distances (none without a circle). */
function nearOf(circle: NearCircle | null, miles: Float64Array | null): Pick<ListCommon, 'near'> {
  if (circle === null || miles === null) return {};
  return {
    near: {
      circle: {
        latitude: circle.latitude,
        longitude: circle.longitude,
        zip: circle.zip,
        radius_miles: circle.radiusMiles,
      },
      miles,
    },
  };
}

/**
 * The calls a page of an NPI roster counts: one per NPI the page can hold, `min(limit, asked - offset)`, at least 1.
 * Walking a roster of n NPIs page by page costs n calls whatever the `limit`, as `/npi?numbers=` with the same NPIs.
 * @example rosterPageCost(100, 0, 50) + rosterPageCost(100, 50, 50) === 100
 */
export function rosterPageCost(asked: number, offset: number, limit: number): number {
  return Math.max(1, Math.min(limit, asked - offset));
}

function pagination(request: ListRequest, total: number, returned: number): Pagination {
  return { total, limit: request.limit, offset: request.offset, returned };
}

/** The applied filters; the identity search filters appear only when the request used them. */
function filtersOf(request: ListRequest): Filters {
  const filters: Filters = {
    vertical: request.path === 'vertical' ? request.vertical : null,
    taxonomy: request.path === 'identity' ? request.taxonomy : null,
    state: request.state,
    city: request.city,
    business_mode: request.path === 'vertical' ? request.businessMode : null,
  };
  const search = request.path === 'identity' ? request.search : null;
  if (search === null) return filters;
  return {
    ...filters,
    name: search.name,
    postal_code: search.postalCode,
    entity_type: search.entityType,
    npi: search.npis,
  };
}

function joinNotices(...notices: (string | undefined)[]): string | undefined {
  const present = notices.filter((n): n is string => n !== undefined);
  return present.length === 0 ? undefined : present.join(' ');
}
