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
