/**
 * Parameter parsing: the raw query strings of a request to typed, validated input, against the bounds and patterns
 * the OpenAPI document declares (data-contracts/parameter-rules.ts). Pure functions with no HTTP types: the
 * transport passes the first value of each query parameter.
 *
 * Choices the OpenAPI document leaves open (docs/api-guide.md):
 * - A parameter given with an empty value (`state=`) is treated as absent.
 * - `limit` and `offset` are plain decimal integers: `1.5`, `abc`, `1e3`, `+5`, ` 5` and leading zeros
 *   (`01`) are refused.
 * - `taxonomy` is ignored when `vertical` is present; `business_mode` and `include` are still
 *   validated on the identity path, and ignored there.
 */
import {
  BUSINESS_MODES,
  type BusinessMode,
  ENTITY_TYPES,
  type EntityType,
  VERTICALS,
  type Vertical,
} from '../../data-contracts/constants';
import { PARAMETER_RULES, US_AREAS } from '../../data-contracts/parameter-rules';
import { ApiError } from './api-error';
import { parseNpiRoster } from './npi-params';

/** First value of each query parameter; absent parameters are undefined. */
export type RawQuery = Readonly<Record<string, string | undefined>>;

export type Format = 'json' | 'csv';

/** A validated list request. */
export type ListRequest =
  | {
      path: 'vertical';
      vertical: Vertical;
      state: string | null;
      city: string | null;
      businessMode: BusinessMode | null;
      limit: number;
      offset: number;
      format: Format;
      includeTracked: boolean;
      near: NearRequest | null;
    }
  | {
      path: 'identity';
      /** A code or classification name; null only in a search. */
      taxonomy: string | null;
      /** The roster, name, postal-code and entity-type filters; null for a taxonomy list. */
      search: IdentitySearch | null;
      state: string | null;
      city: string | null;
      limit: number;
      offset: number;
      format: Format;
      includeTracked: boolean;
      near: NearRequest | null;
    };

/** A radius filter: a ZIP code (its centroid, from the snapshot's ZIP table) or a point, and a radius. */
export interface NearRequest {
  zip: string | null;
  /** The point when `near` was `lat,lon` (null for a ZIP: resolved against the snapshot). */
  latitude: number | null;
  longitude: number | null;
  radiusMiles: number;
}

/** The identity search filters (lambdas/query/identity-search.ts): a roster, or a name or postal code in a state. */
export interface IdentitySearch {
  npis: string[] | null;
  name: string | null;
  postalCode: string | null;
  entityType: EntityType | null;
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;
const POSTAL = new RegExp(PARAMETER_RULES.postal_code.pattern);
const STATE = new RegExp(PARAMETER_RULES.state.pattern);
const NAME = PARAMETER_RULES.name;
const MAX_TAXONOMY = PARAMETER_RULES.taxonomy.maxLength;
const MAX_CITY = PARAMETER_RULES.city.maxLength;
const LIMIT = PARAMETER_RULES.limit;
const RADIUS = PARAMETER_RULES.radius_miles;
const NEAR_ZIP = /^[0-9]{5}$/;
const NEAR_POINT = /^(-?[0-9]{1,3}(?:\.[0-9]+)?),(-?[0-9]{1,3}(?:\.[0-9]+)?)$/;
const DECIMAL_NUMBER = /^[0-9]{1,3}(\.[0-9]+)?$/;

function value(query: RawQuery, name: string): string | undefined {
  const raw = query[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

/** `limit`: an integer within the rule's bounds, default its default. */
export function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return LIMIT.default;
  const n = DECIMAL.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < LIMIT.minimum || n > LIMIT.maximum) {
    throw new ApiError('invalid_limit', `limit must be an integer from ${LIMIT.minimum} to ${LIMIT.maximum}.`, {
      hint: `Omit it for the default of ${LIMIT.default}.`,
    });
  }
  return n;
}

/** `offset`: an integer of 0 or more, default 0. Whether it lies beyond the result is checked after the query. */
export function parseOffset(raw: string | undefined): number {
  if (raw === undefined) return PARAMETER_RULES.offset.default;
  const n = DECIMAL.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < PARAMETER_RULES.offset.minimum) {
    throw new ApiError('invalid_offset', 'offset must be an integer of 0 or more.');
  }
  return n;
}

/** 400 `invalid_offset` for an offset beyond a result of `total` rows; `offset = total` (an empty last page) is fine. */
export function assertOffsetWithin(offset: number, total: number): void {
  if (offset > total) {
    throw new ApiError('invalid_offset', `offset ${offset} is beyond the result set of ${total} rows.`, {
      hint: `Use an offset from 0 to ${total}.`,
    });
  }
}

/** `format`: json (default) or csv. */
export function parseFormat(raw: string | undefined): Format {
  if (raw === undefined || raw === 'json') return 'json';
  if (raw === 'csv') return 'csv';
  throw new ApiError('invalid_parameter', 'format must be json or csv.');
}

/** `include`: only `tracked` exists. */
export function parseInclude(raw: string | undefined): boolean {
  if (raw === undefined) return false;
  if (raw === 'tracked') return true;
  throw new ApiError('invalid_parameter', 'include accepts only the value tracked.');
}

/** `state`: two letters, any case; returned upper-case. */
export function parseState(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  if (!STATE.test(raw)) throw new ApiError('invalid_parameter', 'state must be a two-letter state code, e.g. TX.');
  return raw.toUpperCase();
}

/** `city`: any text up to the rule's length, matched case-insensitively; surrounding spaces are dropped. */
export function parseCity(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const city = raw.trim();
  if (city === '') return null;
  if (city.length > MAX_CITY) throw new ApiError('invalid_parameter', `city must be at most ${MAX_CITY} characters.`);
  return city;
}

export function parseVertical(raw: string | undefined): Vertical | null {
  if (raw === undefined) return null;
  if (!(VERTICALS as readonly string[]).includes(raw)) {
    throw new ApiError('invalid_vertical', `vertical must be one of ${VERTICALS.join(', ')}.`);
  }
  return raw as Vertical;
}

export function parseBusinessMode(raw: string | undefined): BusinessMode | null {
  if (raw === undefined) return null;
  if (!(BUSINESS_MODES as readonly string[]).includes(raw)) {
    throw new ApiError('invalid_business_mode', `business_mode must be one of ${BUSINESS_MODES.join(', ')}.`);
  }
  return raw as BusinessMode;
}

/** Whether a point lies in one of the US areas (data-contracts/parameter-rules.ts). */
function inUsArea(latitude: number, longitude: number): boolean {
  return US_AREAS.some(([s, w, n, e]) => latitude >= s && latitude <= n && longitude >= w && longitude <= e);
}

/**
 * `near` and `radius_miles`: null when `near` is absent (400 `invalid_radius` for a `radius_miles` alone). Spaces
 * around the value and after the comma are dropped.
 */
export function parseNear(rawNear: string | undefined, rawRadius: string | undefined): NearRequest | null {
  let radiusMiles: number = RADIUS.default;
  if (rawRadius !== undefined) {
    const n = DECIMAL_NUMBER.test(rawRadius.trim()) ? Number(rawRadius.trim()) : Number.NaN;
    if (!(n >= RADIUS.minimum && n <= RADIUS.maximum)) {
      throw new ApiError(
        'invalid_radius',
        `radius_miles must be a number from ${RADIUS.minimum} to ${RADIUS.maximum}.`,
        { hint: `Omit it for the default of ${RADIUS.default} miles.` },
      );
    }
    radiusMiles = n;
  }
  if (rawNear === undefined) {
    if (rawRadius !== undefined) {
      throw new ApiError('invalid_radius', 'radius_miles needs near.', { hint: 'e.g. near=10001&radius_miles=10' });
    }
    return null;
  }
  const near = rawNear.trim().replace(/,\s+/, ',');
  if (NEAR_ZIP.test(near)) return { zip: near, latitude: null, longitude: null, radiusMiles };
  const point = NEAR_POINT.exec(near);
  const latitude = point ? Number(point[1]) : Number.NaN;
  const longitude = point ? Number(point[2]) : Number.NaN;
  if (!(Number.isFinite(latitude) && Number.isFinite(longitude) && inUsArea(latitude, longitude))) {
    throw new ApiError(
      'invalid_near',
      'near must be a 5-digit ZIP code or lat,lon in decimal degrees within the US and its territories.',
      { hint: 'e.g. near=10001 or near=40.7506,-73.9973' },
    );
  }
  return { zip: null, latitude, longitude, radiusMiles };
}

/**
 * What `near` does not combine with: the place filters (the circle replaces them) and a roster; on the identity
 * path it needs a taxonomy or a name.
 */
function checkNearShape(
  place: { state: string | null; city: string | null; search: IdentitySearch | null },
  identity: { taxonomy: string | null } | null,
): void {
  const conflicting = [
    place.state !== null ? 'state' : null,
    place.city !== null ? 'city' : null,
    place.search?.postalCode != null ? 'postal_code' : null,
    place.search?.npis != null ? 'npi' : null,
  ].filter((name): name is string => name !== null);
  if (conflicting.length > 0) {
    throw new ApiError('near_conflict', `near does not combine with ${conflicting.join(', ')}.`, {
      hint: 'A circle replaces the place filters: e.g. taxonomy=363L00000X&near=10001&radius_miles=10',
    });
  }
  if (identity !== null && identity.taxonomy === null && place.search?.name == null) {
    throw new ApiError('near_conflict', 'near on the identity layer needs taxonomy or name.', {
      hint: 'e.g. taxonomy=363L00000X&near=10001, or name=smith&near=10001',
    });
  }
}

/** The identity search filters of a query, or null when it has none. 400 on a malformed one. */
export function parseIdentitySearch(query: RawQuery): IdentitySearch | null {
  const rawName = value(query, 'name');
  const rawPostal = value(query, 'postal_code');
  const rawEntity = value(query, 'entity_type');
  const rawNpi = value(query, 'npi');
  if (rawName === undefined && rawPostal === undefined && rawEntity === undefined && rawNpi === undefined) return null;
  let name: string | null = null;
  if (rawName !== undefined) {
    name = rawName.trim().replace(/\s+/g, ' ');
    if (name.length < NAME.minLength || name.length > NAME.maxLength) {
      throw new ApiError(
        'invalid_parameter',
        `name must be ${NAME.minLength} to ${NAME.maxLength} characters: a prefix of the organisation name or the individual's last name.`,
        { hint: 'e.g. name=smi&state=TX' },
      );
    }
  }
  if (rawPostal !== undefined && !POSTAL.test(rawPostal.trim())) {
    throw new ApiError('invalid_parameter', 'postal_code must be a 5-digit ZIP code.', {
      hint: 'Give the first 5 digits of a ZIP+4, e.g. postal_code=77030.',
    });
  }
  if (rawEntity !== undefined && !(ENTITY_TYPES as readonly string[]).includes(rawEntity)) {
    throw new ApiError('invalid_parameter', `entity_type must be one of ${ENTITY_TYPES.join(', ')}.`);
  }
  let npis: string[] | null = null;
  if (rawNpi !== undefined) {
    npis = parseNpiRoster(rawNpi, 'npi');
  }
  return {
    npis,
    name,
    postalCode: rawPostal === undefined ? null : rawPostal.trim(),
    entityType: (rawEntity as EntityType | undefined) ?? null,
  };
}

/**
 * Which identity searches are answered (each must stay fast on the national registry: docs/api-guide.md):
 * a roster (`npi`) with any other filter; a `name` prefix or a `postal_code` within one `state`; `entity_type` only
 * to narrow one of those. Throws 400 `invalid_parameter` with a hint for the others.
 */
function checkSearchShape(search: IdentitySearch, state: string | null, near: NearRequest | null): void {
  if (search.npis !== null) return;
  // With near, the circle bounds the search (checkNearShape): entity_type narrows a taxonomy, a name needs no state.
  if (near !== null) return;
  if (search.name === null && search.postalCode === null) {
    throw new ApiError('invalid_parameter', 'entity_type narrows a name, postal_code or npi search.', {
      hint: 'e.g. name=smith&state=TX&entity_type=individual, or taxonomy=363L00000X&state=TX for a list',
    });
  }
  if (state === null) {
    const what = search.name !== null ? 'name' : 'postal_code';
    throw new ApiError('invalid_parameter', `A ${what} search runs within one state: add state.`, {
      hint:
        what === 'name' ? 'e.g. name=smith&state=TX, or npi=<NPI> for known NPIs' : 'e.g. postal_code=77030&state=TX',
    });
  }
}

/**
 * The whole list request. Checks run in a fixed order so that one request always gets the same error:
 * vertical, business_mode, limit, offset, format, include, state, city, the search filters, radius_miles and near,
 * then the path choice and what near combines with.
 */
export function parseListRequest(query: RawQuery): ListRequest {
  const vertical = parseVertical(value(query, 'vertical'));
  const businessMode = parseBusinessMode(value(query, 'business_mode'));
  const limit = parseLimit(value(query, 'limit'));
  const offset = parseOffset(value(query, 'offset'));
  const format = parseFormat(value(query, 'format'));
  const includeTracked = parseInclude(value(query, 'include'));
  const state = parseState(value(query, 'state'));
  const city = parseCity(value(query, 'city'));
  const search = parseIdentitySearch(query);
  const near = parseNear(value(query, 'near'), value(query, 'radius_miles'));
  if (vertical !== null) {
    if (search !== null) {
      throw new ApiError(
        'invalid_parameter',
        'name, postal_code, entity_type and npi search the identity layer: drop vertical.',
        {
          hint: 'e.g. name=smith&state=TX, or vertical=glp1&state=TX for the vertical layer',
        },
      );
    }
    if (near !== null) checkNearShape({ state, city, search: null }, null);
    return { path: 'vertical', vertical, state, city, businessMode, limit, offset, format, includeTracked, near };
  }
  const rawTaxonomy = value(query, 'taxonomy')?.trim();
  const taxonomy = rawTaxonomy === undefined || rawTaxonomy === '' ? null : rawTaxonomy;
  if (taxonomy === null && search === null) {
    throw new ApiError(
      'invalid_parameter',
      'Give vertical (vertical layer), or taxonomy, name, postal_code or npi (identity layer).',
      {
        hint: 'e.g. vertical=glp1, taxonomy=363L00000X, taxonomy=Nurse Practitioner, name=smith&state=TX, npi=1003633876',
      },
    );
  }
  if (taxonomy !== null && taxonomy.length > MAX_TAXONOMY) {
    throw new ApiError('invalid_parameter', `taxonomy must be at most ${MAX_TAXONOMY} characters.`);
  }
  if (near !== null) checkNearShape({ state, city, search }, { taxonomy });
  if (search !== null) checkSearchShape(search, state, near);
  return { path: 'identity', taxonomy, search, state, city, limit, offset, format, includeTracked, near };
}

/** The detail request's only parameter. */
export function parseDetailRequest(query: RawQuery): { includeTracked: boolean } {
  return { includeTracked: parseInclude(value(query, 'include')) };
}

/** The sample's only parameter. */
export function parseSampleRequest(query: RawQuery): { format: Format } {
  return { format: parseFormat(value(query, 'format')) };
}
