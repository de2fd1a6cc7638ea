/**
 * CSV wire format (the OpenAPI document leaves the column names open; this is our contract). RFC 4180: CRLF line ends, a
 * header row, fields quoted when they hold a comma, a double quote, CR or LF, quotes doubled.
 *
 * Column sets by tier:
 * - free vertical rows: identity fields and the flattened `oig_*` columns;
 * - paid vertical rows (and the public sample): the free columns plus every signal flattened;
 * - identity rows: the identity fields, `oig_*` and `oig_candidate_count` (the paid fields are always locked, so they
 *   have no column).
 *
 * Formula neutralisation: a text cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is
 * prefixed with `'` so that a spreadsheet shows it instead of running it (OWASP "CSV Injection"). Numbers are
 * written as numbers and never prefixed, so a negative longitude stays a number.
 */
import { CHANGE_STEP_MEMBERS, CHANGE_WHAT_MEMBERS } from './changes';
import type {
  ChangeEntry,
  IdentityProvider,
  LicenseSignal,
  OigField,
  Provider,
  ProviderPrice,
  SourcedSignal,
} from './types';

export type CsvCell = string | number | boolean | null | undefined;

const OIG_COLUMNS = ['oig_match', 'oig_type', 'oig_date', 'oig_source', 'oig_checked_at', 'oig_note'] as const;

export const FREE_PROVIDER_CSV_COLUMNS = [
  'entity_id',
  'slug',
  'vertical',
  'name',
  'city',
  'state',
  'business_mode',
  'latitude',
  'longitude',
  'npi',
  ...OIG_COLUMNS,
] as const;

export const PAID_PROVIDER_CSV_COLUMNS = [
  ...FREE_PROVIDER_CSV_COLUMNS,
  'certification_status',
  'certification_source',
  'certification_source_url',
  'certification_verified_at',
  'license_status',
  'license_source',
  'license_source_url',
  'license_verified_at',
  'license_states_count',
  'fda_status',
  'fda_source',
  'fda_source_url',
  'fda_verified_at',
  'price_range',
  'price_monthly_min',
  'price_monthly_max',
  'price_source',
  'price_verified_at',
] as const;

/** An identity row's own fields, in the order every identity answer lists them (the CSV, the serving index). */
export const IDENTITY_ROW_FIELDS = ['npi', 'name', 'taxonomy_code', 'taxonomy_display', 'city', 'state'] as const;

export const IDENTITY_CSV_COLUMNS = [
  ...IDENTITY_ROW_FIELDS,
  'layer',
  'source',
  'checked_at',
  ...OIG_COLUMNS,
  'oig_candidate_count',
] as const;

type Record_ = Record<string, CsvCell>;

function flattenOig(oig: OigField | undefined): Record_ {
  if (oig && 'excluded' in oig) {
    return {
      oig_match: 'excluded',
      oig_type: oig.type,
      oig_date: oig.date,
      oig_source: oig.source,
      oig_checked_at: oig.checked_at,
      oig_note: null,
    };
  }
  return {
    oig_match: 'none',
    oig_type: null,
    oig_date: null,
    oig_source: null,
    oig_checked_at: null,
    oig_note: oig && 'note' in oig ? oig.note : null,
  };
}

function isSourced(v: unknown): v is SourcedSignal {
  return typeof v === 'object' && v !== null && 'status' in v;
}

function flattenSignal(prefix: string, v: unknown): Record_ {
  if (!isSourced(v)) return {};
  const out: Record_ = {
    [`${prefix}_status`]: v.status,
    [`${prefix}_source`]: v.source,
    [`${prefix}_source_url`]: v.source_url,
    [`${prefix}_verified_at`]: v.verified_at,
  };
  if ('states_count' in v) out[`${prefix}_states_count`] = (v as LicenseSignal).states_count;
  return out;
}

function flattenPrice(v: unknown): Record_ {
  if (typeof v !== 'object' || v === null || 'locked' in v) return {};
  const p = v as ProviderPrice;
  return {
    price_range: p.range,
    price_monthly_min: p.monthly_min,
    price_monthly_max: p.monthly_max,
    price_source: p.source,
    price_verified_at: p.verified_at,
  };
}

/** A Provider (masked or full) as a flat record; locked fields contribute no cells. */
export function flattenProvider(p: Provider): Record_ {
  return {
    entity_id: p.entity_id,
    slug: p.slug,
    vertical: p.vertical,
    name: p.name,
    city: p.city,
    state: p.state,
    business_mode: p.business_mode,
    latitude: p.latitude,
    longitude: p.longitude,
    npi: p.npi,
    ...flattenOig(p.oig),
    ...flattenSignal('certification', p.certification),
    ...flattenSignal('license', p.license),
    ...flattenSignal('fda', p.fda),
    ...flattenPrice(p.price),
  };
}

export function flattenIdentityProvider(p: IdentityProvider): Record_ {
  return {
    npi: p.npi,
    name: p.name,
    taxonomy_code: p.taxonomy_code,
    taxonomy_display: p.taxonomy_display,
    city: p.city,
    state: p.state,
    layer: p.layer,
    source: p.source,
    checked_at: p.checked_at,
    ...flattenOig(p.oig),
    oig_candidate_count: p.oig_candidate_count,
  };
}

/** `GET /changes?format=csv`: one row per change; `old` and `new` as JSON text, `locked` for a locked value. */
export const CHANGE_CSV_COLUMNS = [...CHANGE_WHAT_MEMBERS, 'note', ...CHANGE_STEP_MEMBERS] as const;

function changeValue(value: ChangeEntry['old']): string | null {
  if (value === null) return null;
  if (typeof value === 'object' && 'locked' in value && value.locked === true) return 'locked';
  return JSON.stringify(value);
}

export function flattenChange(c: ChangeEntry): Record_ {
  return {
    kind: c.kind,
    npi: c.npi,
    entity_id: c.entity_id,
    vertical: c.vertical,
    field: c.field,
    old: changeValue(c.old),
    new: changeValue(c.new),
    note: c.note,
    from_snapshot: c.from_snapshot,
    from_as_of: c.from_as_of,
    to_snapshot: c.to_snapshot,
    to_as_of: c.to_as_of,
  };
}

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: neutralised when it is text that a spreadsheet would run, quoted when RFC 4180 needs it. */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * RFC 4180 text with a header row; a column a record lacks is an empty cell, a record's extra keys are dropped.
 * @example toCsv(['a', 'b'], [{ a: 1, b: '=SUM(A1)' }]) === "a,b\r\n1,'=SUM(A1)\r\n"
 */
export function toCsv(columns: readonly string[], records: readonly Record_[]): string {
  const lines = [columns.map(csvField).join(',')];
  for (const record of records) lines.push(columns.map((c) => csvField(record[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
