/**
 * The vertical curation feed (format: data-contracts/feed.ts) to vertical records (VERTICAL_TABLE rows).
 *
 * Per folder: `providers.csv` and `observations.csv`. Cells are trimmed; an empty cell is null; the numeric columns
 * become numbers (a cell that is not a number stays text, so the schema rejects it by name). Rows are validated with
 * Ajv (JSON Schema 2020-12), then the cross-row rules run in this order:
 * 1. providers: unique `entity_id`, unique `slug` (the later duplicate is rejected), NPI check digit;
 * 2. observations: the entity must be an accepted provider;
 * 3. the latest observation per (entity, signal) wins (`observed_at`, ties: the later line);
 * 4. a `verified` provider needs a sourced signal among its winning observations (status verified, clear, flagged or
 *    reported, with a source); otherwise the provider is rejected, and so are its observations (as observations of
 *    an entity that is not in the snapshot).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import type { SignalName } from '../../data-contracts/constants';
import {
  FEED_OBSERVATION_COLUMNS,
  FEED_OBSERVATION_REQUIRED_COLUMNS,
  FEED_OBSERVATION_SCHEMA,
  FEED_PROVIDER_COLUMNS,
  FEED_PROVIDER_REQUIRED_COLUMNS,
  FEED_PROVIDER_SCHEMA,
  type FeedCellType,
  type FeedObservationRow,
  type FeedProviderRow,
} from '../../data-contracts/feed';
import type { VerticalColumn } from '../../data-contracts/layout';
import { type CsvRecord, readSmallCsv, requireColumns } from '../csv-read';
import { EtlInputError } from '../errors';
import type { RejectSink } from '../rejects';
import { isValidNpi } from '../transforms/npi';
import { type FdaLetter, screenFda } from './fda';

export const FEED_FILES = { providers: 'providers.csv', observations: 'observations.csv' } as const;

/** Statuses that make a curated observation a sourced signal (when it also names its source). */
export const SOURCED_STATUSES = ['verified', 'clear', 'flagged', 'reported'] as const;

type Cell = string | number | null;
export type FeedCells = Record<string, Cell>;

/**
 * Turns CSV cells into the values the schema validates: trimmed, empty -> null, numeric columns -> numbers.
 * Unknown columns are kept (the schema rejects them: `additionalProperties: false`).
 * @example convertFeedCells(['a', 'lat'], ['x', ' 1.5 '], { lat: 'number' }) -> { a: 'x', lat: 1.5 }
 */
export function convertFeedCells(
  header: readonly string[],
  fields: readonly string[],
  types: Readonly<Record<string, FeedCellType>>,
): FeedCells {
  const out: FeedCells = {};
  header.forEach((name, i) => {
    const text = (fields[i] ?? '').trim();
    if (text === '') {
      out[name] = null;
      return;
    }
    const type = types[name];
    if (type === 'number' || type === 'integer') {
      const n = Number(text);
      out[name] = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) && Number.isFinite(n) ? n : text;
      return;
    }
    out[name] = text;
  });
  return out;
}

const ajv = new Ajv2020({ allErrors: false, strict: true });
const validateProvider = ajv.compile(FEED_PROVIDER_SCHEMA) as ValidateFunction<FeedProviderRow>;
const validateObservation = ajv.compile(FEED_OBSERVATION_SCHEMA) as ValidateFunction<FeedObservationRow>;

/** One readable reason from Ajv's errors: the deepest failing keyword, the field and its value. */
export function describeSchemaError(errors: readonly ErrorObject[] | null | undefined, row: FeedCells): string {
  const error = errors?.[0];
  if (!error) return 'invalid row';
  const field = error.instancePath.split('/').filter(Boolean)[0] ?? '';
  if (error.keyword === 'required') return `missing ${String(error.params.missingProperty)}`;
  if (error.keyword === 'additionalProperties') return `unknown column ${String(error.params.additionalProperty)}`;
  const value = field === '' ? '' : ` (${JSON.stringify(row[field])})`;
  const detail =
    error.keyword === 'enum'
      ? `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`
      : (error.message ?? error.keyword);
  return `${field === '' ? 'row' : field}${value}: ${detail}`;
}

export interface FeedProvider extends FeedProviderRow {
  line: number;
  file: string;
}
export interface FeedObservation extends FeedObservationRow {
  line: number;
  file: string;
}

export interface FeedReadResult {
  providers: FeedProvider[];
  observations: FeedObservation[];
  counts: {
    providers: { file: string; read: number; accepted: number; rejected: number }[];
    observations: { file: string; read: number; accepted: number; rejected: number }[];
  };
}

async function readFeedFile(
  file: string,
  columns: Readonly<Record<string, FeedCellType>>,
  required: readonly string[],
): Promise<{ header: string[]; records: CsvRecord[] }> {
  const { header, records } = await readSmallCsv(file);
  requireColumns(file, header, required);
  const unknown = header.find((h) => !(h in columns));
  if (unknown !== undefined) throw new EtlInputError(file, `unknown column "${unknown}"`, unknown);
  return { header, records };
}

const instant = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NaN);

/**
 * The winning observation per (entity, signal): the latest `observed_at`; ties go to the later line read.
 * @example latestObservations([{ entity_id: 'a', signal: 'fda', observed_at: '2026-01-01T00:00:00Z', ... }, ...])
 */
export function latestObservations<T extends Pick<FeedObservationRow, 'entity_id' | 'signal' | 'observed_at'>>(
  observations: readonly T[],
): Map<string, Map<SignalName, T>> {
  const out = new Map<string, Map<SignalName, T>>();
  for (const obs of observations) {
    let bySignal = out.get(obs.entity_id);
    if (!bySignal) {
      bySignal = new Map();
      out.set(obs.entity_id, bySignal);
    }
    const held = bySignal.get(obs.signal);
    if (!held || instant(obs.observed_at) >= instant(held.observed_at)) bySignal.set(obs.signal, obs);
  }
  return out;
}

/** True when an observation is a sourced signal (what a `verified` record needs at least one of). */
export function isSourcedSignal(obs: Pick<FeedObservationRow, 'status' | 'source'>): boolean {
  return (SOURCED_STATUSES as readonly string[]).includes(obs.status) && !!obs.source && obs.source.trim() !== '';
}

type FileCounts = FeedReadResult['counts']['providers'][number];

/** How the rows of one feed file are validated and accepted: the table that drives `validateRows`. */
interface RowRules<Row, Out> {
  source: 'feed_providers' | 'feed_observations';
  columns: Readonly<Record<string, FeedCellType>>;
  validate: ValidateFunction<Row>;
  /** Cross-row rules on a schema-valid row, in order: the first reject reason, or null to accept. */
  check(row: Row): string | null;
  /** The accepted record (registered by the caller's rules for later rows). */
  accept(row: Row, line: number, file: string): Out;
}

/**
 * The one row-validation loop: field count, then the JSON Schema, then the file's cross-row rules. Each rejected row
 * goes to `rejects` with its line and reason.
 */
function validateRows<Row, Out>(
  file: string,
  { header, records }: { header: string[]; records: CsvRecord[] },
  rules: RowRules<Row, Out>,
  rejects: RejectSink,
): { accepted: Out[]; counts: FileCounts } {
  const counts = { file, read: records.length, accepted: 0, rejected: 0 };
  const accepted: Out[] = [];
  for (const rec of records) {
    const cells = convertFeedCells(header, rec.fields, rules.columns);
    const reason =
      rec.fields.length !== header.length
        ? `expected ${header.length} fields, found ${rec.fields.length}`
        : !rules.validate(cells)
          ? describeSchemaError(rules.validate.errors, cells)
          : rules.check(cells as unknown as Row);
    if (reason !== null) {
      rejects.add({ source: rules.source, file, line: rec.line, reason, raw: rec.raw });
      counts.rejected += 1;
      continue;
    }
    accepted.push(rules.accept(cells as unknown as Row, rec.line, file));
    counts.accepted += 1;
  }
  return { accepted, counts };
}

/**
 * Reads and validates every feed folder. Rejected rows go to `rejects`; a missing file or required column fails
 * the run (EtlInputError).
 */
export async function readFeeds(folders: readonly string[], rejects: RejectSink): Promise<FeedReadResult> {
  const providers: FeedProvider[] = [];
  const observations: FeedObservation[] = [];
  const counts: FeedReadResult['counts'] = { providers: [], observations: [] };
  const byEntity = new Map<string, FeedProvider>();
  const slugs = new Map<string, FeedProvider>();
  const firstOf = (p: FeedProvider) => `first on line ${p.line} of ${path.basename(p.file)}`;

  const providerRules: RowRules<FeedProviderRow, FeedProvider> = {
    source: 'feed_providers',
    columns: FEED_PROVIDER_COLUMNS,
    validate: validateProvider,
    check: (row) => {
      const firstId = byEntity.get(row.entity_id);
      if (firstId) return `duplicate entity_id ${row.entity_id} (${firstOf(firstId)})`;
      const firstSlug = slugs.get(row.slug);
      if (firstSlug) return `duplicate slug ${row.slug} (${firstOf(firstSlug)})`;
      if (row.npi != null && !isValidNpi(row.npi)) return `npi ("${row.npi}"): NPI check digit fails`;
      return null;
    },
    accept: (row, line, file) => {
      const provider: FeedProvider = { ...row, state: row.state ? row.state.toUpperCase() : null, line, file };
      byEntity.set(row.entity_id, provider);
      slugs.set(row.slug, provider);
      return provider;
    },
  };
  const observationRules: RowRules<FeedObservationRow, FeedObservation> = {
    source: 'feed_observations',
    columns: FEED_OBSERVATION_COLUMNS,
    validate: validateObservation,
    check: (row) => (byEntity.has(row.entity_id) ? null : `unknown entity_id ${row.entity_id}`),
    accept: (row, line, file) => ({ ...row, line, file }),
  };

  // Read (and header-check) every file before validating rows, so a broken file fails before any work.
  const files = [];
  for (const folder of folders) {
    const pFile = path.join(folder, FEED_FILES.providers);
    const oFile = path.join(folder, FEED_FILES.observations);
    files.push({
      pFile,
      oFile,
      p: await readFeedFile(pFile, FEED_PROVIDER_COLUMNS, FEED_PROVIDER_REQUIRED_COLUMNS),
      o: await readFeedFile(oFile, FEED_OBSERVATION_COLUMNS, FEED_OBSERVATION_REQUIRED_COLUMNS),
    });
  }
  // Every providers file first: an observation may name a provider of another folder.
  for (const { pFile, p } of files) {
    const r = validateRows(pFile, p, providerRules, rejects);
    providers.push(...r.accepted);
    counts.providers.push(r.counts);
  }
  const obsCounts = new Map<string, FileCounts>();
  for (const { oFile, o } of files) {
    const r = validateRows(oFile, o, observationRules, rejects);
    observations.push(...r.accepted);
    counts.observations.push(r.counts);
    obsCounts.set(oFile, r.counts);
  }

  // Rule 4: a verified record needs a sourced signal among its winning observations.
  const latest = latestObservations(observations);
  const rejectedEntities = new Map<string, FeedProvider>();
  for (const provider of providers) {
    if (provider.publish_tier !== 'verified') continue;
    const winners = [...(latest.get(provider.entity_id)?.values() ?? [])];
    if (winners.some(isSourcedSignal)) continue;
    rejectedEntities.set(provider.entity_id, provider);
    rejects.add({
      source: 'feed_providers',
      file: provider.file,
      line: provider.line,
      reason:
        'publish_tier verified without a sourced signal (needs a verified, clear, flagged or reported observation with a source)',
      raw: null,
    });
    const c = counts.providers.find((x) => x.file === provider.file);
    if (c) {
      c.accepted -= 1;
      c.rejected += 1;
    }
  }
  const keptObservations = observations.filter((obs) => {
    const provider = rejectedEntities.get(obs.entity_id);
    if (!provider) return true;
    rejects.add({
      source: 'feed_observations',
      file: obs.file,
      line: obs.line,
      reason: `unknown entity_id ${obs.entity_id} (its provider was rejected: ${path.basename(provider.file)} line ${provider.line})`,
      raw: null,
    });
    const c = obsCounts.get(obs.file);
    if (c) {
      c.accepted -= 1;
      c.rejected += 1;
    }
    return false;
  });
  return {
    providers: providers.filter((p) => !rejectedEntities.has(p.entity_id)),
    observations: keptObservations,
    counts,
  };
}

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
    (screen.finding_date === null || instant(curatedFda.observed_at) > instant(`${screen.finding_date}T00:00:00Z`));
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
