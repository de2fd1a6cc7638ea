/**
 * The change feed over one snapshot (data-contracts/changes.ts): the kept span from the manifest, and a page of
 * changes read with DuckDB from the month partitions the query needs (downloaded on first use, like every object).
 *
 * Every value of a request is a bound parameter; the statement is assembled only from fixed fragments and the local
 * paths the snapshot cache made from the manifest's allow-list.
 */
import { CHANGES_RETENTION_MONTHS, type ChangeKind, type ChangesSpan } from '../../data-contracts/changes';
import type { ManifestObject, SnapshotManifest } from '../../data-contracts/layout';
import { BlockCache } from '../../platform/binary/block-cache';
import type { ByteSource } from '../../platform/binary/byte-source';
import type { SqlValue } from '../../platform/duckdb/bind';
import type { DuckDb, SqlRow } from '../../platform/duckdb/pool';
import { InFlight } from '../../platform/in-flight';
import { NpiIndexReader } from '../../platform/npi-index/reader';
import { readInPlace } from '../../platform/ranged/read-in-place';
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

/**
 * A step's rows in a stable order: the step, then NPI (identity first), entity, kind and field, then the values (an
 * NPI may gain or lose several OIG candidates in one step: the values keep their rows' order total, so pages never
 * overlap).
 */
const ORDER =
  'to_as_of, npi NULLS LAST, entity_id NULLS FIRST, kind, field NULLS FIRST, old_value NULLS FIRST, new_value NULLS FIRST';

/** Blocks of the cache for the months' NPI indexes read from local files: 1 MB. */
const CHANGES_BLOCK_CACHE_BLOCKS = 64;

/** Reads a page of a snapshot's kept changes. */
export class SnapshotChanges {
  /** The open roster indexes of the snapshot's months, by key (closed with the snapshot). */
  private readonly indexes = new Map<string, { reader: NpiIndexReader; source: ByteSource & { close(): void } }>();
  /** Blocks of the months' indexes read from local files. */
  private readonly blocks = new BlockCache(CHANGES_BLOCK_CACHE_BLOCKS);
  private readonly opening = new InFlight<string, NpiIndexReader>();
  private closed = false;

  /** The month partitions, by month; and each month's roster index, by month (read once from the manifest). */
  private readonly partitions: ManifestObject[];
  private readonly npiIndexes: Map<string, ManifestObject>;

  constructor(
    private readonly files: SnapshotFiles,
    private readonly db: DuckDb,
    /** Answer rosters from the months' NPI indexes when the snapshot has them (false: always DuckDB, for tests). */
    private readonly useNpiIndex = true,
  ) {
    const byMonth = (a: ManifestObject, b: ManifestObject) => String(a.month).localeCompare(String(b.month));
    this.partitions = files
      .objectsOf('changes')
      .filter((o) => o.month !== undefined)
      .sort(byMonth);
    this.npiIndexes = new Map(files.objectsOf('changes_npi').flatMap((o) => (o.month ? [[o.month, o] as const] : [])));
  }

  span(): ChangesSpan {
    return keptSpan(this.files.manifest);
  }

  async list(query: ChangesQuery): Promise<Page<ChangeRow>> {
    // The month partitions of the steps after `after` (a partition holds the steps whose to_as_of is in its month).
    const fromMonth = query.after.slice(0, 7);
    const objects = this.partitions.filter((o) => String(o.month) >= fromMonth);
    if (objects.length === 0) return { total: 0, rows: [] };
    if (query.npis !== null && this.useNpiIndex) {
      const indexes = objects.map((o) => this.npiIndexes.get(String(o.month)));
      // Every month of the span has its index (a snapshot built before the indexes has none: DuckDB answers).
      if (indexes.every((o) => o !== undefined)) return this.listRoster(query, query.npis, indexes as ManifestObject[]);
    }
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

  /**
   * A roster's changes from the months' NPI indexes: one binary search and one record read per NPI and month, then
   * the same filters and order as the SQL path.
   */
  private async listRoster(
    query: ChangesQuery,
    npis: readonly string[],
    objects: ManifestObject[],
  ): Promise<Page<ChangeRow>> {
    const kinds = query.kinds === null ? null : new Set<string>(query.kinds);
    const verticals = query.verticals === null ? null : new Set<string>(query.verticals);
    const asked = [...new Set(npis)];
    const found: ChangeRow[] = [];
    for (const object of objects) {
      const reader = await this.indexOf(object.key);
      // Every asked NPI's record at once: read in place, they come in one round.
      const records = await readInPlace(() => reader.recordsOf(asked));
      for (const bytes of records) {
        if (bytes === null) continue;
        const record = JSON.parse(bytes.toString('utf8')) as { rows: ChangeRow[] };
        for (const row of record.rows) {
          if (row.to_as_of <= query.after) continue;
          if (kinds !== null && !kinds.has(row.kind)) continue;
          const inScope =
            row.vertical === null ? query.identity : verticals === null ? true : verticals.has(row.vertical);
          if (inScope) found.push(row);
        }
      }
    }
    found.sort(compareRows);
    return { total: found.length, rows: found.slice(query.offset, query.offset + query.limit) };
  }

  private async indexOf(key: string): Promise<NpiIndexReader> {
    const open = this.indexes.get(key);
    if (open !== undefined) return open.reader;
    return this.opening.run(key, async () => {
      const { source } = await this.files.openIndex(key, this.blocks);
      let reader: NpiIndexReader;
      try {
        reader = await readInPlace(() => NpiIndexReader.open(source));
      } catch (err) {
        source.close();
        throw err;
      }
      if (this.closed) source.close();
      else this.indexes.set(key, { reader, source });
      return reader;
    });
  }

  /** Closes the months' indexes (the snapshot is released). */
  close(): void {
    this.closed = true;
    for (const { source } of this.indexes.values()) source.close();
    this.indexes.clear();
  }
}

/**
 * Rows in the order of {@link ORDER}, compared as DuckDB compares VARCHAR (bytes: UTF-16 order is the same but for
 * characters past U+FFFF against U+E000 to U+FFFF, which no NPI, kind, field or LEIE value holds).
 */
function compareRows(a: ChangeRow, b: ChangeRow): number {
  const order: [string | null, string | null, 'first' | 'last'][] = [
    [a.to_as_of, b.to_as_of, 'last'],
    [a.npi, b.npi, 'last'],
    [a.entity_id, b.entity_id, 'first'],
    [a.kind, b.kind, 'last'],
    [a.field, b.field, 'first'],
    [a.old_value, b.old_value, 'first'],
    [a.new_value, b.new_value, 'first'],
  ];
  for (const [x, y, nulls] of order) {
    if (x === y) continue;
    if (x === null) return nulls === 'first' ? -1 : 1;
    if (y === null) return nulls === 'first' ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return 0;
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
