/**
 * Parameter parsing: the raw query strings of a request to typed, validated input (spec §4, §7, §8).
 * Pure functions with no HTTP types: the transport passes the first value of each query parameter.
 *
 * Choices where the spec is silent (documented in the README):
 * - A parameter given with an empty value (`state=`) is treated as absent.
 * - `limit` and `offset` are plain decimal integers: `1.5`, `abc`, `1e3`, `+5`, ` 5` and leading zeros
 *   (`01`) are refused.
 * - `taxonomy` is ignored when `vertical` is present (spec §4.1); `business_mode` and `include` are still
 *   validated on the identity path, and ignored there.
 */
import {
  BUSINESS_MODES,
  type BusinessMode,
  PAGE_LIMIT,
  VERTICALS,
  type Vertical,
} from '../../data-contracts/constants';
import { ApiError } from './api-error';

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
    }
  | {
      path: 'identity';
      taxonomy: string;
      state: string | null;
      city: string | null;
      limit: number;
      offset: number;
      format: Format;
      includeTracked: boolean;
    };

const DECIMAL = /^(0|[1-9][0-9]*)$/;
const STATE = /^[A-Za-z]{2}$/;
const MAX_TAXONOMY = 200;
const MAX_CITY = 100;

function value(query: RawQuery, name: string): string | undefined {
  const raw = query[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

/** `limit`: an integer from 1 to 1000, default 50. */
export function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return PAGE_LIMIT.default;
  const n = DECIMAL.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < PAGE_LIMIT.min || n > PAGE_LIMIT.max) {
    throw new ApiError('invalid_limit', `limit must be an integer from ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}.`, {
      hint: `Omit it for the default of ${PAGE_LIMIT.default}.`,
    });
  }
  return n;
}

/** `offset`: an integer of 0 or more, default 0. Whether it lies beyond the result is checked after the query. */
export function parseOffset(raw: string | undefined): number {
  if (raw === undefined) return 0;
  const n = DECIMAL.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n)) {
    throw new ApiError('invalid_offset', 'offset must be an integer of 0 or more.');
  }
  return n;
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

/** `city`: any text up to 100 characters, matched case-insensitively; surrounding spaces are dropped. */
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

/**
 * The whole list request. Checks run in a fixed order so that one request always gets the same error:
 * vertical, business_mode, limit, offset, format, include, state, city, then the path choice.
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
  if (vertical !== null) {
    return { path: 'vertical', vertical, state, city, businessMode, limit, offset, format, includeTracked };
  }
  const taxonomy = value(query, 'taxonomy')?.trim();
  if (taxonomy === undefined || taxonomy === '') {
    throw new ApiError('invalid_parameter', 'Give vertical (vertical layer) or taxonomy (identity layer).', {
      hint: 'e.g. vertical=glp1, or taxonomy=363L00000X, or taxonomy=Nurse Practitioner',
    });
  }
  if (taxonomy.length > MAX_TAXONOMY) {
    throw new ApiError('invalid_parameter', `taxonomy must be at most ${MAX_TAXONOMY} characters.`);
  }
  return { path: 'identity', taxonomy, state, city, limit, offset, format, includeTracked };
}

/** The detail request's only parameter. */
export function parseDetailRequest(query: RawQuery): { includeTracked: boolean } {
  return { includeTracked: parseInclude(value(query, 'include')) };
}

/** The sample's only parameter. */
export function parseSampleRequest(query: RawQuery): { format: Format } {
  return { format: parseFormat(value(query, 'format')) };
}
