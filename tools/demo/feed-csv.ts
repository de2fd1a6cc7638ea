/** The CSV serialisation of a curation feed (data-contracts/feed.ts) built by the demo and benchmark generators. */
import { join } from 'node:path';
import {
  FEED_OBSERVATION_COLUMNS,
  FEED_PROVIDER_COLUMNS,
  type FeedObservationRow,
  type FeedProviderRow,
} from '../../data-contracts/feed';
import { writeCsvFile } from './csv-write';

/** Column order of the generated files: the contract's column tables, in declaration order. */
export const PROVIDER_HEADER = Object.keys(FEED_PROVIDER_COLUMNS) as (keyof typeof FEED_PROVIDER_COLUMNS)[];
export const OBSERVATION_HEADER = Object.keys(FEED_OBSERVATION_COLUMNS) as (keyof typeof FEED_OBSERVATION_COLUMNS)[];

export const FEED_FILES = { providers: 'providers.csv', observations: 'observations.csv' } as const;

/** A whole curation feed in memory. */
export interface Feed {
  providers: FeedProviderRow[];
  observations: FeedObservationRow[];
}

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
