/**
 * The change feed over one snapshot (data-contracts/changes.ts): the kept span from the manifest, and a page of
 * changes read with DuckDB from the month partitions the query needs (downloaded on first use, like every object).
 *
 * Every value of a request is a bound parameter; the statement is assembled only from fixed fragments and the local
 * paths the snapshot cache made from the manifest's allow-list.
 */
import { CHANGES_RETENTION_MONTHS, type ChangeKind, type ChangesSpan } from '../../data-contracts/changes';
import type { SnapshotManifest } from '../../data-contracts/layout';
import type { DuckDb, SqlRow } from '../../platform/duckdb';
import type { SqlValue } from '../../platform/duckdb-bind';
import { sqlStringLiteral } from '../../platform/sql';
import type { SnapshotFiles } from '../storage/snapshot-files';
import type { ChangeRow, ChangesQuery, Page } from './types';

/**
 * The span a manifest keeps. A snapshot written before the change feed (no `changes` section) keeps none: it
 * answers only `since` itself.
 */
export function keptSpan(manifest: SnapshotManifest): ChangesSpan {
  return (
    manifest.changes ?? {
      retention_months: CHANGES_RETENTION_MONTHS,
      oldest_snapshot: manifest.snapshot_id,
      oldest_as_of: manifest.created_at,
      steps: [],
    }
  );
}

const COLUMNS = [
  'kind',
  'npi',
  'entity_id',
  'vertical',
  'field',
  'old_value',
  'new_value',
  'from_snapshot',
  'from_as_of',
  'to_snapshot',
  'to_as_of',
] as const;

/** A step's rows in a stable order: the step, then NPI (identity first), entity, kind and field. */
const ORDER = 'to_as_of, npi NULLS LAST, entity_id NULLS FIRST, kind, field NULLS FIRST';

/** Reads a page of a snapshot's kept changes. */
export class SnapshotChanges {
  constructor(
    private readonly files: SnapshotFiles,
    private readonly db: DuckDb,
  ) {}

  span(): ChangesSpan {
    return keptSpan(this.files.manifest);
  }

  async list(query: ChangesQuery): Promise<Page<ChangeRow>> {
    // The month partitions of the steps after `after` (a partition holds the steps whose to_as_of is in its month).
    const fromMonth = query.after.slice(0, 7);
    const objects = this.files
      .objectsOf('changes')
      .filter((o) => o.month !== undefined && o.month >= fromMonth)
      .sort((a, b) => String(a.month).localeCompare(String(b.month)));
    if (objects.length === 0) return { total: 0, rows: [] };
    const paths = await Promise.all(objects.map((o) => this.files.localPath(o.key)));
    const source = `read_parquet([${paths.map(sqlStringLiteral).join(', ')}])`;

    const conditions = ['to_as_of > ?'];
    const params: SqlValue[] = [query.after];
    if (query.kinds !== null) {
      conditions.push('list_contains(?::VARCHAR[], kind)');
      params.push(query.kinds);
    }
    if (query.npis !== null) {
      conditions.push('list_contains(?::VARCHAR[], npi)');
      params.push(query.npis);
    }
    // Identity rows have no vertical; vertical rows only of the verticals allowed (null: every vertical).
    const scope: string[] = [];
    if (query.identity) scope.push('vertical IS NULL');
    if (query.verticals === null) scope.push('vertical IS NOT NULL');
    else if (query.verticals.length > 0) {
      scope.push('list_contains(?::VARCHAR[], vertical)');
      params.push(query.verticals);
    }
    conditions.push(scope.length === 0 ? 'false' : `(${scope.join(' OR ')})`);
    const where = conditions.join(' AND ');

    const [counted] = await this.db.query(`SELECT count(*)::INTEGER AS total FROM ${source} WHERE ${where}`, params);
    const total = Number(counted?.total ?? 0);
    if (total === 0 || query.offset >= total) return { total, rows: [] };
    const rows = await this.db.query(
      `SELECT ${COLUMNS.join(', ')} FROM ${source} WHERE ${where} ORDER BY ${ORDER} LIMIT ? OFFSET ?`,
      [...params, query.limit, query.offset],
    );
    return { total, rows: rows.map(changeRowOf) };
  }
}

function text(row: SqlRow, column: string): string | null {
  const value = row[column];
  return value === null || value === undefined ? null : String(value);
}

function changeRowOf(row: SqlRow): ChangeRow {
  return {
    kind: String(row.kind) as ChangeKind,
    npi: text(row, 'npi'),
    entity_id: text(row, 'entity_id'),
    vertical: text(row, 'vertical'),
    field: text(row, 'field'),
    old_value: text(row, 'old_value'),
    new_value: text(row, 'new_value'),
    from_snapshot: String(row.from_snapshot),
    from_as_of: String(row.from_as_of),
    to_snapshot: String(row.to_snapshot),
    to_as_of: String(row.to_as_of),
  };
}
