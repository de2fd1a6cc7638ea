/**
 * The vertical curation feed (format: data-contracts/feed.ts) to vertical records (VERTICAL_TABLE rows).
 *
 * Per folder: `providers.csv` and `observations.csv`. Cells are trimmed; an empty cell is null; the numeric columns
 * become numbers (a cell that is not a number stays text, so the schema rejects it by name). A cell longer than its
 * column's bound (the contract's, `FEED_*_FIELD_BOUNDS` of `field-bounds.ts`) rejects its row first; rows are then
 * validated with Ajv (JSON Schema 2020-12), then the cross-row rules run in this order:
 * 1. providers: unique `entity_id`, unique `slug` (the later duplicate is rejected), NPI check digit;
 * 2. observations: the entity must be an accepted provider;
 * 3. the latest observation per (entity, signal) wins (`observed_at`, ties: the later line);
 * 4. a `verified` provider needs a sourced signal among its winning observations (status verified, clear, flagged or
 *    reported, with a source); otherwise the provider is rejected, and so are its observations (as observations of
 *    an entity that is not in the snapshot).
 * The rules themselves: `feed-rules.ts`; a provider and its winning observations as a vertical record:
 * `vertical-record.ts`.
 */
import path from 'node:path';
import type { ErrorObject } from 'ajv/dist/2020';
import {
  FEED_OBSERVATION_COLUMNS,
  FEED_OBSERVATION_REQUIRED_COLUMNS,
  FEED_PROVIDER_COLUMNS,
  FEED_PROVIDER_REQUIRED_COLUMNS,
  type FeedCellType,
} from '../../data-contracts/feed';
import { type CsvBadRecord, type CsvRecord, readSmallCsv, requireColumns } from '../csv/read';
import { type RejectSink, rejectUnreadable } from '../csv/rejects';
import { EtlInputError } from '../errors';
import { overlongField } from '../transforms/field-bounds';
import {
  createFeedRowRules,
  type FeedObservation,
  type FeedProvider,
  isSourcedSignal,
  latestObservations,
  type RowRules,
} from './feed-rules';

export const FEED_FILES = { providers: 'providers.csv', observations: 'observations.csv' } as const;

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
): Promise<{ header: string[]; records: CsvRecord[]; unreadable: CsvBadRecord[] }> {
  const { header, records, unreadable } = await readSmallCsv(file);
  requireColumns(file, header, required);
  const unknown = header.find((h) => !(h in columns));
  if (unknown !== undefined) throw new EtlInputError(file, `unknown column "${unknown}"`, unknown);
  return { header, records, unreadable };
}

type FileCounts = FeedReadResult['counts']['providers'][number];

/**
 * The one row-validation loop: field count, then the length bounds, then the JSON Schema, then the file's cross-row
 * rules. Each rejected row goes to `rejects` with its line and reason.
 */
function validateRows<Row, Out>(
  file: string,
  { header, records, unreadable }: { header: string[]; records: CsvRecord[]; unreadable: CsvBadRecord[] },
  rules: RowRules<Row, Out>,
  rejects: RejectSink,
): { accepted: Out[]; counts: FileCounts } {
  const rejected = rejectUnreadable(rejects, rules.source, file, unreadable);
  const counts = { file, read: records.length + rejected, accepted: 0, rejected };
  const accepted: Out[] = [];
  for (const rec of records) {
    const cells = convertFeedCells(header, rec.fields, rules.columns);
    const reason =
      rec.fields.length !== header.length
        ? `expected ${header.length} fields, found ${rec.fields.length}`
        : (overlongField(header, rec.fields, rules.bounds) ??
          (!rules.validate(cells)
            ? describeSchemaError(rules.validate.errors, cells)
            : rules.check(cells as unknown as Row)));
    if (reason !== null) {
      rejects.add({ source: rules.source, file, line: rec.line, reason, raw: rec.raw });
      counts.rejected += 1;
      continue;
    }
    accepted.push(rules.accept(cells as unknown as Row, { line: rec.line, file, raw: rec.raw }));
    counts.accepted += 1;
  }
  return { accepted, counts };
}

/**
 * Reads and validates every feed folder. Rejected rows go to `rejects`; a missing file or required column fails
 * the run (EtlInputError).
 */
export async function readFeeds(
  folders: readonly string[],
  rejects: RejectSink,
  opts: { snapshotTime: string },
): Promise<FeedReadResult> {
  const providers: FeedProvider[] = [];
  const observations: FeedObservation[] = [];
  const counts: FeedReadResult['counts'] = { providers: [], observations: [] };
  const rules = createFeedRowRules(opts.snapshotTime);

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
    const r = validateRows(pFile, p, rules.providers, rejects);
    providers.push(...r.accepted);
    counts.providers.push(r.counts);
  }
  const obsCounts = new Map<string, FileCounts>();
  for (const { oFile, o } of files) {
    const r = validateRows(oFile, o, rules.observations, rejects);
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
      raw: provider.raw,
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
      raw: obs.raw,
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
