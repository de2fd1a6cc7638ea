/**
 * The deterministic demo curation feed for `glp1`: `tools/demo/glp1/providers.csv` and `observations.csv`, in the
 * format of data-contracts/feed.ts. Every provider is FICTIONAL; a few borrow real identifiers from the committed
 * public sample files so that the ETL's screens have something to find (see tools/demo/README.md).
 *
 * Usage: `npm run demo:feed` (= `tsx tools/demo/generate-demo-feed.ts [--out DIR]`). Same inputs, same bytes.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { PublishTier, SignalName, SignalStatus } from '../../data-contracts/constants';
import type { FeedObservationRow, FeedProviderRow } from '../../data-contracts/feed';
import {
  createProviderNamer,
  DAY,
  drawBusinessMode,
  drawInstant,
  drawLegalName,
  drawPlace,
  drawSyntheticNpi,
  NO_PLACE,
  OBSERVATION_WINDOW,
  type Place,
} from './feed-builder';
import { type Feed, writeFeed } from './feed-csv';
import { drawObservations, ensureSourcedSignal, makeObservation } from './feed-observations';
import { FDA_SOURCE } from './feed-tables';
import { createRandom, createWeightedPicker } from './random';
import { DEFAULT_SOURCE_DIR, type FdaCompany, type LeieNpi, loadSourceFacts, type SourceFacts } from './source-facts';
import { US_STATES, type UsState } from './us-geography';

export const DEMO_SEED = 20_260_101;
export const DEMO_VERTICAL = 'glp1' as const;
export const DEMO_TRACKED_COUNT = 340;
export const DEMO_VERIFIED_COUNT = 200;
/** Where `npm run demo:feed` writes, and where the committed files live. */
export const DEMO_FEED_DIR = resolve(__dirname, DEMO_VERTICAL);

/** Real LEIE NPIs used: the first five of leie.csv (individuals) and the first three of leie_head.csv (entities). */
const LEIE_PICKS = { 'leie.csv': 5, 'leie_head.csv': 3 } as const;
/** FDA-matching providers: the first six GLP-1-relevant companies of the scraped list, two of the 2023 export. */
const FDA_PICKS = { scraped: 6, export: 2 } as const;
/** Of the FDA-matching providers, how many also carry a curated `flagged` FDA observation (the rest rely on the ETL screen). */
const FDA_CURATED_FLAGS = 3;
/** Real active NPPES NPIs (first organisations, then individuals, in file order). */
const NPPES_PICKS = { organisations: 12, individuals: 4 } as const;
const NO_NPI_SHARE = 0.12;

/**
 * Providers with SEVERAL observations for one signal, so that "latest observed_at wins" is exercised:
 * - glp1-000004 certification: unverified (older) -> verified (newer); older line first.
 * - glp1-000011 price: reported band (older) -> another reported band (newer); NEWER line first.
 * - glp1-000023 license: verified (older) -> flagged (newer); older line first.
 * - glp1-000042 fda: not_screened (older) -> clear (newer); NEWER line first.
 * - glp1-000057 certification: verified (older) -> flagged (newer); older line first.
 * - glp1-000068 price: unverified (older) -> verified (newer); older line first.
 * - glp1-000090 license: reported and verified with the SAME observed_at; the later line (verified) wins the tie.
 * - glp1-000133 certification: reported (older) -> unverified (newer); NEWER line first.
 * None of them is one of the FDA-matching or LEIE providers.
 */
export const HISTORY_CASES = [
  { entityId: 'glp1-000004', signal: 'certification', older: 'unverified', newer: 'verified', order: 'older-first' },
  { entityId: 'glp1-000011', signal: 'price', older: 'reported', newer: 'reported', order: 'newer-first' },
  { entityId: 'glp1-000023', signal: 'license', older: 'verified', newer: 'flagged', order: 'older-first' },
  { entityId: 'glp1-000042', signal: 'fda', older: 'not_screened', newer: 'clear', order: 'newer-first' },
  { entityId: 'glp1-000057', signal: 'certification', older: 'verified', newer: 'flagged', order: 'older-first' },
  { entityId: 'glp1-000068', signal: 'price', older: 'unverified', newer: 'verified', order: 'older-first' },
  { entityId: 'glp1-000090', signal: 'license', older: 'reported', newer: 'verified', order: 'same-time' },
  { entityId: 'glp1-000133', signal: 'certification', older: 'reported', newer: 'unverified', order: 'newer-first' },
] as const satisfies readonly {
  entityId: string;
  signal: SignalName;
  older: SignalStatus;
  newer: SignalStatus;
  order: 'older-first' | 'newer-first' | 'same-time';
}[];

/** The provider whose legal name carries double quotes, so that CSV quoting is exercised. */
const QUOTED_NAME_ENTITY = 'glp1-000007';

/** What the demo feed borrowed from the real files, for the tests and the report. */
export interface DemoFeedReport {
  leieProviders: { entityId: string; npi: string; file: string; tier: PublishTier }[];
  fdaProviders: { entityId: string; legalName: string; file: string; subject: string; tier: PublishTier }[];
  nppesProviders: { entityId: string; npi: string }[];
}

type Role =
  | { kind: 'leie'; leie: LeieNpi; tier: PublishTier }
  | { kind: 'fda'; fda: FdaCompany; tier: PublishTier; curatedFlag: boolean }
  | { kind: 'nppes'; npi: string }
  | { kind: 'plain' };

const entityIdOf = (n: number): string => `glp1-${String(n).padStart(6, '0')}`;

/** Parses the fda files' `MM/DD/YYYY` as noon UTC. */
function parseUsDate(value: string): number {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value);
  if (m === null) throw new Error(`expected MM/DD/YYYY, got ${JSON.stringify(value)}`);
  return Date.UTC(Number(m[3]), Number(m[1]) - 1, Number(m[2]), 12);
}

/** Assigns the special roles to entity numbers, avoiding the history cases. */
function assignRoles(rng: ReturnType<typeof createRandom>, facts: SourceFacts): Map<number, Role> {
  const historyNumbers = new Set<number>(HISTORY_CASES.map((h) => Number(h.entityId.slice(5))));
  historyNumbers.add(Number(QUOTED_NAME_ENTITY.slice(5)));
  const free = rng.shuffle(
    Array.from({ length: DEMO_TRACKED_COUNT }, (_, i) => i + 1).filter((n) => !historyNumbers.has(n)),
  );
  const roles = new Map<number, Role>();
  const take = (): number => {
    const n = free.shift();
    if (n === undefined) throw new Error('not enough providers for the special roles');
    return n;
  };

  const leie = [
    ...facts.leie.filter((l) => l.file === 'leie.csv').slice(0, LEIE_PICKS['leie.csv']),
    ...facts.leie.filter((l) => l.file === 'leie_head.csv').slice(0, LEIE_PICKS['leie_head.csv']),
  ];
  leie.forEach((l, i) => {
    roles.set(take(), { kind: 'leie', leie: l, tier: i % 2 === 0 ? 'verified' : 'internal_only' });
  });

  const scraped = facts.fdaScraped.slice(0, FDA_PICKS.scraped);
  const chosen = new Set(scraped.map((f) => f.company));
  const fromExport = facts.fdaExport.filter((f) => !chosen.has(f.company)).slice(0, FDA_PICKS.export);
  [...scraped, ...fromExport].forEach((f, i) => {
    roles.set(take(), {
      kind: 'fda',
      fda: f,
      tier: i % 2 === 0 ? 'verified' : 'internal_only',
      curatedFlag: i < FDA_CURATED_FLAGS,
    });
  });

  const nppes = [
    ...facts.nppesActive.filter((p) => p.entityType === '2').slice(0, NPPES_PICKS.organisations),
    ...facts.nppesActive.filter((p) => p.entityType === '1').slice(0, NPPES_PICKS.individuals),
  ];
  for (const p of nppes) roles.set(take(), { kind: 'nppes', npi: p.npi });
  if (leie.length < 5 || scraped.length + fromExport.length < 6 || nppes.length < 5) {
    throw new Error('the source files hold too few LEIE NPIs, FDA companies or NPPES NPIs for the demo');
  }
  return roles;
}

/**
 * Builds the demo feed in memory from the real sample files' identifiers. Pure apart from reading `sourceDir`.
 * @returns the feed and what it borrowed from the real files.
 */
export function buildDemoFeed(sourceDir: string = DEFAULT_SOURCE_DIR): { feed: Feed; report: DemoFeedReport } {
  const facts = loadSourceFacts(sourceDir);
  const rng = createRandom(DEMO_SEED);
  const roles = assignRoles(rng, facts);
  const stateNames = new Map(US_STATES.map((s) => [s.code, s.name]));
  const statePicker = createWeightedPicker<UsState>(
    US_STATES.filter((s) => s.isStateOrDc).map((s) => [s, s.population]),
  );

  // Exactly DEMO_VERIFIED_COUNT verified: the special roles carry their own tier, the rest share what is left.
  let verifiedLeft = DEMO_VERIFIED_COUNT;
  for (const role of roles.values()) if ('tier' in role && role.tier === 'verified') verifiedLeft--;
  const plainCount = DEMO_TRACKED_COUNT - [...roles.values()].filter((r) => 'tier' in r).length;
  const plainTiers = rng.shuffle(
    Array.from({ length: plainCount }, (_, i): PublishTier => (i < verifiedLeft ? 'verified' : 'internal_only')),
  );

  const takenNpis = new Set<string>([...facts.leie.map((l) => l.npi), ...facts.nppesActive.map((p) => p.npi)]);
  const namer = createProviderNamer();
  const providers: FeedProviderRow[] = [];
  const observations: FeedObservationRow[] = [];
  const report: DemoFeedReport = { leieProviders: [], fdaProviders: [], nppesProviders: [] };

  for (let n = 1; n <= DEMO_TRACKED_COUNT; n++) {
    const entityId = entityIdOf(n);
    const role: Role = roles.get(n) ?? { kind: 'plain' };
    const tier: PublishTier = 'tier' in role ? role.tier : (plainTiers.pop() as PublishTier);
    const businessMode = drawBusinessMode(rng);
    // Half of the online-only providers publish no location at all.
    const place: Place =
      businessMode === 'online' && rng.chance(0.5) ? NO_PLACE : drawPlace(rng, statePicker.pick(rng));
    const { name, slug } = namer.draw(rng, businessMode, place.city);
    let legalName = drawLegalName(rng, name);
    let npi: string | null;
    switch (role.kind) {
      case 'leie':
        npi = role.leie.npi;
        report.leieProviders.push({ entityId, npi, file: role.leie.file, tier });
        break;
      case 'nppes':
        npi = role.npi;
        report.nppesProviders.push({ entityId, npi });
        break;
      case 'fda':
        // The legal name is the company's name exactly as the FDA list prints it, so any name normalisation matches.
        legalName = role.fda.company;
        npi = rng.chance(NO_NPI_SHARE) ? null : drawSyntheticNpi(rng, takenNpis);
        report.fdaProviders.push({ entityId, legalName, file: role.fda.file, subject: role.fda.subject, tier });
        break;
      default:
        npi = rng.chance(NO_NPI_SHARE) ? null : drawSyntheticNpi(rng, takenNpis);
    }
    if (entityId === QUOTED_NAME_ENTITY) legalName = `The "${name.split(' ')[0]}" Metabolic Group, LLC`;

    const provider: FeedProviderRow = {
      entity_id: entityId,
      slug,
      vertical: DEMO_VERTICAL,
      name,
      legal_name: legalName,
      city: place.city,
      state: place.state,
      business_mode: businessMode,
      latitude: place.latitude,
      longitude: place.longitude,
      npi,
      publish_tier: tier,
    };
    providers.push(provider);

    const observed = { entity_id: entityId, slug, state: place.state, business_mode: businessMode };
    // FDA-matching providers leave the fda signal to the ETL's screen, or carry a curated flag; never a curated clear.
    const rows = drawObservations(rng, observed, { tier, skipSignals: role.kind === 'fda' ? ['fda'] : [] }, stateNames);
    if (role.kind === 'fda' && role.curatedFlag) {
      const letterAt = parseUsDate(role.fda.letterDate);
      const flag = makeObservation(
        rng,
        observed,
        'fda',
        'flagged',
        drawInstant(rng, Math.max(OBSERVATION_WINDOW.from, letterAt + DAY), OBSERVATION_WINDOW.to),
        stateNames,
      );
      flag.source = FDA_SOURCE;
      flag.source_url = role.fda.url ?? flag.source_url;
      flag.verified_at = new Date(letterAt).toISOString().replace(/\.\d{3}Z$/, 'Z');
      rows.push(flag);
    }
    const history = HISTORY_CASES.find((h) => h.entityId === entityId);
    const withHistory = history === undefined ? rows : applyHistory(rng, observed, rows, history, stateNames);
    if (tier === 'verified') ensureSourcedSignal(rng, observed, withHistory, stateNames);
    observations.push(...withHistory);
  }
  return { feed: { providers, observations }, report };
}

/** Replaces the provider's observation of the case's signal by an (older, newer) pair in the case's file order. */
function applyHistory(
  rng: ReturnType<typeof createRandom>,
  provider: { entity_id: string; slug: string; state: string | null; business_mode: FeedProviderRow['business_mode'] },
  rows: FeedObservationRow[],
  history: (typeof HISTORY_CASES)[number],
  stateNames: ReadonlyMap<string, string>,
): FeedObservationRow[] {
  const others = rows.filter((r) => r.signal !== history.signal);
  const newerAt = drawInstant(rng, OBSERVATION_WINDOW.from + 180 * DAY, OBSERVATION_WINDOW.to);
  const olderAt =
    history.order === 'same-time' ? newerAt : drawInstant(rng, OBSERVATION_WINDOW.from, newerAt - 60 * DAY);
  const older = makeObservation(rng, provider, history.signal, history.older, olderAt, stateNames);
  const newer = makeObservation(rng, provider, history.signal, history.newer, newerAt, stateNames);
  return [...others, ...(history.order === 'newer-first' ? [newer, older] : [older, newer])];
}

/** Builds the demo feed and writes it to `outDir` (default: tools/demo/glp1). */
export function writeDemoFeed(
  outDir: string = DEMO_FEED_DIR,
  sourceDir: string = DEFAULT_SOURCE_DIR,
): { providersFile: string; observationsFile: string; feed: Feed; report: DemoFeedReport } {
  const { feed, report } = buildDemoFeed(sourceDir);
  return { ...writeFeed(outDir, feed), feed, report };
}

if (require.main === module) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, source: { type: 'string' } } });
  const result = writeDemoFeed(values.out ?? DEMO_FEED_DIR, values.source ?? DEFAULT_SOURCE_DIR);
  const verified = result.feed.providers.filter((p) => p.publish_tier === 'verified').length;
  process.stdout.write(
    `wrote ${result.providersFile} (${result.feed.providers.length} providers, ${verified} verified)\n` +
      `wrote ${result.observationsFile} (${result.feed.observations.length} observations)\n`,
  );
}
