/**
 * NUCC Health Care Provider Taxonomy CSV (UTF-8, `<br/>` inside cells, non-ASCII punctuation) to the taxonomy map.
 * Every code keeps its classification and the partition key of that classification (`classificationKey`).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { classificationKey, TAXONOMY_TABLE } from '../../data-contracts/layout';
import { appendRows, createTable } from '../../platform/duckdb/statements';
import { readSmallCsv, requireColumns } from '../csv/read';
import { type RejectSink, rejectUnreadable } from '../csv/rejects';
import { overlongField } from '../transforms/field-bounds';
import { NUCC_FIELD_BOUNDS } from './field-bounds';

export const NUCC_COLUMNS = {
  code: 'Code',
  grouping: 'Grouping',
  classification: 'Classification',
  specialization: 'Specialization',
  displayName: 'Display Name',
  section: 'Section',
} as const;

const CODE_PATTERN = /^[0-9A-Z]{9}X$/;

export interface TaxonomyEntry {
  code: string;
  grouping: string | null;
  classification: string;
  specialization: string | null;
  display_name: string | null;
  section: string | null;
  classification_key: string;
}

/** `<br/>` and runs of whitespace become one space; blank is null. */
export function cleanNuccCell(value: string | undefined): string | null {
  if (value === undefined) return null;
  const text = value
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? null : text;
}

/**
 * Reads the NUCC CSV; bad rows (a value over its bound in `NUCC_FIELD_BOUNDS`, a malformed or duplicate code, no
 * classification) go to `rejects`.
 */
export async function readNucc(
  file: string,
  rejects: RejectSink,
): Promise<{ entries: TaxonomyEntry[]; read: number; rejected: number }> {
  const { header, records, unreadable } = await readSmallCsv(file);
  requireColumns(file, header, Object.values(NUCC_COLUMNS));
  const index = Object.fromEntries(Object.entries(NUCC_COLUMNS).map(([k, col]) => [k, header.indexOf(col)])) as Record<
    keyof typeof NUCC_COLUMNS,
    number
  >;
  const seen = new Set<string>();
  const entries: TaxonomyEntry[] = [];
  let rejected = rejectUnreadable(rejects, 'nucc', file, unreadable);
  for (const rec of records) {
    const cell = (k: keyof typeof NUCC_COLUMNS) => cleanNuccCell(rec.fields[index[k]]);
    const code = cell('code');
    const classification = cell('classification');
    const overlong = overlongField(header, rec.fields, NUCC_FIELD_BOUNDS);
    let reason: string | null = null;
    if (rec.fields.length !== header.length) reason = `expected ${header.length} fields, found ${rec.fields.length}`;
    else if (overlong !== null) reason = overlong;
    else if (code === null || !CODE_PATTERN.test(code)) reason = `invalid taxonomy code: ${JSON.stringify(code ?? '')}`;
    else if (seen.has(code)) reason = `duplicate taxonomy code ${code}`;
    else if (classification === null) reason = 'no Classification';
    if (reason !== null || code === null || classification === null) {
      rejects.add({ source: 'nucc', file, line: rec.line, reason: reason ?? 'invalid row', raw: rec.raw });
      rejected += 1;
      continue;
    }
    seen.add(code);
    entries.push({
      code,
      grouping: cell('grouping'),
      classification,
      specialization: cell('specialization'),
      display_name: cell('displayName'),
      section: cell('section'),
      classification_key: classificationKey(classification),
    });
  }
  return { entries, read: records.length + unreadable.length, rejected };
}

/** Creates the `taxonomy` table (TAXONOMY_TABLE columns) and fills it through an appender. */
export async function loadTaxonomyTable(
  connection: DuckDBConnection,
  entries: readonly TaxonomyEntry[],
): Promise<void> {
  await createTable(connection, 'taxonomy', TAXONOMY_TABLE);
  await appendRows(connection, 'taxonomy', TAXONOMY_TABLE, entries);
}
