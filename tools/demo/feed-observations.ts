/**
 * The curated signal observations of a fictional provider, shared by the demo feed and the benchmark feed: one
 * observation with its source and dates, a draw per signal from the tier's status mix, and the sourced-signal rule.
 */
import type { BusinessMode, PublishTier, SignalName, SignalStatus } from '../../data-contracts/constants';
import type { FeedObservationRow } from '../../data-contracts/feed';
import { DAY, drawInstant, formatTimestamp, MINUTE, OBSERVATION_WINDOW } from './feed-builder';
import { CERTIFYING_BODIES, FDA_LIST_URL, FDA_SOURCE, PRICE_FLOORS, PRICE_SPREADS, STATUS_MIX } from './feed-tables';
import { createWeightedPicker, type Random } from './random';

/** Statuses that make an observation a "sourced signal" when its source is set (feed.ts cross-row rule). */
export const SOURCED_STATUSES: readonly SignalStatus[] = ['verified', 'clear', 'flagged', 'reported'];

/** What an observation builder needs to know about its provider. */
export interface ObservedProvider {
  entity_id: string;
  slug: string;
  state: string | null;
  business_mode: BusinessMode;
}

/**
 * One observation of `signal` with `status`, observed at `observedAtMs`, with the source, dates and signal-specific
 * fields a curator would record for that status.
 */
export function makeObservation(
  rng: Random,
  provider: ObservedProvider,
  signal: SignalName,
  status: SignalStatus,
  observedAtMs: number,
  stateNames: ReadonlyMap<string, string>,
): FeedObservationRow {
  const row: FeedObservationRow = {
    entity_id: provider.entity_id,
    signal,
    status,
    source: null,
    source_url: null,
    verified_at: null,
    observed_at: formatTimestamp(observedAtMs),
    states_count: null,
    price_range: null,
    price_monthly_min: null,
    price_monthly_max: null,
  };
  // Independent checks are dated a little before the curator recorded them; self-reports on the day.
  const checkedAt = formatTimestamp(observedAtMs - rng.int(0, 72) * 3_600_000);
  const independent = status === 'verified' || status === 'clear' || status === 'flagged';
  if (independent) row.verified_at = checkedAt;
  if (status === 'reported') row.verified_at = row.observed_at;

  switch (signal) {
    case 'certification': {
      const body = CERTIFYING_BODIES[rng.int(0, CERTIFYING_BODIES.length - 1)] ?? CERTIFYING_BODIES[0];
      if (independent) {
        row.source = body.name;
        row.source_url = `${body.url}${provider.slug}`;
      } else if (status === 'reported') {
        row.source = 'Provider website (certification badge)';
        row.source_url = `https://${provider.slug}.example.com/about`;
      }
      break;
    }
    case 'license': {
      const stateName = provider.state === null ? undefined : stateNames.get(provider.state);
      if (independent) {
        row.source =
          stateName === undefined ? 'State medical board license lookups' : `${stateName} medical licensing board`;
        row.source_url = `https://license-lookup.example.org/${(provider.state ?? 'multi').toLowerCase()}/${provider.slug}`;
      } else if (status === 'reported') {
        row.source = 'Provider self-report (intake form)';
      }
      if (status !== 'unverified' && status !== 'not_screened') {
        // Online prescribers hold licences in many states; clinics in one or a few.
        row.states_count =
          provider.business_mode === 'online'
            ? rng.int(5, 51)
            : provider.business_mode === 'both'
              ? rng.int(1, 8)
              : rng.chance(0.75)
                ? 1
                : rng.int(2, 3);
      }
      break;
    }
    case 'fda': {
      if (independent) {
        row.source = FDA_SOURCE;
        row.source_url = FDA_LIST_URL;
      }
      break;
    }
    case 'price': {
      const min = rng.pick(PRICE_FLOORS);
      const max = min + rng.pick(PRICE_SPREADS);
      row.price_range = min === max ? `$${min}/mo` : `$${min}-$${max}/mo`;
      row.price_monthly_min = min;
      row.price_monthly_max = max;
      if (status === 'verified') {
        row.source = 'Checkout page capture';
        row.source_url = `https://${provider.slug}.example.com/checkout`;
      } else if (status === 'reported') {
        row.source = 'Provider website (published pricing)';
        row.source_url = `https://${provider.slug}.example.com/pricing`;
      }
      break;
    }
  }
  return row;
}

const STATUS_PICKERS = {
  verified: {
    license: createWeightedPicker(STATUS_MIX.verified.license),
    certification: createWeightedPicker(STATUS_MIX.verified.certification),
    fda: createWeightedPicker(STATUS_MIX.verified.fda),
    price: createWeightedPicker(STATUS_MIX.verified.price),
  },
  internal_only: {
    license: createWeightedPicker(STATUS_MIX.internal_only.license),
    certification: createWeightedPicker(STATUS_MIX.internal_only.certification),
    fda: createWeightedPicker(STATUS_MIX.internal_only.fda),
    price: createWeightedPicker(STATUS_MIX.internal_only.price),
  },
} as const;

/** Options of {@link drawObservations}. */
export interface DrawObservationsOptions {
  tier: PublishTier;
  /** Signals not to observe (the FDA-matching providers leave `fda` to the ETL's automated screen). */
  skipSignals?: readonly SignalName[];
  window?: { from: number; to: number };
}

/**
 * One observation per signal at most, with statuses drawn from the tier's mix. Internal-only providers sometimes
 * have none at all. Does not enforce the sourced-signal rule: see {@link ensureSourcedSignal}.
 */
export function drawObservations(
  rng: Random,
  provider: ObservedProvider,
  options: DrawObservationsOptions,
  stateNames: ReadonlyMap<string, string>,
): FeedObservationRow[] {
  const window = options.window ?? OBSERVATION_WINDOW;
  if (options.tier === 'internal_only' && rng.chance(0.12)) return [];
  const out: FeedObservationRow[] = [];
  for (const signal of ['certification', 'license', 'fda', 'price'] as const) {
    const status = STATUS_PICKERS[options.tier][signal].pick(rng);
    if (status === null || options.skipSignals?.includes(signal)) continue;
    // Leave room before the main observation for the older observations of the history cases.
    out.push(
      makeObservation(rng, provider, signal, status, drawInstant(rng, window.from + 60 * DAY, window.to), stateNames),
    );
  }
  return out;
}

/** True when the observation counts as a sourced signal under the feed's cross-row rule. */
export function isSourcedObservation(row: FeedObservationRow): boolean {
  return SOURCED_STATUSES.includes(row.status) && row.source !== null && row.source !== undefined && row.source !== '';
}

/**
 * The latest observation per signal, by `observed_at` and, on a tie, the later row: the rule the ETL applies.
 * ISO timestamps of one form compare correctly as strings.
 */
export function latestBySignal(rows: readonly FeedObservationRow[]): Map<SignalName, FeedObservationRow> {
  const latest = new Map<SignalName, FeedObservationRow>();
  for (const row of rows) {
    const current = latest.get(row.signal);
    if (current === undefined || row.observed_at >= current.observed_at) latest.set(row.signal, row);
  }
  return latest;
}

/**
 * Makes sure a verified provider carries a sourced signal among its LATEST observations (stricter than the rule,
 * which an ETL could read either way): when it does not, appends a newer verified licence check.
 */
export function ensureSourcedSignal(
  rng: Random,
  provider: ObservedProvider,
  rows: FeedObservationRow[],
  stateNames: ReadonlyMap<string, string>,
  window: { from: number; to: number } = OBSERVATION_WINDOW,
): void {
  const latest = latestBySignal(rows);
  if ([...latest.values()].some(isSourcedObservation)) return;
  const newest = rows.reduce((max, row) => Math.max(max, Date.parse(row.observed_at)), 0);
  const from = Math.max(window.from + 60 * DAY, newest + MINUTE);
  rows.push(
    makeObservation(
      rng,
      provider,
      'license',
      'verified',
      drawInstant(rng, from, Math.max(from, window.to)),
      stateNames,
    ),
  );
}
