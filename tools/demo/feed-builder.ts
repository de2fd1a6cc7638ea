/**
 * Building blocks shared by the demo feed and the benchmark feed: time, fictional provider names, places and NPIs.
 * The signal observations are in ./feed-observations.ts, the CSV serialisation of the curation feed
 * (data-contracts/feed.ts) in ./feed-csv.ts, the value tables in ./feed-tables.ts.
 */
import type { BusinessMode } from '../../data-contracts/constants';
import { makeNpi } from '../../data-contracts/npi-check';
import { IN_PERSON_DESCRIPTORS, LEGAL_SUFFIXES, NAME_PREFIXES, ONLINE_DESCRIPTORS } from './feed-tables';
import { createWeightedPicker, type Random } from './random';
import type { UsState } from './us-geography';

// ---------------------------------------------------------------------------------------------------------------
// Time

export const MINUTE = 60_000;
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
