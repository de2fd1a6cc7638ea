/**
 * Coverage figures and the public sample, computed from the snapshot's Parquet alone (read back with DuckDB), so
 * the hourly rebuild and the build agree by construction.
 *
 * Definitions (CoverageStats in the OpenAPI document, data-contracts/openapi.ts), per slice (tracked = every record, verified = verified records):
 * - total: records; states: distinct non-null states; cities: distinct (upper-cased city, state) pairs with a city,
 *   so Springfield IL and Springfield MA are two cities;
 * - business_mode: records per mode; by_state: records per non-null state, by count descending, then state;
 * - signals: legitscript_verified = certification status `verified`; license_on_file = license status `verified`;
 *   fda_screened = fda status `clear` or `flagged`; npi_present = npi set; price_published = price range or monthly
 *   minimum set.
 * - identity_layer: total = distinct NPIs, states = distinct practice states, taxonomies = distinct taxonomy codes;
 *   placement (when the snapshot has a ZIP table): its NPIs split by their 5-digit practice ZIP into placed (a
 *   centroid in the table), not_placed (a ZIP without one) and no_postal_code, which add up to total;
 * - verticals_live = verticals with at least one verified record; generated_at = the snapshot time.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { SAMPLE_SIZE } from '../../data-contracts/constants';
import { flattenProvider, PAID_PROVIDER_CSV_COLUMNS, toCsv } from '../../data-contracts/csv';
import { providerFromRow, type VerticalRow } from '../../data-contracts/rows';
import type { CoverageSlice, CoverageStats, SampleResponse } from '../../data-contracts/types';
import { queryRows } from '../../platform/duckdb/statements';
import type { ZipTable } from '../../platform/geo/zip-table';
import { sqlPath } from '../../platform/sql';

const scanOf = (files: readonly string[]) => `read_parquet([${files.map(sqlPath).join(', ')}])`;

/** The figures of one slice; an empty file list is an empty slice. */
export async function computeSlice(connection: DuckDBConnection, files: readonly string[]): Promise<CoverageSlice> {
  if (files.length === 0) {
    return {
      total: 0,
      states: 0,
      cities: 0,
      business_mode: { online: 0, physical: 0, both: 0 },
      by_state: [],
      signals: { legitscript_verified: 0, license_on_file: 0, fda_screened: 0, npi_present: 0, price_published: 0 },
    };
  }
  const scan = scanOf(files);
  const [f] = await queryRows(
    connection,
    `SELECT count(*)::INTEGER AS "total",
       count(DISTINCT state)::INTEGER AS "states",
       count(DISTINCT CASE WHEN city IS NOT NULL THEN [upper(trim(city)), coalesce(state, '')] END)::INTEGER AS "cities",
       count(*) FILTER (business_mode = 'online')::INTEGER AS "online",
       count(*) FILTER (business_mode = 'physical')::INTEGER AS "physical",
       count(*) FILTER (business_mode = 'both')::INTEGER AS "both",
       count(*) FILTER (certification_status = 'verified')::INTEGER AS "legitscript_verified",
       count(*) FILTER (license_status = 'verified')::INTEGER AS "license_on_file",
       count(*) FILTER (fda_status IN ('clear', 'flagged'))::INTEGER AS "fda_screened",
       count(*) FILTER (npi IS NOT NULL)::INTEGER AS "npi_present",
       count(*) FILTER (price_range IS NOT NULL OR price_monthly_min IS NOT NULL)::INTEGER AS "price_published"
     FROM ${scan}`,
  );
  const byState = await queryRows(
    connection,
    `SELECT state, count(*)::INTEGER AS count FROM ${scan} WHERE state IS NOT NULL
     GROUP BY state ORDER BY count DESC, state`,
  );
  const n = (k: string) => Number(f?.[k] ?? 0);
  return {
    total: n('total'),
    states: n('states'),
    cities: n('cities'),
    business_mode: { online: n('online'), physical: n('physical'), both: n('both') },
    by_state: byState.map((r) => ({ state: String(r.state), count: Number(r.count) })),
    signals: {
      legitscript_verified: n('legitscript_verified'),
      license_on_file: n('license_on_file'),
      fda_screened: n('fda_screened'),
      npi_present: n('npi_present'),
      price_published: n('price_published'),
    },
  };
}

export type IdentityLayerStats = NonNullable<CoverageStats['identity_layer']>;
export type IdentityPlacement = NonNullable<IdentityLayerStats['placement']>;

/**
 * Identity-layer figures from the identity partitions, with the placement of their NPIs when `zipTable` (the ZIP
 * table of the snapshot) is given; without one (a snapshot built before the ZIP table) `placement` is left out.
 */
export async function computeIdentityLayer(
  connection: DuckDBConnection,
  files: readonly string[],
  zipTable: ZipTable | null = null,
): Promise<IdentityLayerStats> {
  const placement = zipTable === null ? {} : { placement: await computePlacement(connection, files, zipTable) };
  if (files.length === 0) return { total: 0, states: 0, taxonomies: 0, ...placement };
  const [f] = await queryRows(
    connection,
    `SELECT count(DISTINCT npi)::INTEGER AS total, count(DISTINCT state)::INTEGER AS states,
       count(DISTINCT taxonomy_code)::INTEGER AS taxonomies FROM ${scanOf(files)}`,
  );
  return {
    total: Number(f?.total ?? 0),
    states: Number(f?.states ?? 0),
    taxonomies: Number(f?.taxonomies ?? 0),
    ...placement,
  };
}

/**
 * The identity layer's distinct NPIs by place: `placed` when the 5-digit practice ZIP (`postal_code`) has a centroid
 * in `zipTable`, `not_placed` when it has none (PO-box and single-building ZIPs), `no_postal_code` when the NPI has
 * no ZIP. An NPI's rows all carry the same `postal_code` (its latest NPPES record's), so each NPI is counted once.
 */
export async function computePlacement(
  connection: DuckDBConnection,
  files: readonly string[],
  zipTable: ZipTable,
): Promise<IdentityPlacement> {
  const { source, as_of } = zipTable.header;
  const zip_table = { source, as_of, zips: zipTable.size };
  if (files.length === 0) return { placed: 0, not_placed: 0, no_postal_code: 0, zip_table };
  // The table's ZIPs are bound as one list parameter and joined as a relation.
  const zips = Array.from({ length: zipTable.size }, (_, rank) => zipTable.at(rank).zip);
  const [f] = await queryRows(
    connection,
    `WITH npis AS (SELECT npi, min(postal_code) AS postal_code FROM ${scanOf(files)} GROUP BY npi),
       zips AS (SELECT DISTINCT unnest($1::VARCHAR[]) AS zip)
     SELECT count(*) FILTER (z.zip IS NOT NULL)::INTEGER AS placed,
       count(*) FILTER (z.zip IS NULL AND n.postal_code IS NOT NULL)::INTEGER AS not_placed,
       count(*) FILTER (n.postal_code IS NULL)::INTEGER AS no_postal_code
     FROM npis n LEFT JOIN zips z ON z.zip = n.postal_code`,
    [zips],
  );
  return {
    placed: Number(f?.placed ?? 0),
    not_placed: Number(f?.not_placed ?? 0),
    no_postal_code: Number(f?.no_postal_code ?? 0),
    zip_table,
  };
}

export interface CoverageInput {
  trackedFiles: readonly string[];
  verifiedFiles: readonly string[];
  /** Identity figures, computed by `computeIdentityLayer` (or carried over from the snapshot, see rebuild-static). */
  identityLayer: IdentityLayerStats | null;
  snapshotId: string;
  generatedAt: string;
}

export async function computeCoverage(connection: DuckDBConnection, input: CoverageInput): Promise<CoverageStats> {
  const tracked = await computeSlice(connection, input.trackedFiles);
  const verified = await computeSlice(connection, input.verifiedFiles);
  const [live] =
    input.verifiedFiles.length === 0
      ? [{ n: 0 }]
      : await queryRows(
          connection,
          `SELECT count(DISTINCT vertical)::INTEGER AS n FROM ${scanOf(input.verifiedFiles)}`,
        );
  return {
    tracked,
    verified,
    ...(input.identityLayer ? { identity_layer: input.identityLayer } : {}),
    verticals_live: Number(live?.n ?? 0),
    snapshot_id: input.snapshotId,
    generated_at: input.generatedAt,
  };
}

/**
 * The public sample: the SAMPLE_SIZE verified records with the lowest `sample_rank` (SHA-256 of entity_id), so a
 * record stays in the sample for as long as it stays verified and no lower-ranked record arrives.
 */
export async function computeSample(
  connection: DuckDBConnection,
  verifiedFiles: readonly string[],
  generatedAt: string,
): Promise<{ json: SampleResponse; csv: string }> {
  const rows =
    verifiedFiles.length === 0
      ? []
      : await queryRows(
          connection,
          `SELECT * FROM ${scanOf(verifiedFiles)} WHERE publish_tier = $1
           ORDER BY sample_rank, entity_id LIMIT $2`,
          ['verified', SAMPLE_SIZE],
        );
  const data = rows.map((row) => providerFromRow(row as VerticalRow, { withPublishTier: false }));
  const json: SampleResponse = {
    sample: true,
    size: data.length,
    schema: 'paid',
    publish_boundary: 'verified',
    generated_at: generatedAt,
    data,
  };
  return { json, csv: toCsv(PAID_PROVIDER_CSV_COLUMNS, data.map(flattenProvider)) };
}
