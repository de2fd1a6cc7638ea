/**
 * Building blocks shared by the demo feed and the benchmark feed: fictional provider names, places, NPIs,
 * signal observations, and the CSV serialisation of the curation feed (data-contracts/feed.ts).
 */
import { join } from 'node:path';
import type { BusinessMode, PublishTier, SignalName, SignalStatus } from '../../data-contracts/constants';
import {
  FEED_OBSERVATION_COLUMNS,
  FEED_PROVIDER_COLUMNS,
  type FeedObservationRow,
  type FeedProviderRow,
} from '../../data-contracts/feed';
import { makeNpi } from '../../etl/transforms/npi';
import { writeCsvFile } from './csv-write';
import { createWeightedPicker, type Random } from './random';
import type { UsState } from './us-geography';

/** Column order of the generated files: the contract's column tables, in declaration order. */
export const PROVIDER_HEADER = Object.keys(FEED_PROVIDER_COLUMNS) as (keyof typeof FEED_PROVIDER_COLUMNS)[];
export const OBSERVATION_HEADER = Object.keys(FEED_OBSERVATION_COLUMNS) as (keyof typeof FEED_OBSERVATION_COLUMNS)[];

export const FEED_FILES = { providers: 'providers.csv', observations: 'observations.csv' } as const;

/** A whole curation feed in memory. */
export interface Feed {
  providers: FeedProviderRow[];
  observations: FeedObservationRow[];
}

/** Statuses that make an observation a "sourced signal" when its source is set (feed.ts cross-row rule). */
export const SOURCED_STATUSES: readonly SignalStatus[] = ['verified', 'clear', 'flagged', 'reported'];

// ---------------------------------------------------------------------------------------------------------------
// Time

const MINUTE = 60_000;
export const DAY = 86_400_000;

/** ISO 8601 UTC at second precision, the form the feed uses: `2025-03-14T15:22:00Z`. */
export function formatTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A minute-aligned instant in [fromMs, toMs]. */
export function drawInstant(rng: Random, fromMs: number, toMs: number): number {
  return fromMs + rng.int(0, Math.floor((toMs - fromMs) / MINUTE)) * MINUTE;
}

/** The window the demo's observations fall in: 2025-01-01 to 2026-09-30 (UTC). */
export const OBSERVATION_WINDOW = { from: Date.UTC(2025, 0, 1), to: Date.UTC(2026, 8, 30, 23, 59) } as const;

// ---------------------------------------------------------------------------------------------------------------
// Names, places, NPIs

const NAME_PREFIXES = [
  'Harborview',
  'Summit',
  'Cedar Ridge',
  'Lakeshore',
  'Bluebird',
  'Northstar',
  'Evergreen',
  'Granite Peak',
  'Silver Maple',
  'Crescent',
  'Riverbend',
  'Meadowlark',
  'Copper Canyon',
  'Juniper',
  'Tidewater',
  'Oak Hollow',
  'Prairie Sky',
  'Redwood Trail',
  'Sandstone',
  'Willow Creek',
  'Brightwater',
  'Clearbrook',
  'Highland Pines',
  'Ironwood',
  'Larkspur',
  'Pinecrest',
  'Quail Run',
  'Sagebrush',
  'Stonegate',
  'Sunrise Valley',
  'Trailhead',
  'Wildflower',
  'Aspen Grove',
  'Lantern Bay',
  'Cobalt',
  'Driftwood',
  'Foxglove',
  'Kestrel',
  'Bramblewood',
  'Mossy Oak',
  'Seabright',
  'Thistle',
  'Amberly',
  'Rosewater',
  'Fernhill',
  'Goldcrest',
  'Marigold',
  'Saltmarsh',
] as const;
const IN_PERSON_DESCRIPTORS = [
  'Metabolic Health',
  'GLP-1 Clinic',
  'Weight Care',
  'Medical Weight Loss',
  'Metabolic Wellness',
  'Endocrine & Weight Center',
  'Obesity Medicine Associates',
  'Weight Management Partners',
  'Metabolic Medicine',
  'Lean Health Clinic',
  'Body Composition Clinic',
  'Family Weight Clinic',
] as const;
const ONLINE_DESCRIPTORS = [
  'Telehealth Weight Program',
  'Virtual GLP-1 Care',
  'Online Metabolic Health',
  'Digital Weight Clinic',
  'TeleMetabolic',
  'Remote Weight Care',
] as const;
const LEGAL_SUFFIXES = ['LLC', 'PLLC', 'P.C.', 'Inc.', 'P.A.', 'Medical Group, Inc.'] as const;

/** Turns a name into a kebab-case slug: `Summit GLP-1 Clinic` -> `summit-glp-1-clinic`. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Hands out fictional provider names whose slugs are unique within one feed. */
export interface ProviderNamer {
  draw(rng: Random, mode: BusinessMode, city: string | null): { name: string; slug: string };
}

/** Creates a namer; retries a few combinations, then qualifies by city, then numbers the name. */
export function createProviderNamer(): ProviderNamer {
  const taken = new Set<string>();
  return {
    draw(rng, mode, city) {
      const descriptors = mode === 'online' ? ONLINE_DESCRIPTORS : IN_PERSON_DESCRIPTORS;
      let name = '';
      for (let attempt = 0; attempt < 4; attempt++) {
        name = `${rng.pick(NAME_PREFIXES)} ${rng.pick(descriptors)}`;
        if (!taken.has(slugify(name))) break;
      }
      if (taken.has(slugify(name)) && city !== null) name = `${name} ${city}`;
      let candidate = name;
      for (let n = 2; taken.has(slugify(candidate)); n++) candidate = `${name} ${n}`;
      const slug = slugify(candidate);
      taken.add(slug);
      return { name: candidate, slug };
    },
  };
}

/** A legal name for a fictional provider: usually the name plus a corporate suffix (with a comma), sometimes none. */
export function drawLegalName(rng: Random, name: string): string | null {
  if (rng.chance(0.2)) return null;
  const suffix = rng.pick(LEGAL_SUFFIXES);
  return rng.chance(0.6) ? `${name}, ${suffix}` : `${name} ${suffix}`;
}

const BUSINESS_MODE_PICKER = createWeightedPicker<BusinessMode>([
  ['online', 30],
  ['physical', 35],
  ['both', 35],
]);

export function drawBusinessMode(rng: Random): BusinessMode {
  return BUSINESS_MODE_PICKER.pick(rng);
}

export interface Place {
  city: string | null;
  state: string | null;
  latitude: number | null;
  longitude: number | null;
}

export const NO_PLACE: Place = { city: null, state: null, latitude: null, longitude: null };

/** A real city of `state`, with the provider a little way from the city centre (about a mile). */
export function drawPlace(rng: Random, state: UsState): Place {
  const city = rng.pick(state.cities);
  const jitter = () => (rng.next() - 0.5) * 0.04;
  return {
    city: city.name,
    state: state.code,
    latitude: Math.round((city.lat + jitter()) * 1e4) / 1e4,
    longitude: Math.round((city.lon + jitter()) * 1e4) / 1e4,
  };
}

/** A synthetic, check-digit-valid NPI not in `taken` (which it extends). Starts with 1, as individual NPIs do. */
export function drawSyntheticNpi(rng: Random, taken: Set<string>): string {
  for (;;) {
    const npi = makeNpi(`1${String(rng.int(0, 99_999_999)).padStart(8, '0')}`);
    if (!taken.has(npi)) {
      taken.add(npi);
      return npi;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Observations

const CERTIFYING_BODIES = [
  { name: 'Telehealth Practice Certification Board', url: 'https://tpcb.example.org/verify/' },
  { name: 'National Council for Metabolic Care Accreditation', url: 'https://ncmca.example.org/directory/' },
  { name: 'Digital Prescriber Review Council', url: 'https://dprc.example.org/lookup/' },
] as const;

const FDA_LIST_URL =
  'https://www.fda.gov/inspections-compliance-enforcement-and-criminal-investigations/compliance-actions-and-activities/warning-letters';
export const FDA_SOURCE = 'U.S. Food and Drug Administration, Warning Letters';

const PRICE_FLOORS = [99, 129, 149, 179, 199, 229, 249, 299, 349, 399, 449] as const;
const PRICE_SPREADS = [0, 50, 100, 150, 200, 250, 300] as const;

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

type StatusMix = readonly (readonly [SignalStatus | null, number])[];

/** Per signal and tier, how likely each status is (`null`: no curated observation for that signal). */
const STATUS_MIX = {
  verified: {
    license: [
      ['verified', 78],
      ['reported', 10],
      ['unverified', 7],
      [null, 5],
    ],
    certification: [
      ['verified', 50],
      ['reported', 12],
      ['unverified', 10],
      ['flagged', 3],
      [null, 25],
    ],
    fda: [
      ['clear', 6],
      ['not_screened', 3],
      [null, 91],
    ],
    price: [
      ['reported', 40],
      ['verified', 20],
      ['unverified', 8],
      [null, 32],
    ],
  },
  internal_only: {
    license: [
      ['verified', 25],
      ['reported', 15],
      ['unverified', 35],
      [null, 25],
    ],
    certification: [
      ['verified', 10],
      ['reported', 10],
      ['unverified', 25],
      ['flagged', 6],
      [null, 49],
    ],
    fda: [
      ['clear', 3],
      ['not_screened', 8],
      [null, 89],
    ],
    price: [
      ['reported', 25],
      ['verified', 5],
      ['unverified', 10],
      [null, 60],
    ],
  },
} as const satisfies Record<PublishTier, Record<SignalName, StatusMix>>;

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

// ---------------------------------------------------------------------------------------------------------------
// Serialisation

const formatNumber = (value: number | null | undefined, decimals?: number): string =>
  value === null || value === undefined ? '' : decimals === undefined ? String(value) : value.toFixed(decimals);
const formatText = (value: string | null | undefined): string => value ?? '';

/** The CSV cells of a provider row, in {@link PROVIDER_HEADER} order; null becomes an empty cell. */
export function providerToCells(row: FeedProviderRow): string[] {
  return [
    row.entity_id,
    row.slug,
    row.vertical,
    row.name,
    formatText(row.legal_name),
    formatText(row.city),
    formatText(row.state),
    row.business_mode,
    formatNumber(row.latitude, 4),
    formatNumber(row.longitude, 4),
    formatText(row.npi),
    row.publish_tier,
  ];
}

/** The CSV cells of an observation row, in {@link OBSERVATION_HEADER} order. */
export function observationToCells(row: FeedObservationRow): string[] {
  return [
    row.entity_id,
    row.signal,
    row.status,
    formatText(row.source),
    formatText(row.source_url),
    formatText(row.verified_at),
    row.observed_at,
    formatNumber(row.states_count),
    formatText(row.price_range),
    formatNumber(row.price_monthly_min),
    formatNumber(row.price_monthly_max),
  ];
}

/** Writes `providers.csv` and `observations.csv` (RFC 4180, CRLF, header row) into `outDir`. */
export function writeFeed(outDir: string, feed: Feed): { providersFile: string; observationsFile: string } {
  const providersFile = join(outDir, FEED_FILES.providers);
  const observationsFile = join(outDir, FEED_FILES.observations);
  writeCsvFile(providersFile, PROVIDER_HEADER, feed.providers.map(providerToCells));
  writeCsvFile(observationsFile, OBSERVATION_HEADER, feed.observations.map(observationToCells));
  return { providersFile, observationsFile };
}
