/** In-memory dependencies of the API core for unit tests: no DuckDB, no DynamoDB. */
import type { PublishBoundary } from '../../data-contracts/constants';
import { identityRowsOf } from '../../data-contracts/identity-json';
import type { IdentityRow, VerticalRow } from '../../data-contracts/rows';
import type { CoreDeps, KeyRecord, MeterResult } from '../../lambdas/core/ports';
import { ProviderViews } from '../../lambdas/core/present-provider';
import type { DataVersion } from '../../lambdas/http/data-version';
import type { ProviderData, VerticalListQuery } from '../../lambdas/query/types';
import { createReceiptKeys } from '../../lambdas/signing/receipt-keys';
import { silentLogger } from '../../platform/logger';

export interface FakeOptions {
  verticalRows?: VerticalRow[];
  identityRows?: IdentityRow[];
  keys?: Record<string, KeyRecord>;
  meter?: () => MeterResult;
  /** Records the boundary of every vertical query. */
  boundaries?: PublishBoundary[];
  failWith?: Error;
  /** The receipts' key cannot be loaded (the secret store is down). */
  receiptsDown?: boolean;
}

/** Dependencies whose snapshot answers with the given rows (filtered by boundary like the partitions are). */
export function fakeDeps(options: FakeOptions = {}): CoreDeps {
  const rows = options.verticalRows ?? [];
  const inBoundary = (b: PublishBoundary) =>
    b === 'verified' ? rows.filter((r) => r.publish_tier === 'verified') : rows;
  const data: ProviderData = {
    snapshotId: '20260615T000000Z-unitfake',
    asOf: '2026-06-15T00:00:00Z',
    leieFiles: [],
    async listVertical(q: VerticalListQuery) {
      options.boundaries?.push(q.boundary);
      if (options.failWith) throw options.failWith;
      const all = inBoundary(q.boundary);
      return { total: all.length, rows: all.slice(q.offset, q.offset + q.limit) };
    },
    async findVertical(id, b) {
      options.boundaries?.push(b);
      return inBoundary(b).find((r) => r.entity_id === id || r.slug === id) ?? null;
    },
    async listIdentity(q) {
      const all = options.identityRows ?? [];
      return { total: all.length, rows: identityRowsOf(all.slice(q.offset, q.offset + q.limit)) };
    },
    async searchIdentity(q) {
      const all = options.identityRows ?? [];
      return { total: all.length, rows: identityRowsOf(all.slice(q.offset, q.offset + q.limit)) };
    },
    resolveTaxonomy: () => ({ kind: 'unknown' }),
    // No ZIP table: a radius query is 503 radius_unavailable (the radius tests use a real snapshot).
    resolveNear: async () => ({ kind: 'unavailable' }),
    listVerticalNear: async () => ({ total: 0, rows: [], miles: new Float64Array(0) }),
    listIdentityNear: async () => null,
    findNpis: async (npis) => npis.map(() => null),
    changesSpan: () => ({
      retention_months: 13,
      oldest_snapshot: '20260615T000000Z-unitfake',
      oldest_as_of: '2026-06-15T00:00:00Z',
      steps: [],
    }),
    listChanges: async () => ({ total: 0, rows: [] }),
    hasStatic: () => true,
    readStatic: async () => Buffer.from('{}'),
  };
  return {
    snapshots: { withSnapshot: (work) => work(data) },
    keys: { findByKey: async (k) => options.keys?.[k] ?? null },
    meter: { consume: async () => options.meter?.() ?? { outcome: 'unmetered' } },
    clock: () => new Date('2026-06-15T12:00:00Z'),
    logger: silentLogger,
    views: new ProviderViews(),
    receipts: options.receiptsDown
      ? { current: async () => Promise.reject(new Error('the secret store is down')) }
      : createReceiptKeys({ kind: 'seed', seed: FAKE_RECEIPT_SEED }, silentLogger),
  };
}

/** The seed of the fakes' receipt key. */
export const FAKE_RECEIPT_SEED = 'the unit tests\u2019 receipt seed';

/** The data version of the fake snapshot, for body builders called outside the app. */
export const FAKE_VERSION: DataVersion = { snapshotId: '20260615T000000Z-unitfake', asOf: '2026-06-15T00:00:00Z' };

export const FAKE_KEYS: Record<string, KeyRecord> = {
  free: { keyHash: 'hf', plan: 'free', vertical: null, status: 'active' },
  builder: { keyHash: 'hb', plan: 'builder', vertical: 'glp1', status: 'active' },
  developer: { keyHash: 'hd', plan: 'developer', vertical: null, status: 'active' },
  enterprise: { keyHash: 'he', plan: 'enterprise', vertical: null, status: 'active' },
};

const base = (over: Partial<VerticalRow>): VerticalRow => ({
  entity_id: 'x',
  slug: 'x',
  vertical: 'glp1',
  publish_tier: 'verified',
  name: 'x',
  city: null,
  state: null,
  business_mode: 'online',
  latitude: null,
  longitude: null,
  npi: null,
  certification_status: 'verified',
  certification_source: 'Certifying Body',
  certification_source_url: 'https://cert.example.org/x',
  certification_verified_at: '2026-05-01T00:00:00Z',
  license_status: 'verified',
  license_source: 'State Board',
  license_source_url: null,
  license_verified_at: '2026-05-02T00:00:00Z',
  license_states_count: 3,
  fda_status: 'clear',
  fda_source: 'FDA warning letters',
  fda_source_url: 'https://www.fda.gov/x',
  fda_verified_at: '2026-05-03T00:00:00Z',
  price_range: '$199-$299/mo',
  price_monthly_min: 199,
  price_monthly_max: 299,
  price_source: 'Provider website',
  price_verified_at: '2026-05-04T00:00:00Z',
  oig_excluded: false,
  oig_type: null,
  oig_date: null,
  oig_checked_at: '2026-06-01T00:00:00Z',
  sample_rank: 'x',
  ...over,
});

/**
 * Vertical rows for the in-memory fakes of unit tests (never written as a snapshot: integration suites read what the
 * real ETL builds from test/fixtures/api-edge). `internal_only` ones are in the tracked set only; one name is
 * formula-like.
 */
export const FAKE_VERTICAL_ROWS: VerticalRow[] = [
  base({
    entity_id: 'glp1-0001',
    slug: 'acme-weight-clinic',
    name: 'Acme Weight Clinic',
    city: 'Austin',
    state: 'TX',
    business_mode: 'physical',
    latitude: 30.27,
    longitude: -97.74,
    npi: '1234567893',
    sample_rank: '05',
  }),
  base({
    entity_id: 'glp1-0002',
    slug: 'bluebonnet-health',
    name: 'Bluebonnet Health',
    city: 'AUSTIN',
    state: 'TX',
    business_mode: 'both',
    npi: '1245319599',
    sample_rank: '03',
  }),
  base({
    entity_id: 'glp1-0003',
    slug: 'coastal-glp1',
    name: 'Coastal GLP1',
    city: 'San Diego',
    state: 'CA',
    business_mode: 'physical',
    oig_excluded: true,
    oig_type: '1128a1',
    oig_date: '2019-04-18',
    sample_rank: '01',
  }),
  base({
    entity_id: 'glp1-0004',
    slug: 'online-slim',
    name: '=HYPERLINK("http://evil.example")',
    business_mode: 'online',
    price_range: '-$5 promo',
    sample_rank: '02',
  }),
  base({
    entity_id: 'glp1-0005',
    slug: 'dallas-metabolic',
    name: 'Dallas Metabolic',
    city: 'Dallas',
    state: 'TX',
    business_mode: 'physical',
    certification_status: 'reported',
    sample_rank: '04',
  }),
  base({
    entity_id: 'glp1-0006',
    slug: 'houston-tracked',
    name: 'Houston Tracked Only',
    city: 'Houston',
    state: 'TX',
    business_mode: 'physical',
    publish_tier: 'internal_only',
    certification_status: 'unverified',
    price_monthly_min: 777.77,
    sample_rank: '06',
  }),
  base({
    entity_id: 'glp1-0007',
    slug: 'fresno-tracked',
    name: 'Fresno Tracked Only',
    city: 'Fresno',
    state: 'CA',
    business_mode: 'online',
    publish_tier: 'internal_only',
    sample_rank: '07',
  }),
  base({
    entity_id: 'glp1-0008',
    slug: 'eagle-pharmacy',
    name: 'Eagle Pharmacy',
    city: 'El Paso',
    state: 'TX',
    business_mode: 'both',
    sample_rank: '08',
  }),
];
