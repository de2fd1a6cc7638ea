/**
 * Mapping from Parquet table rows (layout.ts) to the API's shapes, field by field, in one place per shape.
 * Used by the API (list and detail) and by the ETL (the public sample), so both speak the same wire format.
 *
 * The mappers produce the FULL form (every paid field in its real state). Tier masking is applied afterwards
 * by `lambdas/masking`; identity rows are always locked here because the identity layer never carries a paid
 * signal.
 */
import {
  IDENTITY_SOURCE,
  OIG_NO_MATCH_NOTE,
  OIG_SOURCE,
  PRICING_URL,
  type PublishTier,
  SIGNAL_STATUSES,
  type SignalStatus,
} from './constants';
import type { IdentityColumn, VerticalColumn } from './layout';
import type { IdentityProvider, LockedField, OigField, Provider, ProviderPrice, SourcedSignal } from './types';

type Cell = string | number | boolean | null;

/** A row of a vertical partition as DuckDB returns it (`getRowObjectsJson`). */
export type VerticalRow = { [K in VerticalColumn]: Cell };
/** A row of an identity partition. */
/**
 * An identity row as the API answers it: the partition's columns but the place (`postal_code`) and `entity_type`,
 * which the ETL keeps for the radius lists and the Parquet, not for the wire.
 */
export type IdentityRow = { [K in Exclude<IdentityColumn, 'postal_code' | 'entity_type'>]: Cell };

/** The placeholder a free key sees in place of every paid field. It never claims the provider is verified. */
export const LOCKED_FIELD: Readonly<LockedField> = Object.freeze({
  locked: true,
  unlock: `Paid field: available on the Builder, Developer and Enterprise plans. See ${PRICING_URL}`,
});

/** Returns a fresh copy of the locked placeholder (callers may serialise or mutate their copy). */
export function lockedField(): LockedField {
  return { ...LOCKED_FIELD };
}

const str = (v: Cell): string | null => (v === null || v === undefined || v === '' ? null : String(v));
const num = (v: Cell): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
};
const status = (v: Cell, fallback: SignalStatus): SignalStatus =>
  typeof v === 'string' && (SIGNAL_STATUSES as readonly string[]).includes(v) ? (v as SignalStatus) : fallback;

/**
 * The OIG field from the `oig_*` columns: the match shape when `oig_excluded` is true, else the explicit
 * no-match shape. Never a clean or cleared value.
 */
export function oigFromRow(
  row: Pick<VerticalRow, 'oig_excluded' | 'oig_type' | 'oig_date' | 'oig_checked_at'>,
): OigField {
  if (row.oig_excluded === true) {
    return {
      excluded: true,
      type: str(row.oig_type),
      date: str(row.oig_date),
      source: OIG_SOURCE,
      checked_at: str(row.oig_checked_at),
    };
  }
  return { npi_match: 'none', note: OIG_NO_MATCH_NOTE };
}

const LOCKED_JSON = JSON.stringify(LOCKED_FIELD);

/**
 * The JSON members that close every identity answer, identity rows (identity-json.ts) and NPI records
 * (npi-record.ts), as text to copy: the four paid fields as locked placeholders, and the no-match `oig`.
 */
export const LOCKED_MEMBERS_JSON = `,"certification":${LOCKED_JSON},"license":${LOCKED_JSON},"fda":${LOCKED_JSON},"price":${LOCKED_JSON}`;
export const NO_MATCH_OIG_MEMBER_JSON = `,"oig":${JSON.stringify(
  oigFromRow({ oig_excluded: false, oig_type: null, oig_date: null, oig_checked_at: null }),
)}`;

function signalFromRow(
  row: VerticalRow,
  prefix: 'certification' | 'license' | 'fda',
  fallback: SignalStatus,
): SourcedSignal {
  return {
    status: status(row[`${prefix}_status`], fallback),
    source: str(row[`${prefix}_source`]),
    source_url: str(row[`${prefix}_source_url`]),
    verified_at: str(row[`${prefix}_verified_at`]),
  };
}

function priceFromRow(row: VerticalRow): ProviderPrice {
  return {
    range: str(row.price_range),
    monthly_min: num(row.price_monthly_min),
    monthly_max: num(row.price_monthly_max),
    source: str(row.price_source),
    verified_at: str(row.price_verified_at),
  };
}

/**
 * A vertical row as a Provider in the full paid schema. `publish_tier` is included only when asked (it is present
 * only in `include=tracked` responses).
 */
export function providerFromRow(row: VerticalRow, options: { withPublishTier: boolean }): Provider {
  const provider: Provider = {
    entity_id: String(row.entity_id),
    slug: String(row.slug),
    vertical: String(row.vertical) as Provider['vertical'],
    name: String(row.name),
    city: str(row.city),
    state: str(row.state),
    business_mode: String(row.business_mode) as Provider['business_mode'],
    latitude: num(row.latitude),
    longitude: num(row.longitude),
    npi: str(row.npi),
    certification: signalFromRow(row, 'certification', 'unverified'),
    license: { ...signalFromRow(row, 'license', 'unverified'), states_count: num(row.license_states_count) ?? 0 },
    fda: signalFromRow(row, 'fda', 'not_screened'),
    oig: oigFromRow(row),
    price: priceFromRow(row),
  };
  if (options.withPublishTier) {
    return { ...provider, publish_tier: String(row.publish_tier) as PublishTier };
  }
  return provider;
}

/** An identity row as an IdentityProvider. Paid fields are always locked placeholders. */
export function identityProviderFromRow(row: IdentityRow): IdentityProvider {
  return {
    npi: String(row.npi),
    name: String(row.name),
    taxonomy_code: str(row.taxonomy_code),
    taxonomy_display: str(row.taxonomy_display),
    city: str(row.city),
    state: str(row.state),
    layer: 'identity',
    source: IDENTITY_SOURCE,
    checked_at: str(row.checked_at),
    oig: oigFromRow(row),
    oig_candidate_count: candidateCount(row.oig_candidate_count),
    certification: lockedField(),
    license: lockedField(),
    fda: lockedField(),
    price: lockedField(),
  };
}

/** A row's `oig_candidate_count` cell as the wire's count: 0 when none or NULL (rows written before candidates). */
export function candidateCount(cell: Cell | undefined): number {
  const n = num(cell ?? null);
  return n === null || n < 0 ? 0 : Math.trunc(n);
}
