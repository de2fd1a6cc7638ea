/**
 * A large synthetic `glp1` curation feed for the API benchmark, in the format of data-contracts/feed.ts:
 * fictional providers in every state and territory (weighted by population, each at least once), mostly verified,
 * with the same signal mix as the demo feed. Deterministic for a given seed.
 *
 * CLI: `tsx tools/bench-data/generate-feed.ts --out DIR [--providers N] [--seed S]`
 */
import { parseArgs } from 'node:util';
import type { PublishTier } from '../../data-contracts/constants';
import type { FeedObservationRow, FeedProviderRow } from '../../data-contracts/feed';
import {
  createProviderNamer,
  drawBusinessMode,
  drawLegalName,
  drawPlace,
  drawSyntheticNpi,
  NO_PLACE,
  type Place,
} from '../demo/feed-builder';
import { type Feed, writeFeed } from '../demo/feed-csv';
import { drawObservations, ensureSourcedSignal } from '../demo/feed-observations';
import { createRandom, createWeightedPicker } from '../demo/random';
import { US_STATES, type UsState } from '../demo/us-geography';

/** Options of {@link generateVerticalFeed}. */
export interface GenerateVerticalFeedOptions {
  /** Number of provider rows; at least the number of state codes (56) so every state is present. Default 10,000. */
  providers?: number;
  outDir: string;
  /** Default 1. */
  seed?: number;
  /** Share of verified providers. Default 0.9. */
  verifiedShare?: number;
}

/** Entity ids of the benchmark feed: `glp1-b0000001`, distinct from the demo feed's `glp1-000001`. */
const benchEntityId = (n: number): string => `glp1-b${String(n).padStart(7, '0')}`;

/**
 * Builds the benchmark feed in memory (deterministic for a seed).
 * @example buildVerticalFeed({ providers: 10_000, seed: 1 })
 */
export function buildVerticalFeed(options: Omit<GenerateVerticalFeedOptions, 'outDir'> = {}): Feed {
  const count = options.providers ?? 10_000;
  if (!Number.isInteger(count) || count < US_STATES.length) {
    throw new Error(`providers must be an integer >= ${US_STATES.length}: ${count}`);
  }
  const verifiedShare = options.verifiedShare ?? 0.9;
  const rng = createRandom(options.seed ?? 1);
  const stateNames = new Map(US_STATES.map((s) => [s.code, s.name]));
  const statePicker = createWeightedPicker<UsState>(US_STATES.map((s) => [s, s.population]));
  const namer = createProviderNamer();
  const takenNpis = new Set<string>();
  const providers: FeedProviderRow[] = [];
  const observations: FeedObservationRow[] = [];

  for (let n = 1; n <= count; n++) {
    const entityId = benchEntityId(n);
    const tier: PublishTier = rng.chance(verifiedShare) ? 'verified' : 'internal_only';
    // The first providers visit every state once, so each state partition exists; the rest follow population.
    const forcedState = n <= US_STATES.length ? US_STATES[n - 1] : undefined;
    const businessMode = forcedState === undefined ? drawBusinessMode(rng) : rng.chance(0.5) ? 'physical' : 'both';
    const place: Place =
      businessMode === 'online' && rng.chance(0.3) ? NO_PLACE : drawPlace(rng, forcedState ?? statePicker.pick(rng));
    const { name, slug } = namer.draw(rng, businessMode, place.city);
    providers.push({
      entity_id: entityId,
      slug,
      vertical: 'glp1',
      name,
      legal_name: drawLegalName(rng, name),
      city: place.city,
      state: place.state,
      business_mode: businessMode,
      latitude: place.latitude,
      longitude: place.longitude,
      npi: rng.chance(0.1) ? null : drawSyntheticNpi(rng, takenNpis),
      publish_tier: tier,
    });
    const observed = { entity_id: entityId, slug, state: place.state, business_mode: businessMode };
    const rows = drawObservations(rng, observed, { tier }, stateNames);
    if (tier === 'verified') ensureSourcedSignal(rng, observed, rows, stateNames);
    observations.push(...rows);
  }
  return { providers, observations };
}

/**
 * Writes the benchmark feed (`providers.csv`, `observations.csv`) into `outDir`.
 * @example generateVerticalFeed({ providers: 10_000, outDir: '/tmp/bench-feed/glp1', seed: 1 })
 */
export function generateVerticalFeed(options: GenerateVerticalFeedOptions): {
  providersFile: string;
  observationsFile: string;
  providers: number;
  verified: number;
  observations: number;
} {
  const feed = buildVerticalFeed(options);
  return {
    ...writeFeed(options.outDir, feed),
    providers: feed.providers.length,
    verified: feed.providers.filter((p) => p.publish_tier === 'verified').length,
    observations: feed.observations.length,
  };
}

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      providers: { type: 'string', default: '10000' },
      seed: { type: 'string', default: '1' },
    },
  });
  if (values.out === undefined) {
    process.stderr.write('usage: tsx tools/bench-data/generate-feed.ts --out DIR [--providers N] [--seed S]\n');
    process.exit(2);
  }
  const result = generateVerticalFeed({
    outDir: values.out,
    providers: Number(values.providers),
    seed: Number(values.seed),
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
