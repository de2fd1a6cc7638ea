/**
 * Rows set aside: rows that cannot be read (read.ts for the small files, lines.ts and scan.ts for NPPES and LEIE)
 * and rows that fail validation, collected into the run's `rejects` table. They end up in
 * `snapshots/<id>/rejects/rejects.csv` (writers/rejects.ts; columns REJECTS_COLUMNS: source, file, line, reason,
 * raw). `line` is the physical line where the record starts, the header being line 1; `raw` is the record's text,
 * or, for NPPES and LEIE rows that were read but fail validation, their NPI; either capped at MAX_RAW_CHARS
 * characters ({@link capRaw}).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { REJECTS_COLUMNS } from '../../data-contracts/layout';
import { appendRows } from '../../platform/duckdb/statements';
import { MAX_RAW_CHARS } from './lines';
import { type CsvBadRecord, displayPath } from './read';

export const REJECT_SOURCES = ['nppes', 'nucc', 'leie', 'fda', 'feed_providers', 'feed_observations'] as const;
export type RejectSource = (typeof REJECT_SOURCES)[number];

export interface Reject {
  source: RejectSource;
  file: string;
  line: number;
  reason: string;
  /** The offending record (or its key fields for wide sources), for the data team to find it. */
  raw: string | null;
}

/**
 * The raw text a reject keeps: at most {@link MAX_RAW_CHARS} characters, then `…` (a record may be megabytes: one
 * overlong field, or a whole file without a line end).
 */
export function capRaw(raw: string | null): string | null {
  return raw !== null && raw.length > MAX_RAW_CHARS ? `${raw.slice(0, MAX_RAW_CHARS)}…` : raw;
}

/** The SQL twin of {@link capRaw} over a trusted VARCHAR expression. */
export function capRawSql(expression: string): string {
  return `CASE WHEN length(${expression}) > ${MAX_RAW_CHARS} THEN left(${expression}, ${MAX_RAW_CHARS}) || '…' ELSE ${expression} END`;
}

export interface RejectSink {
  add(reject: Reject): void;
}

/** Sets aside the records of a small file that could not be read; returns how many. */
export function rejectUnreadable(
  rejects: RejectSink,
  source: RejectSource,
  file: string,
  unreadable: readonly CsvBadRecord[],
): number {
  for (const bad of unreadable) rejects.add({ source, file, line: bad.line, reason: bad.reason, raw: bad.raw });
  return unreadable.length;
}

/** The SQL table that collects every reject of a run (small sources are appended, big ones inserted by SQL). */
export const REJECTS_TABLE = {
  source: 'VARCHAR',
  file: 'VARCHAR',
  line: 'BIGINT',
  reason: 'VARCHAR',
  raw: 'VARCHAR',
} as const satisfies Record<(typeof REJECTS_COLUMNS)[number], string>;

/** Collects rejects in memory until `flush` appends them to the `rejects` table. */
export class RejectCollector implements RejectSink {
  private pending: Reject[] = [];

  add(reject: Reject): void {
    this.pending.push({ ...reject, file: displayPath(reject.file), raw: capRaw(reject.raw) });
  }

  async flush(connection: DuckDBConnection): Promise<void> {
    if (this.pending.length === 0) return;
    await appendRows(connection, 'rejects', REJECTS_TABLE, this.pending);
    this.pending = [];
  }
}
