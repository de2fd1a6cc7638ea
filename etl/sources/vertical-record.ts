/**
 * A feed provider and its winning observations (see `feed-rules.ts`) as a vertical record (VERTICAL_TABLE row),
 * with the automated FDA screen and the OIG match.
 */
import { createHash } from 'node:crypto';
import type { SignalName } from '../../data-contracts/constants';
import type { FeedObservationRow, FeedProviderRow } from '../../data-contracts/feed';
import type { VerticalColumn } from '../../data-contracts/layout';
import { type FdaLetter, screenFda } from './fda';
import { instantOf } from './feed-rules';

/** A vertical record: one row of the tracked (and, when verified, the verified) partitions. */
export type VerticalRecord = { [K in VerticalColumn]: string | number | boolean | null };

export interface OigMatch {
  oig_type: string | null;
  oig_date: string | null;
  oig_checked_at: string | null;
}

export interface ScreenContext {
  snapshotTime: string;
  letters: ReadonlyMap<string, FdaLetter>;
  newestLetterDate: string | null;
  oig: ReadonlyMap<string, OigMatch>;
}

/** The public sample's deterministic order key: SHA-256 hex of the entity id. */
export function sampleRank(entityId: string): string {
  return createHash('sha256').update(entityId).digest('hex');
}

/**
 * One provider and its winning observations as a vertical record, with the automated FDA screen and the OIG match.
 * A curated `fda` observation wins over the screen when its `observed_at` is later than the screen's finding date
 * (the letter date for a match; the newest letter date in the lists for a clear screen), at midnight UTC.
 */
export function buildVerticalRecord(
  provider: FeedProviderRow,
  winners: ReadonlyMap<SignalName, FeedObservationRow> | undefined,
  ctx: ScreenContext,
): VerticalRecord {
  const obs = (s: SignalName) => winners?.get(s);
  const cert = obs('certification');
  const lic = obs('license');
  const price = obs('price');
  const curatedFda = obs('fda');
  const screen = screenFda(provider.legal_name ?? provider.name, ctx.letters, ctx.snapshotTime, ctx.newestLetterDate);
  const curatedWins =
    curatedFda !== undefined &&
    (screen.finding_date === null || instantOf(curatedFda.observed_at) > instantOf(`${screen.finding_date}T00:00:00Z`));
  const fda = curatedWins
    ? {
        status: curatedFda.status,
        source: curatedFda.source ?? null,
        source_url: curatedFda.source_url ?? null,
        verified_at: curatedFda.verified_at ?? null,
      }
    : screen;
  const oig = provider.npi ? ctx.oig.get(provider.npi) : undefined;
  return {
    entity_id: provider.entity_id,
    slug: provider.slug,
    vertical: provider.vertical,
    publish_tier: provider.publish_tier,
    name: provider.name,
    city: provider.city ?? null,
    state: provider.state ? provider.state.toUpperCase() : null,
    business_mode: provider.business_mode,
    latitude: provider.latitude ?? null,
    longitude: provider.longitude ?? null,
    npi: provider.npi ?? null,
    certification_status: cert?.status ?? 'unverified',
    certification_source: cert?.source ?? null,
    certification_source_url: cert?.source_url ?? null,
    certification_verified_at: cert?.verified_at ?? null,
    license_status: lic?.status ?? 'unverified',
    license_source: lic?.source ?? null,
    license_source_url: lic?.source_url ?? null,
    license_verified_at: lic?.verified_at ?? null,
    license_states_count: lic?.states_count ?? 0,
    fda_status: fda.status,
    fda_source: fda.source,
    fda_source_url: fda.source_url,
    fda_verified_at: fda.verified_at,
    price_range: price?.price_range ?? null,
    price_monthly_min: price?.price_monthly_min ?? null,
    price_monthly_max: price?.price_monthly_max ?? null,
    price_source: price?.source ?? null,
    price_verified_at: price?.verified_at ?? null,
    oig_excluded: oig !== undefined,
    oig_type: oig?.oig_type ?? null,
    oig_date: oig?.oig_date ?? null,
    oig_checked_at: oig?.oig_checked_at ?? null,
    sample_rank: sampleRank(provider.entity_id),
  };
}
