/**
 * The bounds and patterns of the API's parameters, declared once. The OpenAPI document's parameter schemas spread
 * them in (`openapi.ts`, `openapi-parts.ts`, `openapi-npi.ts`) and the API's parsers check them
 * (lambdas/core/params.ts, npi-params.ts, get-provider.ts), so the document and the code cannot drift apart;
 * test/contract/parameter-rules.test.ts ties the two. The keys of a rule are JSON Schema keywords, as the
 * parameter's schema carries them.
 */
import { NPI_BATCH_MAX, PAGE_LIMIT } from './constants';

/** A 10-digit NPI (the check digit is checked apart: npi-check.ts). */
export const NPI_PATTERN = '^[0-9]{10}$';

/** How many NPIs one call may name: the batch's `numbers` and a roster's `npi` (both a comma-separated list). */
export const NPI_LIST_MAX = NPI_BATCH_MAX;

/**
 * Boxes (south, west, north, east, in degrees) that hold the US states and territories: a `near` point outside all
 * of them is refused (400 `invalid_near`). The Aleutians cross the antimeridian: two boxes.
 */
export const US_AREAS: readonly (readonly [number, number, number, number])[] = [
  [24.3, -125.0, 49.5, -66.8], // the 48 states and DC
  [51.0, -180.0, 71.6, -129.9], // Alaska
  [51.0, 172.0, 53.1, 180.0], // Alaska, the western Aleutians
  [18.8, -160.4, 22.4, -154.7], // Hawaii
  [17.8, -67.4, 18.6, -64.5], // Puerto Rico and the US Virgin Islands
  [13.2, 144.5, 20.6, 146.1], // Guam and the Northern Mariana Islands
  [-14.6, -171.2, -11.0, -168.1], // American Samoa
];

/** The bounds a parameter's schema may carry. */
export interface ParameterRule {
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly default?: number;
}

/** The rules, by parameter (the list's query parameters, then the path parameters). */
export const PARAMETER_RULES = {
  /**
   * `taxonomy`: a code or a NUCC classification name. The ETL holds NUCC's names to the same bound, so that every
   * classification it publishes can be asked for.
   */
  taxonomy: { minLength: 1, maxLength: 200 },
  /** `name`: a prefix of 2 characters at least (a 1-letter prefix would match a twentieth of a state). */
  name: { minLength: 2, maxLength: 100 },
  /** `postal_code`: a 5-digit ZIP code (surrounding spaces dropped). */
  postal_code: { pattern: '^[0-9]{5}$' },
  /** `state`: two letters, any case. */
  state: { pattern: '^[A-Za-z]{2}$' },
  /** `city`: any text (surrounding spaces dropped). */
  city: { minLength: 1, maxLength: 100 },
  /**
   * `near`: a 5-digit ZIP code, or `lat,lon` in decimal degrees (within {@link US_AREAS}). The pattern is the
   * shape; the areas and the ZIP's centroid are checked apart.
   */
  near: { pattern: '^([0-9]{5}|-?[0-9]{1,2}(\\.[0-9]+)?,-?[0-9]{1,3}(\\.[0-9]+)?)$' },
  /** `radius_miles`: a number from 1 to 100, decimals allowed. */
  radius_miles: { minimum: 1, maximum: 100, default: 25 },
  /** `limit` of every list. */
  limit: { minimum: PAGE_LIMIT.min, maximum: PAGE_LIMIT.max, default: PAGE_LIMIT.default },
  /** `offset` of every list (whether it lies beyond the result is checked after the query). */
  offset: { minimum: 0, default: 0 },
  /** The list's `npi`: a roster of up to {@link NPI_LIST_MAX} NPIs, comma-separated. */
  roster: { minLength: 10 },
  /** Path `{id}` of a provider: an `entity_id` or a slug; a longer one matches no provider (404). */
  providerId: { minLength: 1, maxLength: 200 },
  /** Path `{npi}`: anything but a valid NPI is 400 `invalid_npi`. */
  npi: { minLength: 1, maxLength: 200 },
} as const satisfies Record<string, ParameterRule>;
