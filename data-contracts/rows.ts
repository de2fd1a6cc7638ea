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
export type IdentityRow = { [K in IdentityColumn]: Cell };

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
    certification: lockedField(),
    license: lockedField(),
    fda: lockedField(),
    price: lockedField(),
  };
}

// The JSON bytes of identity rows, written straight from the rows: the same bytes as
// `JSON.stringify(rows.map(identityProviderFromRow))` (a property test holds them equal), without building the
// objects. A 1,000-row page is about 1 MB, three quarters of it the same locked placeholders and OIG note on every
// row: those are copied as constant bytes, and the few distinct taxonomy, city, state and date values of a page are
// encoded once per page.
const LOCKED_JSON = JSON.stringify(LOCKED_FIELD);
const IDENTITY_JSON = {
  npi: Buffer.from('{"npi":'),
  name: Buffer.from(',"name":'),
  checkedAt: Buffer.from(`,"layer":"identity","source":${JSON.stringify(IDENTITY_SOURCE)},"checked_at":`),
  oig: Buffer.from(',"oig":'),
  noMatch: Buffer.from(JSON.stringify({ npi_match: 'none', note: OIG_NO_MATCH_NOTE })),
  tail: Buffer.from(
    `,"certification":${LOCKED_JSON},"license":${LOCKED_JSON},"fda":${LOCKED_JSON},"price":${LOCKED_JSON}}`,
  ),
  null: Buffer.from('null'),
  open: Buffer.from('['),
  comma: Buffer.from(','),
  close: Buffer.from(']'),
} as const;
/** Strings JSON writes as they are between quotes: printable ASCII without `"` and `\`. */
const PLAIN_JSON_STRING = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A byte buffer that grows by doubling. */
class JsonBytes {
  buffer: Buffer;
  length = 0;

  constructor(size: number) {
    this.buffer = Buffer.allocUnsafe(Math.max(64, size));
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }

  bytes(part: Buffer): void {
    this.room(part.length);
    // TypedArray#set: Buffer#copy validates its arguments on every call, which shows on a page of small parts.
    this.buffer.set(part, this.length);
    this.length += part.length;
  }

  /** Text as it is (UTF-8). */
  text(value: string): void {
    this.room(Buffer.byteLength(value));
    this.length += this.buffer.write(value, this.length, 'utf8');
  }

  /** A JSON string value (quotes included). */
  string(value: string): void {
    if (PLAIN_JSON_STRING.test(value)) {
      this.room(value.length + 2);
      this.buffer[this.length] = 0x22;
      this.buffer.write(value, this.length + 1, 'latin1');
      this.buffer[this.length + value.length + 1] = 0x22;
      this.length += value.length + 2;
    } else {
      const json = JSON.stringify(value);
      this.room(Buffer.byteLength(json));
      this.length += this.buffer.write(json, this.length, 'utf8');
    }
  }
}

/** The bytes of a page's repeated parts by the two cells they show (a Map tells null, 'null', 5 and '5' apart). */
class PartMemo {
  private readonly parts = new Map<Cell, Map<Cell, Buffer>>();

  get(a: Cell, b: Cell, make: () => string): Buffer {
    let inner = this.parts.get(a);
    if (inner === undefined) {
      inner = new Map();
      this.parts.set(a, inner);
    }
    let bytes = inner.get(b);
    if (bytes === undefined) {
      bytes = Buffer.from(make(), 'utf8');
      inner.set(b, bytes);
    }
    return bytes;
  }
}

/**
 * The JSON array of `rows` as IdentityProviders: byte for byte `JSON.stringify(rows.map(identityProviderFromRow))`,
 * between `before` and `after` (an envelope's text around its array: the body is written in one buffer).
 * @example identityProvidersJson(page.rows).toString() // '[{"npi":"1234567893","name":…}]'
 */
export function identityProvidersJson(rows: readonly IdentityRow[], before = '', after = ''): Buffer {
  const out = new JsonBytes(rows.length * 900 + before.length + after.length + 2);
  out.text(before);
  // A row is its npi and name, then three parts that repeat across rows, each encoded once per page: taxonomy
  // code and display; city and state; checked_at with the OIG no-match note and the locked placeholders.
  const taxonomyParts = new PartMemo();
  const placeParts = new PartMemo();
  const checkedParts = new PartMemo();
  const json = (value: Cell) => JSON.stringify(str(value));
  out.bytes(IDENTITY_JSON.open);
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i] as IdentityRow;
    if (i > 0) out.bytes(IDENTITY_JSON.comma);
    out.bytes(IDENTITY_JSON.npi);
    out.string(String(row.npi));
    out.bytes(IDENTITY_JSON.name);
    out.string(String(row.name));
    const { taxonomy_code: code, taxonomy_display: display, city, state, checked_at: checkedAt } = row;
    out.bytes(
      taxonomyParts.get(code, display, () => {
        return `,"taxonomy_code":${json(code)},"taxonomy_display":${json(display)}`;
      }),
    );
    out.bytes(placeParts.get(city, state, () => `,"city":${json(city)},"state":${json(state)}`));
    if (row.oig_excluded === true) {
      out.bytes(IDENTITY_JSON.checkedAt);
      out.text(json(checkedAt));
      out.bytes(IDENTITY_JSON.oig);
      out.text(JSON.stringify(oigFromRow(row)));
      out.bytes(IDENTITY_JSON.tail);
    } else {
      out.bytes(
        checkedParts.get(checkedAt, null, () => {
          const tail = IDENTITY_JSON.tail.toString('utf8');
          return `${IDENTITY_JSON.checkedAt.toString('utf8')}${json(checkedAt)},"oig":${IDENTITY_JSON.noMatch.toString('utf8')}${tail}`;
        }),
      );
    }
  }
  out.bytes(IDENTITY_JSON.close);
  out.text(after);
  return out.buffer.subarray(0, out.length);
}
