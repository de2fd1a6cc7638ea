/**
 * The identity layer in memory, one partition (one NUCC classification) at a time, loaded on the first query that
 * needs it:
 * - the partition's contract columns in a DuckDB table sorted by `npi, taxonomy_code`, so that `rowid` order is
 *   the list order (the contract orders identity results by NPI);
 * - a JS index in the same order: per row the dictionary ids of taxonomy code, state and lower-cased city and the
 *   `class_rep` flag, in typed arrays.
 *
 * A query is one pass over the typed arrays (the total and the page's rowids at once, whatever the offset) and one
 * fetch of the page's rows by rowid. On the bench's largest partition (127,108 rows) the pass costs well under a
 * millisecond and the fetch 1 to 2 ms, against 17 ms (page) and 50 ms (offset 100,000) for a top-N over
 * `read_parquet` (test/bench/api-bench.ts).
 *
 * Request values never reach SQL text: filters are compared as dictionary ids in JS, and the only SQL that depends
 * on a request, the rowid fetch, binds its values. Table names are generated here, never taken from input.
 *
 * Memory: an {@link IdentityPartitionCache} bounds the loaded partitions by their total row count (least recently
 * used first out) and drops the tables of evicted partitions. DuckDB holds about 200 bytes per row (25 MB for the
 * 127,108-row partition of the bench), the JS index 8 bytes per row.
 */
import { IDENTITY_TABLE } from '../../data-contracts/layout';
import type { IdentityRow } from '../../data-contracts/rows';
import { type DuckDb, type SqlRow, sqlIdentifier, sqlStringLiteral } from '../storage/duckdb';

const IDENTITY_COLUMNS = Object.keys(IDENTITY_TABLE) as (keyof typeof IDENTITY_TABLE)[];
const IDENTITY_SELECT = IDENTITY_COLUMNS.map(sqlIdentifier).join(', ');

/** Default {@link IdentityPartitionCache} budget: about 100 MB of DuckDB tables at the bench's row size. */
export const DEFAULT_IDENTITY_ROW_BUDGET = 500_000;

/** A page whose rowids span at most this many times its length is fetched as one range. */
const DENSE_SPAN = 2;

/** Dictionary id of a value that is NULL, or of a request value the partition does not hold: matches nothing. */
const NONE = 0;

/** One loaded identity partition: its DuckDB table and its filter index, both in NPI order. */
export interface IdentityIndex {
  /** Generated table name (`identity_<n>`). */
  readonly table: string;
  readonly rowCount: number;
  /** Per rowid: dictionary ids (0 = NULL) and the class_rep flag (0/1). */
  readonly codeIds: Uint16Array;
  readonly stateIds: Uint16Array;
  readonly cityIds: Uint32Array;
  readonly classRep: Uint8Array;
  /** Rowids (ascending) of the class_rep rows, and of the rows of each taxonomy code id: a query walks only these. */
  readonly repRows: Uint32Array;
  readonly rowsByCode: ReadonlyMap<number, Uint32Array>;
  /** Value to dictionary id (ids start at 1). Cities are lower-cased. */
  readonly codes: ReadonlyMap<string, number>;
  readonly states: ReadonlyMap<string, number>;
  readonly cities: ReadonlyMap<string, number>;
}

/** An identity query in index terms. */
export interface IdentityFilter {
  /** A taxonomy code, or null for a classification query (`class_rep` rows). */
  code: string | null;
  state: string | null;
  /** Compared case-insensitively. */
  city: string | null;
  limit: number;
  offset: number;
}

let tableCounter = 0;

function nextTableName(): string {
  tableCounter += 1;
  return sqlIdentifier(`identity_${tableCounter}`).slice(1, -1);
}

/**
 * Loads one partition file (a path from the manifest's allow-list) into a new table and builds its index.
 * The table is dropped again if building the index fails.
 */
export async function loadIdentityIndex(db: DuckDb, file: string): Promise<IdentityIndex> {
  const table = nextTableName();
  const name = sqlIdentifier(table);
  await db.execute(
    `CREATE TABLE ${name} AS SELECT ${IDENTITY_SELECT} FROM read_parquet(${sqlStringLiteral(file)}) ` +
      'ORDER BY npi, taxonomy_code',
  );
  try {
    return await buildIndex(db, table);
  } catch (err) {
    await db.execute(`DROP TABLE IF EXISTS ${name}`).catch(() => undefined);
    throw err;
  }
}

/**
 * Dictionary ids come from DuckDB (`dense_rank` over each column, NULL as 0) as integer columns, read straight from
 * their vectors: converting the three string columns to JS values would cost twice as long.
 * The dictionaries are the distinct values in the same order, so the value of rank k is entry k - 1.
 */
async function buildIndex(db: DuckDb, table: string): Promise<IdentityIndex> {
  const name = sqlIdentifier(table);
  const rank = (expr: string, type: string) =>
    `CASE WHEN ${expr} IS NULL THEN 0 ELSE dense_rank() OVER (ORDER BY ${expr}) END::${type}`;
  const [columns, codes, states, cities] = await Promise.all([
    db.queryColumns(
      `SELECT ${rank('taxonomy_code', 'USMALLINT')}, ${rank('state', 'USMALLINT')}, ` +
        `${rank('lower(city)', 'UINTEGER')}, coalesce(class_rep, false)::UTINYINT FROM ${name} ORDER BY rowid`,
      [Uint16Array, Uint16Array, Uint32Array, Uint8Array],
    ),
    distinctValues(db, 'taxonomy_code', name),
    distinctValues(db, 'state', name),
    distinctValues(db, 'lower(city)', name),
  ]);
  const [codeIds, stateIds, cityIds, classRep] = columns as [Uint16Array, Uint16Array, Uint32Array, Uint8Array];
  return {
    table,
    rowCount: codeIds.length,
    codeIds,
    stateIds,
    cityIds,
    classRep,
    repRows: rowsWhere(classRep, 1),
    rowsByCode: postings(codeIds, codes.length),
    codes: dictionary(codes),
    states: dictionary(states),
    cities: dictionary(cities),
  };
}

function rowsWhere(values: Uint8Array, value: number): Uint32Array {
  let count = 0;
  for (let i = 0; i < values.length; i += 1) if (values[i] === value) count += 1;
  const out = new Uint32Array(count);
  let at = 0;
  for (let i = 0; i < values.length; i += 1) if (values[i] === value) out[at++] = i;
  return out;
}

/** Rowids per dictionary id (1..size), ascending. */
function postings(ids: Uint16Array, size: number): Map<number, Uint32Array> {
  const counts = new Uint32Array(size + 1);
  for (let i = 0; i < ids.length; i += 1) {
    const id = ids[i] as number;
    counts[id] = (counts[id] as number) + 1;
  }
  const lists = Array.from(counts, (n) => new Uint32Array(n));
  const fill = new Uint32Array(size + 1);
  for (let i = 0; i < ids.length; i += 1) {
    const id = ids[i] as number;
    const at = fill[id] as number;
    (lists[id] as Uint32Array)[at] = i;
    fill[id] = at + 1;
  }
  return new Map(lists.map((list, id) => [id, list] as const).filter(([id]) => id !== NONE));
}

async function distinctValues(db: DuckDb, expr: string, table: string): Promise<string[]> {
  const rows = await db.query(`SELECT DISTINCT ${expr} AS v FROM ${table} WHERE ${expr} IS NOT NULL ORDER BY 1`);
  return rows.map((r) => String(r.v));
}

function dictionary(values: string[]): Map<string, number> {
  return new Map(values.map((v, i) => [v, i + 1]));
}

/**
 * The total of a query and the rowids of its page, in one pass in NPI order over the rows of its code (or the
 * class_rep rows); without a state or city filter, straight from that list.
 * @example scanIdentityIndex(index, { code: '163W00000X', state: 'TX', city: null, limit: 50, offset: 0 })
 */
export function scanIdentityIndex(index: IdentityIndex, filter: IdentityFilter): { total: number; rowids: number[] } {
  const code = filter.code === null ? null : (index.codes.get(filter.code) ?? NONE);
  const state = filter.state === null ? null : (index.states.get(filter.state) ?? NONE);
  const city = filter.city === null ? null : (index.cities.get(filter.city.toLowerCase()) ?? NONE);
  if (code === NONE || state === NONE || city === NONE) return { total: 0, rowids: [] };
  const candidates = code === null ? index.repRows : (index.rowsByCode.get(code) ?? new Uint32Array(0));
  const first = filter.offset;
  const end = filter.offset + filter.limit;
  if (state === null && city === null) {
    return { total: candidates.length, rowids: Array.from(candidates.subarray(first, end)) };
  }
  const { stateIds, cityIds } = index;
  const rowids: number[] = [];
  let total = 0;
  for (let k = 0; k < candidates.length; k += 1) {
    const i = candidates[k] as number;
    if (state !== null && stateIds[i] !== state) continue;
    if (city !== null && cityIds[i] !== city) continue;
    if (total >= first && total < end) rowids.push(i);
    total += 1;
  }
  return { total, rowids };
}

/** The rows of `rowids` (ascending) from the index's table, in that order. */
export async function fetchIdentityRows(db: DuckDb, index: IdentityIndex, rowids: number[]): Promise<IdentityRow[]> {
  if (rowids.length === 0) return [];
  const name = sqlIdentifier(index.table);
  const low = rowids[0] as number;
  const high = rowids[rowids.length - 1] as number;
  // A dense page (a classification page skips only the NPIs' second codes) is a range scan, filtered here: 1 ms
  // for 50 rows against 2 to 3 ms for a rowid list, which a sparse page (code and state) still needs.
  if (high - low + 1 <= rowids.length * DENSE_SPAN) {
    const rows = await db.query(
      `SELECT rowid AS "__r", ${IDENTITY_SELECT} FROM ${name} WHERE rowid BETWEEN ? AND ? ORDER BY rowid`,
      [low, high],
    );
    if (rows.length === rowids.length) return rows.map(toIdentityRow);
    const wanted = new Set(rowids);
    return rows.filter((r) => wanted.has(Number(r.__r))).map(toIdentityRow);
  }
  const rows = await db.query(
    `SELECT rowid AS "__r", ${IDENTITY_SELECT} FROM ${name} WHERE rowid = ANY(?::BIGINT[]) ORDER BY rowid`,
    [rowids],
  );
  return rows.map(toIdentityRow);
}

function toIdentityRow(row: SqlRow): IdentityRow {
  const out = {} as IdentityRow;
  for (const column of IDENTITY_COLUMNS) out[column] = (row[column] ?? null) as IdentityRow[typeof column];
  return out;
}

/** Drops an index's table. */
export async function dropIdentityIndex(db: DuckDb, index: IdentityIndex): Promise<void> {
  await db.execute(`DROP TABLE IF EXISTS ${sqlIdentifier(index.table)}`);
}

interface CacheEntry {
  readonly key: string;
  /** The manifest's row count: known before loading, so the budget is kept before the table exists. */
  readonly rows: number;
  readonly index: Promise<IdentityIndex>;
  /** Queries using the table now: an evicted entry is dropped when the last one ends. */
  pins: number;
  evicted: boolean;
}

/** Options of {@link IdentityPartitionCache}. */
export interface IdentityPartitionCacheOptions {
  /** Rows kept loaded at most (a single larger partition is still loaded, alone). Default 500,000. */
  rowBudget?: number;
}

/**
 * The loaded identity partitions of one snapshot, least recently used first out by total rows. Concurrent first
 * queries of a partition share one load; a partition evicted while queries use it is dropped after the last one.
 *
 * @example
 * const cache = new IdentityPartitionCache(db, { rowBudget: 500_000 });
 * const page = await cache.use(key, rows, () => files.localPath(key), (index) => ...);
 * await cache.clear(); // with the snapshot
 */
export class IdentityPartitionCache {
  /** In use order: the first entry is the least recently used. */
  private readonly entries = new Map<string, CacheEntry>();
  private readonly rowBudget: number;
  private closed = false;

  constructor(
    private readonly db: DuckDb,
    options: IdentityPartitionCacheOptions = {},
  ) {
    this.rowBudget = Math.max(0, options.rowBudget ?? DEFAULT_IDENTITY_ROW_BUDGET);
  }

  /** Rows of the partitions currently loaded or loading. */
  get loadedRows(): number {
    let sum = 0;
    for (const entry of this.entries.values()) sum += entry.rows;
    return sum;
  }

  /** Keys of the loaded partitions, least recently used first. */
  get loadedKeys(): string[] {
    return [...this.entries.keys()];
  }

  /**
   * Runs `work` over the index of partition `key` (`rows` rows, file at `file()`), loading it first if needed.
   * The table stays while `work` runs.
   */
  async use<T>(
    key: string,
    rows: number,
    file: () => Promise<string>,
    work: (index: IdentityIndex) => Promise<T>,
  ): Promise<T> {
    if (this.closed) throw new Error('identity partitions are closed');
    let entry = this.entries.get(key);
    if (entry === undefined) {
      this.evictFor(rows);
      entry = {
        key,
        rows,
        index: file().then((path) => loadIdentityIndex(this.db, path)),
        pins: 0,
        evicted: false,
      };
      this.entries.set(key, entry);
      const loading = entry;
      // A failed load is not remembered: the next query tries again.
      entry.index.catch(() => {
        if (this.entries.get(key) === loading) this.entries.delete(key);
      });
    } else {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    entry.pins += 1;
    try {
      return await work(await entry.index);
    } finally {
      entry.pins -= 1;
      if (entry.evicted && entry.pins === 0) this.drop(entry);
    }
  }

  /** Drops every table (the snapshot is released). Later `use` calls fail. */
  async clear(): Promise<void> {
    this.closed = true;
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(
      entries.map(async (entry) => {
        entry.evicted = true;
        const index = await entry.index.catch(() => null);
        if (index !== null) await dropIdentityIndex(this.db, index).catch(() => undefined);
      }),
    );
  }

  private evictFor(rows: number): void {
    for (const entry of this.entries.values()) {
      if (this.loadedRows + rows <= this.rowBudget) return;
      this.entries.delete(entry.key);
      entry.evicted = true;
      if (entry.pins === 0) this.drop(entry);
    }
  }

  private drop(entry: CacheEntry): void {
    entry.index.then(
      (index) => dropIdentityIndex(this.db, index).catch(() => undefined),
      () => undefined,
    );
  }
}
