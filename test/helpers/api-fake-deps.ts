/** In-memory dependencies of the API core for unit tests: no DuckDB, no DynamoDB. */
import type { PublishBoundary } from '../../data-contracts/constants';
import { identityRowsOf } from '../../data-contracts/identity-json';
import type { IdentityRow, VerticalRow } from '../../data-contracts/rows';
import type { CoreDeps, KeyRecord, MeterResult } from '../../lambdas/core/ports';
import { ProviderViews } from '../../lambdas/core/present-provider';
import type { ProviderData, VerticalListQuery } from '../../lambdas/query/types';
import { silentLogger } from '../../platform/logger';

export interface FakeOptions {
  verticalRows?: VerticalRow[];
  identityRows?: IdentityRow[];
  keys?: Record<string, KeyRecord>;
  meter?: () => MeterResult;
  /** Records the boundary of every vertical query. */
  boundaries?: PublishBoundary[];
  failWith?: Error;
}

/** Dependencies whose snapshot answers with the given rows (filtered by boundary like the partitions are). */
export function fakeDeps(options: FakeOptions = {}): CoreDeps {
  const rows = options.verticalRows ?? [];
  const inBoundary = (b: PublishBoundary) =>
    b === 'verified' ? rows.filter((r) => r.publish_tier === 'verified') : rows;
  const data: ProviderData = {
    snapshotId: '20260615T000000Z-unitfake',
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
    resolveTaxonomy: () => ({ kind: 'unknown' }),
    readStatic: async () => Buffer.from('{}'),
  };
  return {
    snapshots: { withSnapshot: (work) => work(data) },
    keys: { findByKey: async (k) => options.keys?.[k] ?? null },
    meter: { consume: async () => options.meter?.() ?? { outcome: 'unmetered' } },
    clock: () => new Date('2026-06-15T12:00:00Z'),
    logger: silentLogger,
    views: new ProviderViews(),
  };
}

export const FAKE_KEYS: Record<string, KeyRecord> = {
  free: { keyHash: 'hf', plan: 'free', vertical: null, status: 'active' },
  builder: { keyHash: 'hb', plan: 'builder', vertical: 'glp1', status: 'active' },
  developer: { keyHash: 'hd', plan: 'developer', vertical: null, status: 'active' },
  enterprise: { keyHash: 'he', plan: 'enterprise', vertical: null, status: 'active' },
};
