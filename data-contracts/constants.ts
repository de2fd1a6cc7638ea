/**
 * The contract's enumerated values, as `as const` tables with derived union types.
 * Everything else in the repo (ETL, API, OpenAPI document, infra) takes its enums from here.
 */

/** API version, as carried in the base path and the OpenAPI `info.version`. */
export const API_VERSION = '1.0.0' as const;
export const API_BASE_PATH = '/api/v1' as const;

export const VERTICALS = ['glp1', 'pet_health', 'medspa', 'ivf', 'dental', 'senior'] as const;
export type Vertical = (typeof VERTICALS)[number];

/** Availability of each vertical. Only `live` verticals return data. `ivf` is in the enum, status not shown. */
export const VERTICAL_STATUS = {
  glp1: 'live',
  pet_health: 'loading',
  medspa: 'loading',
  dental: 'queued',
  senior: 'queued',
  ivf: 'unannounced',
} as const satisfies Record<Vertical, string>;
export const LIVE_VERTICALS = VERTICALS.filter((v) => VERTICAL_STATUS[v] === 'live');

export const BUSINESS_MODES = ['online', 'physical', 'both'] as const;
export type BusinessMode = (typeof BUSINESS_MODES)[number];

export const SIGNAL_STATUSES = ['verified', 'clear', 'flagged', 'reported', 'unverified', 'not_screened'] as const;
export type SignalStatus = (typeof SIGNAL_STATUSES)[number];

/** The paid signals of a vertical record. `certification` is the neutral name for the certifying-body signal. */
export const SIGNALS = ['certification', 'license', 'fda', 'price'] as const;
export type SignalName = (typeof SIGNALS)[number];

export const PUBLISH_TIERS = ['verified', 'internal_only'] as const;
export type PublishTier = (typeof PUBLISH_TIERS)[number];

export const PUBLISH_BOUNDARIES = ['verified', 'tracked'] as const;
export type PublishBoundary = (typeof PUBLISH_BOUNDARIES)[number];

export const TIERS = ['free', 'paid'] as const;
export type Tier = (typeof TIERS)[number];

export const PLANS = ['free', 'builder', 'developer', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/**
 * Per-plan access (docs/api-guide.md, plans).
 * - `monthlyQuota`: calls per UTC month; `null` means unmetered (enterprise). The free quota is counted and enforced.
 * - `reportsUsage`: the metered plans (builder, developer) carry `X-RateLimit-*` headers and `usage` on success.
 *   Every 429, whatever the plan, carries the headers and `Retry-After`.
 */
export const PLAN_RULES = {
  free: { tier: 'free', monthlyQuota: 500, reportsUsage: false, verticalBound: false },
  builder: { tier: 'paid', monthlyQuota: 5_000, reportsUsage: true, verticalBound: true },
  developer: { tier: 'paid', monthlyQuota: 25_000, reportsUsage: true, verticalBound: false },
  enterprise: { tier: 'paid', monthlyQuota: null, reportsUsage: false, verticalBound: false },
} as const satisfies Record<
  Plan,
  { tier: Tier; monthlyQuota: number | null; reportsUsage: boolean; verticalBound: boolean }
>;

export const KEY_STATUSES = ['active', 'revoked', 'rotated'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

/** Where the `unlock` text of a LockedField and the `upgrade` text of errors send people. */
export const PRICING_URL = 'https://providerfacts.example.com/pricing' as const;
export const SIGNUP_URL = 'https://providerfacts.example.com/signup' as const;

/** Stable error codes and their HTTP status. The OpenAPI `Error.code` enum equals these keys. */
export const ERROR_STATUS = {
  invalid_vertical: 400,
  invalid_business_mode: 400,
  invalid_limit: 400,
  invalid_offset: 400,
  invalid_parameter: 400,
  invalid_npi: 400,
  /** `near` is neither a 5-digit ZIP code nor `lat,lon` within the US and its territories. */
  invalid_near: 400,
  /** `near` is a 5-digit ZIP code the snapshot's ZIP table has no centroid for. */
  unknown_zip: 400,
  /** `radius_miles` is not a number from 1 to 100. */
  invalid_radius: 400,
  /** `near` with `state`, `city`, `postal_code` or `npi`, or without a taxonomy or name on the identity path. */
  near_conflict: 400,
  /** `GET /changes`: `since` is older than the changes the current snapshot keeps (the hint names the oldest). */
  since_too_old: 400,
  /** Refused by the HTTP server before routing: a request it cannot parse (bad method, header bytes, framing). */
  malformed_request: 400,
  key_required: 401,
  invalid_key: 401,
  vertical_not_permitted: 403,
  /** A call to the API's origin that did not come through the CDN, where the deployment requires it (any route). */
  cdn_required: 403,
  not_found: 404,
  quota_exceeded: 429,
  /** Refused at the edge by the web ACL: no well-formed key, or a volume from one address no plan allows (any route). */
  rate_limited: 429,
  /** Refused by the HTTP server before routing: the request line and headers are over its limit (16 KB). */
  request_too_large: 431,
  internal_error: 500,
  /** The keys table cannot be read and the key has no recent answer in the process: retry (`Retry-After`). */
  service_unavailable: 503,
  /** `near` on a snapshot built before radius search (no ZIP table or radius lists): retry after the next build. */
  radius_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];
/** The codes the HTTP server answers before a route sees the request (no operation produces them). */
export const TRANSPORT_ERROR_CODES = ['malformed_request', 'request_too_large'] as const satisfies readonly ErrorCode[];

/**
 * The codes the edge answers whatever the route: the web ACL's block (CloudFront) and the origin check (the function,
 * where the deployment sets a secret). Every operation documents them; the local server never produces them.
 */
export const EDGE_ERROR_CODES = ['cdn_required', 'rate_limited'] as const satisfies readonly ErrorCode[];

/** NPIs per batch lookup (`GET /npi?numbers=`). */
export const NPI_BATCH_MAX = 100 as const;

export const PAGE_LIMIT = { min: 1, max: 1000, default: 50 } as const;
export const SAMPLE_SIZE = 50 as const;

/** OIG no-match note: absence of an NPI match is never a clearance. */
export const OIG_NO_MATCH_NOTE =
  'No match by NPI in the OIG LEIE. This is not a clearance: the exclusion list carries an NPI for only about 10.5% of its records.' as const;
export const OIG_SOURCE = 'oig_leie' as const;

/** The note of an `oig_removed` change (`GET /changes`): a removal is never a clearance. */
export const OIG_REMOVED_NOTE =
  'No longer matched by NPI in the OIG LEIE (reinstated, or no longer listed under this NPI). This is not a clearance: the exclusion list carries an NPI for only about 10.5% of its records, so an exclusion may remain under a name without an NPI.' as const;
/** The note of an `oig_excluded` change: the match is by NPI only. */
export const OIG_EXCLUDED_NOTE =
  'Newly matched by NPI in the OIG LEIE. Matching is by NPI only: exclusions listed without an NPI (about 89.5% of the list) never appear as oig_excluded; the possible matches by name appear as oig_candidate_added.' as const;
/** The note of an `oig_candidate_added` / `oig_candidate_removed` change: a candidate is never a finding. */
export const OIG_CANDIDATE_NOTE =
  'A possible match by name and place with an LEIE exclusion that carries no NPI: not a finding, and its removal is not a clearance. Confirm or dismiss it with the OIG online search (https://exclusions.oig.hhs.gov).' as const;
/** The members of a possible match's `leie` object (OigCandidateLeie), in wire order. */
export const OIG_CANDIDATE_LEIE_MEMBERS = [
  'entity',
  'last_name',
  'first_name',
  'middle_name',
  'business_name',
  'general',
  'specialty',
  'city',
  'state',
  'zip',
  'npi',
  'exclusion_type',
  'exclusion_date',
] as const;
/**
 * The `leie` members that identify a possible match (its key, in key order): every member but the city and ZIP, so
 * that a listing's later address never makes a new candidate.
 */
export const OIG_CANDIDATE_KEY_MEMBERS = OIG_CANDIDATE_LEIE_MEMBERS.filter((m) => m !== 'city' && m !== 'zip');
export const IDENTITY_SOURCE = 'NPPES' as const;

/** NPPES entity types as the identity search's `entity_type` names them (Entity Type Code 1 and 2). */
export const ENTITY_TYPES = ['individual', 'organization'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/**
 * CORS of every answer, the API's and the CDN's (lambdas/http/cors.ts, infra/cdn-functions.ts): any origin, no
 * credentials; a preflight is answered with these methods and request headers; scripts may read these headers.
 */
export const CORS = {
  allowMethods: 'GET, HEAD, OPTIONS',
  allowHeaders: 'Authorization, X-Api-Key, If-None-Match, X-Request-Id',
  exposeHeaders:
    'ETag, X-Request-Id, X-Snapshot-Id, X-Data-As-Of, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, ' +
    'X-RateLimit-Reset, RateLimit, RateLimit-Policy, Retry-After, WWW-Authenticate, Content-Disposition',
  /** Seconds a browser may keep a preflight's answer (browsers cap it: Chromium at 2 hours). */
  maxAgeSeconds: 86400,
} as const;
