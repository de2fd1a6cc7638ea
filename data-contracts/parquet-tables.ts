/**
 * The schema of every Parquet table of a snapshot and the columns of its rejects file. Where the tables live:
 * layout.ts.
 */

/** The OIG screen's cells of a vertical or identity row (the latest LEIE exclusion matched by NPI). */
const OIG_COLUMNS = {
  oig_excluded: 'BOOLEAN',
  oig_type: 'VARCHAR',
  oig_date: 'VARCHAR',
  oig_checked_at: 'VARCHAR',
} as const;

/**
 * Parquet table schemas: column name to DuckDB type. Timestamps are ISO 8601 strings in UTC
 * (`2026-06-15T00:00:00Z`), dates ISO `YYYY-MM-DD`, so the API maps them to JSON without conversion.
 */
export const VERTICAL_TABLE = {
  entity_id: 'VARCHAR',
  slug: 'VARCHAR',
  vertical: 'VARCHAR',
  publish_tier: 'VARCHAR',
  name: 'VARCHAR',
  city: 'VARCHAR',
  state: 'VARCHAR',
  business_mode: 'VARCHAR',
  latitude: 'DOUBLE',
  longitude: 'DOUBLE',
  npi: 'VARCHAR',
  certification_status: 'VARCHAR',
  certification_source: 'VARCHAR',
  certification_source_url: 'VARCHAR',
  certification_verified_at: 'VARCHAR',
  license_status: 'VARCHAR',
  license_source: 'VARCHAR',
  license_source_url: 'VARCHAR',
  license_verified_at: 'VARCHAR',
  license_states_count: 'INTEGER',
  fda_status: 'VARCHAR',
  fda_source: 'VARCHAR',
  fda_source_url: 'VARCHAR',
  fda_verified_at: 'VARCHAR',
  price_range: 'VARCHAR',
  price_monthly_min: 'DOUBLE',
  price_monthly_max: 'DOUBLE',
  price_source: 'VARCHAR',
  price_verified_at: 'VARCHAR',
  ...OIG_COLUMNS,
  /** Deterministic rank for the public sample: lower ranks are chosen first (a hash of entity_id). */
  sample_rank: 'VARCHAR',
} as const;
export type VerticalColumn = keyof typeof VERTICAL_TABLE;

export const IDENTITY_TABLE = {
  npi: 'VARCHAR',
  name: 'VARCHAR',
  taxonomy_code: 'VARCHAR',
  taxonomy_display: 'VARCHAR',
  classification_key: 'VARCHAR',
  is_primary: 'BOOLEAN',
  class_rep: 'BOOLEAN',
  city: 'VARCHAR',
  state: 'VARCHAR',
  checked_at: 'VARCHAR',
  ...OIG_COLUMNS,
  /** The NPI's OIG possible matches (0 when none; `/npi/{npi}` lists them). */
  oig_candidate_count: 'INTEGER',
  /** The first 5 digits of the practice location's postal code (the row's place for radius search; layout 5). */
  postal_code: 'VARCHAR',
  /** `individual` or `organization` (layout 5). */
  entity_type: 'VARCHAR',
} as const;
export type IdentityColumn = keyof typeof IDENTITY_TABLE;

export const TAXONOMY_TABLE = {
  code: 'VARCHAR',
  grouping: 'VARCHAR',
  classification: 'VARCHAR',
  specialization: 'VARCHAR',
  display_name: 'VARCHAR',
  section: 'VARCHAR',
  classification_key: 'VARCHAR',
} as const;
export type TaxonomyColumn = keyof typeof TAXONOMY_TABLE;

/** Columns of `rejects/rejects.csv`. */
export const REJECTS_COLUMNS = ['source', 'file', 'line', 'reason', 'raw'] as const;
