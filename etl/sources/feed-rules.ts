/**
 * The feed's rules (format: data-contracts/feed.ts), one table per file: the JSON Schema validator of its rows and
 * the cross-row checks a schema-valid row must pass (rules 1 and 2 of `feed.ts`), then the rules over the accepted
 * observations: the latest one per (entity, signal) wins (rule 3) and what counts as a sourced signal (rule 4).
 */
import path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import type { SignalName } from '../../data-contracts/constants';
import {
  FEED_OBSERVATION_COLUMNS,
  FEED_OBSERVATION_SCHEMA,
  FEED_PROVIDER_COLUMNS,
  FEED_PROVIDER_SCHEMA,
  type FeedCellType,
  type FeedObservationRow,
  type FeedProviderRow,
} from '../../data-contracts/feed';
import { isValidNpi } from '../../data-contracts/npi-check';
import { parseIsoDateTime } from '../transforms/dates';
import type { FieldBounds } from '../transforms/field-bounds';
import { FEED_OBSERVATION_FIELD_BOUNDS, FEED_PROVIDER_FIELD_BOUNDS } from './field-bounds';

/** Statuses that make a curated observation a sourced signal (when it also names its source). */
export const SOURCED_STATUSES = ['verified', 'clear', 'flagged', 'reported'] as const;

export interface FeedProvider extends FeedProviderRow {
  line: number;
  file: string;
  /** The record's text in its file (for a later reject). */
  raw: string;
}
export interface FeedObservation extends FeedObservationRow {
  line: number;
  file: string;
  raw: string;
}

const ajv = new Ajv2020({ allErrors: false, strict: true });
const validateProvider = ajv.compile(FEED_PROVIDER_SCHEMA) as ValidateFunction<FeedProviderRow>;
const validateObservation = ajv.compile(FEED_OBSERVATION_SCHEMA) as ValidateFunction<FeedObservationRow>;

/** How the rows of one feed file are validated and accepted: the table that drives `validateRows`. */
export interface RowRules<Row, Out> {
  source: 'feed_providers' | 'feed_observations';
  columns: Readonly<Record<string, FeedCellType>>;
  /** The length bound of each column (checked before the schema, on the cells as written). */
  bounds: FieldBounds;
  validate: ValidateFunction<Row>;
  /** Cross-row rules on a schema-valid row, in order: the first reject reason, or null to accept. */
  check(row: Row): string | null;
  /** The accepted record (registered by the caller's rules for later rows). */
  accept(row: Row, at: { line: number; file: string; raw: string }): Out;
}

/** The observation columns that hold a date-time: each must be a real one, and not after the snapshot time. */
export const OBSERVATION_TIME_COLUMNS = ['observed_at', 'verified_at'] as const;

/**
 * The first date-time of an observation that is not a real calendar date and time, or that lies after the snapshot
 * time (an observation, or its verification, cannot come from the future): its reject reason, or null.
 */
export function checkObservationTimes(row: FeedObservationRow, snapshotTime: string): string | null {
  const limit = Date.parse(snapshotTime);
  for (const column of OBSERVATION_TIME_COLUMNS) {
    const text = row[column];
    if (text == null) continue;
    const at = parseIsoDateTime(text);
    if (at === null) return `${column} (${JSON.stringify(text)}): not a real calendar date and time`;
    if (at > limit) return `${column} (${JSON.stringify(text)}): after the snapshot time ${snapshotTime}`;
  }
  return null;
}

/**
 * The row rules of the two feed files, fresh for one run: each remembers the providers it accepted, which rule 1
 * (unique ids and slugs) and rule 2 (observations of accepted providers) check later rows against. `snapshotTime`
 * (ISO) bounds the observations' date-times.
 */
export function createFeedRowRules(snapshotTime: string): {
  providers: RowRules<FeedProviderRow, FeedProvider>;
  observations: RowRules<FeedObservationRow, FeedObservation>;
} {
  const byEntity = new Map<string, FeedProvider>();
  const slugs = new Map<string, FeedProvider>();
  const firstOf = (p: FeedProvider) => `first on line ${p.line} of ${path.basename(p.file)}`;

  const providers: RowRules<FeedProviderRow, FeedProvider> = {
    source: 'feed_providers',
    columns: FEED_PROVIDER_COLUMNS,
    bounds: FEED_PROVIDER_FIELD_BOUNDS,
    validate: validateProvider,
    check: (row) => {
      const firstId = byEntity.get(row.entity_id);
      if (firstId) return `duplicate entity_id ${row.entity_id} (${firstOf(firstId)})`;
      const firstSlug = slugs.get(row.slug);
      if (firstSlug) return `duplicate slug ${row.slug} (${firstOf(firstSlug)})`;
      if (row.npi != null && !isValidNpi(row.npi)) return `npi ("${row.npi}"): NPI check digit fails`;
      return null;
    },
    accept: (row, at) => {
      const provider: FeedProvider = { ...row, state: row.state ? row.state.toUpperCase() : null, ...at };
      byEntity.set(row.entity_id, provider);
      slugs.set(row.slug, provider);
      return provider;
    },
  };
  const observations: RowRules<FeedObservationRow, FeedObservation> = {
    source: 'feed_observations',
    columns: FEED_OBSERVATION_COLUMNS,
    bounds: FEED_OBSERVATION_FIELD_BOUNDS,
    validate: validateObservation,
    check: (row) =>
      byEntity.has(row.entity_id) ? checkObservationTimes(row, snapshotTime) : `unknown entity_id ${row.entity_id}`,
    accept: (row, at) => ({ ...row, ...at }),
  };
  return { providers, observations };
}

/** An ISO instant as epoch milliseconds (NaN when absent or not a real date-time), for comparing observation times. */
export const instantOf = (iso: string | null | undefined) => (iso ? (parseIsoDateTime(iso) ?? Number.NaN) : Number.NaN);

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
    if (!held || instantOf(obs.observed_at) >= instantOf(held.observed_at)) bySignal.set(obs.signal, obs);
  }
  return out;
}

/** True when an observation is a sourced signal (what a `verified` record needs at least one of). */
export function isSourcedSignal(obs: Pick<FeedObservationRow, 'status' | 'source'>): boolean {
  return (SOURCED_STATUSES as readonly string[]).includes(obs.status) && !!obs.source && obs.source.trim() !== '';
}
