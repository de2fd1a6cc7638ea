/**
 * The identity layer in memory, one partition (one NUCC classification) at a time, loaded on the first query that
 * needs it, the way `snapshot-tables.ts` loads the vertical layer: read with DuckDB once per load (columnar reads
 * of `read_parquet(<file>)`, {@link loadIdentityIndex}), then served from JS memory. No DuckDB table is kept and
 * no SQL runs per request.
 *
 * A partition is a columnar store in list order (`npi, taxonomy_code`: the contract orders identity results by
 * NPI), position = row:
 * - `npi` and `name`, the only per-row distinct strings, as UTF-8 bytes in one Buffer with end offsets;
 * - dictionary ids per row for the taxonomy (the distinct `(taxonomy_code, taxonomy_display)` pairs: the display
 *   is resolved through the code's dictionary entry), state, city (plus a lower-cased id per city entry, for the
 *   case-insensitive filter), checked_at and classification_key;
 * - `is_primary` and `class_rep` flags; the `oig_*` columns as a sparse map of the rows whose cells differ from
 *   "no match" (`oig_excluded = false`, the rest NULL), which are rare;
 * - per taxonomy code its rows (ascending), and the `class_rep` rows: a query walks only these.
 *
 * A query is one pass over a posting list (the total and the page's row positions at once, whatever the offset),
 * then the page's rows built from the columns: on the bench's largest partition (127,108 rows) well under a
 * millisecond, against 1 to 1.5 ms of DuckDB work per request for a rowid fetch from a DuckDB table (the previous
 * design) and 17 ms (page) or 50 ms (offset 100,000) for a top-N over `read_parquet` (test/bench/api-bench.ts).
 *
 * Request values never reach SQL text: filters are compared as dictionary ids in JS. The load's SQL is built from
 * the contract's column names and a file path from the manifest's allow-list.
 *
 * Memory: an {@link IdentityPartitionCache} bounds the loaded partitions by their total row count (least recently
 * used first out); an evicted partition goes with its last reference. A partition holds about
 * {@link IDENTITY_BYTES_PER_ROW} bytes per row (measured on the bench's partition: npi and names 27 bytes, offsets
 * 8, ids and flags 12, posting lists 8). Loading the 127,108-row partition takes about 0.3 s and raises the
 * process's peak RSS by 60 to 80 MB, transiently (DuckDB's scans and sort, the chunks' conversion).
 */
import { IDENTITY_TABLE, type IdentityColumn } from '../../data-contracts/layout';
import type { IdentityRow } from '../../data-contracts/rows';
import { type DuckDb, sqlIdentifier, sqlStringLiteral, type TextColumn } from '../storage/duckdb';

/** Approximate JS bytes per loaded row (see the module comment). */
export const IDENTITY_BYTES_PER_ROW = 56;

/** Default {@link IdentityPartitionCache} budget: about 56 MB of columns at {@link IDENTITY_BYTES_PER_ROW}. */
export const DEFAULT_IDENTITY_ROW_BUDGET = 1_000_000;

/** Dictionary id of a value that is NULL, or of a request value the partition does not hold: matches nothing. */
const NONE = 0;

/** Columns stored through a dictionary, in this order in the load's SQL. */
const DICTIONARY_COLUMNS = [
  'taxonomy_code',
  'taxonomy_display',
  'classification_key',
  'city',
  'state',
  'checked_at',
] as const satisfies readonly IdentityColumn[];

/** The `oig_*` columns: a row whose cells are not `false, NULL, NULL, NULL` is kept in a sparse map. */
const OIG_COLUMNS = [
  'oig_excluded',
  'oig_type',
  'oig_date',
  'oig_checked_at',
] as const satisfies readonly IdentityColumn[];

// Every contract column is loaded exactly once: npi and name as text, the flags, the dictionaries, the OIG cells.
const LOADED = ['npi', 'name', 'is_primary', 'class_rep', ...DICTIONARY_COLUMNS, ...OIG_COLUMNS];
if (
  LOADED.length !== Object.keys(IDENTITY_TABLE).length ||
  Object.keys(IDENTITY_TABLE).some((c) => !LOADED.includes(c))
) {
  throw new Error('identity-index.ts: the load must read every IDENTITY_TABLE column once');
}

type Ids = Uint16Array | Uint32Array;

/** The `oig_*` cells of a row that is not plain "no match". */
interface OigCells {
  readonly oig_excluded: boolean | null;
  readonly oig_type: string | null;
  readonly oig_date: string | null;
  readonly oig_checked_at: string | null;
}

/** One loaded identity partition: its columns and its filter index, all in NPI order (position = row). */
export interface IdentityIndex {
  readonly rowCount: number;
  /** Row i's npi is `text[ends[2i - 1] ?? 0, ends[2i])`, its name `text[ends[2i], ends[2i + 1])` (UTF-8). */
  readonly text: Buffer;
  readonly ends: Uint32Array;
  /** Rows whose npi or name is NULL (none in practice): bit 1 npi, bit 2 name. */
  readonly textNulls: ReadonlyMap<number, number>;
  /** Per row: the id of its `(taxonomy_code, taxonomy_display)` entry (0 = both NULL). */
  readonly taxonomyIds: Ids;
  readonly taxonomyCode: readonly (string | null)[];
  readonly taxonomyDisplay: readonly (string | null)[];
  /** Per row: dictionary ids (0 = NULL) into the value lists. */
  readonly stateIds: Ids;
  readonly stateValues: readonly (string | null)[];
  readonly cityIds: Ids;
  readonly cityValues: readonly (string | null)[];
  /** Per city id: the id of its lower-cased spelling in `cities` (0 = NULL). */
  readonly cityLower: Uint32Array;
  readonly checkedAtIds: Ids;
  readonly checkedAtValues: readonly (string | null)[];
  readonly classificationIds: Ids;
  readonly classificationValues: readonly (string | null)[];
  /** Per row: 0 false, 1 true, 2 NULL. */
  readonly isPrimary: Uint8Array;
  readonly classRep: Uint8Array;
  /** The rows whose `oig_*` cells are not `false, NULL, NULL, NULL`. */
  readonly oig: ReadonlyMap<number, OigCells>;
  /** Rows (ascending) of the class_rep rows, and of the rows of each taxonomy code. */
  readonly repRows: Uint32Array;
  readonly rowsByCode: ReadonlyMap<string, Uint32Array>;
  /** State and lower-cased city to dictionary id (ids start at 1). */
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

/**
 * Loads one partition file (a path from the manifest's allow-list) into a columnar store with its index.
 *
 * DuckDB does the string work, so that few JS values are made per row: one query lists the sorted distinct values
 * of the dictionary columns; one sorts only the key columns and returns the list order as file row numbers; one
 * scans the file unsorted and returns per row its file row number, `npi || name` (read into one Buffer), the
 * length of npi, the flags and the dictionary ids (joins on the sorted distinct values), each row then placed at
 * its list position in JS. The rare OIG rows are read by file row number. The file row number breaks ties, so the
 * order is total.
 */
export async function loadIdentityIndex(db: DuckDb, file: string): Promise<IdentityIndex> {
  const source = `read_parquet(${sqlStringLiteral(file)}, file_row_number = true)`;
  const order = 'npi, taxonomy_code, file_row_number';
  const q = (column: string) => sqlIdentifier(column);

  const [lists] = await db.query(
    `SELECT ${DICTIONARY_COLUMNS.map((c) => `list(DISTINCT ${q(c)} ORDER BY ${q(c)}) FILTER (WHERE ${q(c)} IS NOT NULL) AS ${q(c)}`).join(', ')} FROM ${source}`,
  );
  const values = DICTIONARY_COLUMNS.map((c) => {
    const list = lists?.[c] as unknown;
    return [null, ...(Array.isArray(list) ? list.map(String) : [])] as (string | null)[];
  });

  const dictionaries = DICTIONARY_COLUMNS.map(
    (c, i) =>
      `d${i} AS (SELECT v, (row_number() OVER (ORDER BY v))::UINTEGER AS id ` +
      `FROM (SELECT DISTINCT ${q(c)} AS v FROM ${source} WHERE ${q(c)} IS NOT NULL))`,
  );
  const oigOther =
    'NOT (oig_excluded IS NOT DISTINCT FROM false AND oig_type IS NULL AND oig_date IS NULL AND oig_checked_at IS NULL)';
  // The list order as file row numbers: DuckDB sorts the key columns only, not the rows' values.
  const [sorted] = (await db.queryColumns(`SELECT file_row_number::UINTEGER FROM ${source} ORDER BY ${order}`, [
    Uint32Array,
  ])) as [Uint32Array];
  const rowCount = sorted.length;
  const positionOf = new Uint32Array(rowCount);
  for (let p = 0; p < rowCount; p += 1) positionOf[sorted[p] as number] = p;

  // The values in whatever order the scan and the joins produce (nothing is sorted or buffered), each row placed
  // at its list position by its file row number.
  const columns = await db.queryColumns(
    `WITH ${dictionaries.join(', ')} ` +
      "SELECT file_row_number::UINTEGER, coalesce(npi, '') || coalesce(name, ''), " +
      "strlen(coalesce(npi, ''))::UINTEGER, " +
      '((npi IS NULL)::UTINYINT + 2 * (name IS NULL)::UTINYINT)::UTINYINT, ' +
      'coalesce(is_primary::UTINYINT, 2), coalesce(class_rep::UTINYINT, 2), ' +
      `(${oigOther})::UTINYINT, ${DICTIONARY_COLUMNS.map((_, i) => `coalesce(d${i}.id, 0)`).join(', ')} ` +
      `FROM ${source} AS src ` +
      DICTIONARY_COLUMNS.map((c, i) => `LEFT JOIN d${i} ON src.${q(c)} = d${i}.v`).join(' '),
    [
      Uint32Array,
      'text',
      Uint32Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
      ...DICTIONARY_COLUMNS.map(() => Uint32Array),
    ],
  );
  const [fileRows, joined, npiLengths, ...rest] = columns as [TextColumn | Uint32Array, ...unknown[]] as [
    Uint32Array,
    TextColumn,
    Uint32Array,
    ...(Uint8Array | Uint32Array)[],
  ];
  if (fileRows.length !== rowCount) throw new Error(`identity load: ${fileRows.length} rows, ${rowCount} expected`);
  const place = <T extends Uint8Array | Uint32Array>(values: T): T => {
    const out = new (values.constructor as new (n: number) => T)(rowCount);
    for (let k = 0; k < rowCount; k += 1) out[positionOf[fileRows[k] as number] as number] = values[k] as number;
    return out;
  };
  const [nullFlags, isPrimary, classRep, oigFlags] = rest.slice(0, 4).map(place) as Uint8Array[] as [
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
  ];
  const dictionaryIds = rest.slice(4).map(place) as Uint32Array[];

  // npi and name bytes in list order; per row two ends: after its npi, after its name.
  const sourceAt = new Uint32Array(rowCount);
  for (let k = 0; k < rowCount; k += 1) sourceAt[positionOf[fileRows[k] as number] as number] = k;
  const text = Buffer.allocUnsafe(joined.bytes.length);
  const ends = new Uint32Array(rowCount * 2);
  const textNulls = new Map<number, number>();
  let at = 0;
  for (let p = 0; p < rowCount; p += 1) {
    const k = sourceAt[p] as number;
    const start = k === 0 ? 0 : (joined.ends[k - 1] as number);
    const end = joined.ends[k] as number;
    joined.bytes.copy(text, at, start, end);
    ends[2 * p] = at + (npiLengths[k] as number);
    at += end - start;
    ends[2 * p + 1] = at;
    if (nullFlags[p] !== 0) textNulls.set(p, nullFlags[p] as number);
  }

  const oig = await loadOig(db, source, oigOther, oigFlags, positionOf);

  const column = (name: (typeof DICTIONARY_COLUMNS)[number]) => {
    const i = DICTIONARY_COLUMNS.indexOf(name);
    const list = values[i] as (string | null)[];
    return { ids: narrow(dictionaryIds[i] as Uint32Array, list.length), values: list };
  };
  const code = column('taxonomy_code');
  const display = column('taxonomy_display');

  // Taxonomy entries: the distinct (code, display) pairs.
  const pairOf = new Map<number, number>();
  const taxonomyCode: (string | null)[] = [null];
  const taxonomyDisplay: (string | null)[] = [null];
  const pairIds = new Uint32Array(rowCount);
  for (let i = 0; i < rowCount; i += 1) {
    const c = code.ids[i] as number;
    const d = display.ids[i] as number;
    if (c === NONE && d === NONE) continue;
    const key = c * 0x100000000 + d;
    let id = pairOf.get(key);
    if (id === undefined) {
      id = taxonomyCode.length;
      taxonomyCode.push(code.values[c] ?? null);
      taxonomyDisplay.push(display.values[d] ?? null);
      pairOf.set(key, id);
    }
    pairIds[i] = id;
  }
  const taxonomyIds = narrow(pairIds, taxonomyCode.length);

  const city = column('city');
  const cities = new Map<string, number>();
  const cityLower = new Uint32Array(city.values.length);
  city.values.forEach((value, id) => {
    if (value === null) return;
    const lower = value.toLowerCase();
    let lowerId = cities.get(lower);
    if (lowerId === undefined) {
      lowerId = cities.size + 1;
      cities.set(lower, lowerId);
    }
    cityLower[id] = lowerId;
  });

  const state = column('state');
  const states = new Map<string, number>();
  state.values.forEach((value, id) => {
    if (value !== null) states.set(value, id);
  });
  const checkedAt = column('checked_at');
  const classification = column('classification_key');

  return {
    rowCount,
    text,
    ends,
    textNulls,
    taxonomyIds,
    taxonomyCode,
    taxonomyDisplay,
    stateIds: state.ids,
    stateValues: state.values,
    cityIds: city.ids,
    cityValues: city.values,
    cityLower,
    checkedAtIds: checkedAt.ids,
    checkedAtValues: checkedAt.values,
    classificationIds: classification.ids,
    classificationValues: classification.values,
    isPrimary,
    classRep,
    oig,
    repRows: rowsWhere(classRep, 1),
    rowsByCode: postings(taxonomyIds, taxonomyCode),
    states,
    cities,
  };
}

/** The OIG cells of the rows flagged in `flags` (list positions), read only when there are any. */
async function loadOig(
  db: DuckDb,
  source: string,
  other: string,
  flags: Uint8Array,
  positionOf: Uint32Array,
): Promise<Map<number, OigCells>> {
  const out = new Map<number, OigCells>();
  if (!flags.includes(1)) return out;
  const rows = await db.query(`SELECT file_row_number AS r, ${OIG_COLUMNS.join(', ')} FROM ${source} WHERE ${other}`);
  const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
  for (const row of rows) {
    out.set(positionOf[Number(row.r)] as number, {
      oig_excluded: row.oig_excluded === null ? null : row.oig_excluded === true,
      oig_type: str(row.oig_type),
      oig_date: str(row.oig_date),
      oig_checked_at: str(row.oig_checked_at),
    });
  }
  return out;
}

function narrow(ids: Uint32Array, size: number): Ids {
  return size <= 0x10000 ? Uint16Array.from(ids) : ids;
}

function rowsWhere(values: Uint8Array, value: number): Uint32Array {
  let count = 0;
  for (let i = 0; i < values.length; i += 1) if (values[i] === value) count += 1;
  const out = new Uint32Array(count);
  let at = 0;
  for (let i = 0; i < values.length; i += 1) if (values[i] === value) out[at++] = i;
  return out;
}

/** Rows per taxonomy code (entries sharing a code merged), ascending. */
function postings(ids: Ids, codes: readonly (string | null)[]): Map<string, Uint32Array> {
  // Code ids: one per distinct code string; entry -> code id.
  const codeIdOf = new Map<string, number>();
  const codeOfEntry = new Uint32Array(codes.length);
  codes.forEach((value, entry) => {
    if (value === null) return;
    let id = codeIdOf.get(value);
    if (id === undefined) {
      id = codeIdOf.size + 1;
      codeIdOf.set(value, id);
    }
    codeOfEntry[entry] = id;
  });
  const counts = new Uint32Array(codeIdOf.size + 1);
  for (let i = 0; i < ids.length; i += 1) {
    const id = codeOfEntry[ids[i] as number] as number;
    counts[id] = (counts[id] as number) + 1;
  }
  const lists = Array.from(counts, (n) => new Uint32Array(n));
  const fill = new Uint32Array(counts.length);
  for (let i = 0; i < ids.length; i += 1) {
    const id = codeOfEntry[ids[i] as number] as number;
    const at = fill[id] as number;
    (lists[id] as Uint32Array)[at] = i;
    fill[id] = at + 1;
  }
  return new Map([...codeIdOf].map(([value, id]) => [value, lists[id] as Uint32Array] as const));
}

/**
 * The total of a query and the rows of its page, in one pass in NPI order over the rows of its code (or the
 * class_rep rows); without a state or city filter, straight from that list.
 * @example scanIdentityIndex(index, { code: '163W00000X', state: 'TX', city: null, limit: 50, offset: 0 })
 */
export function scanIdentityIndex(index: IdentityIndex, filter: IdentityFilter): { total: number; rowids: number[] } {
  const state = filter.state === null ? null : (index.states.get(filter.state) ?? NONE);
  const city = filter.city === null ? null : (index.cities.get(filter.city.toLowerCase()) ?? NONE);
  if (state === NONE || city === NONE) return { total: 0, rowids: [] };
  const candidates = filter.code === null ? index.repRows : index.rowsByCode.get(filter.code);
  if (candidates === undefined) return { total: 0, rowids: [] };
  const first = filter.offset;
  const end = filter.offset + filter.limit;
  if (state === null && city === null) {
    return { total: candidates.length, rowids: Array.from(candidates.subarray(first, end)) };
  }
  const { stateIds, cityIds, cityLower } = index;
  const rowids: number[] = [];
  let total = 0;
  for (let k = 0; k < candidates.length; k += 1) {
    const i = candidates[k] as number;
    if (state !== null && stateIds[i] !== state) continue;
    if (city !== null && cityLower[cityIds[i] as number] !== city) continue;
    if (total >= first && total < end) rowids.push(i);
    total += 1;
  }
  return { total, rowids };
}

/** Field 0 (npi) or 1 (name) of `row`. */
function textAt(index: IdentityIndex, row: number, field: 0 | 1): string | null {
  if (index.textNulls.size > 0 && ((index.textNulls.get(row) ?? 0) & (field + 1)) !== 0) return null;
  const k = 2 * row + field;
  return index.text.toString('utf8', k === 0 ? 0 : index.ends[k - 1], index.ends[k]);
}

function flag(values: Uint8Array, row: number): boolean | null {
  const v = values[row];
  return v === 2 ? null : v === 1;
}

/** The rows at `rowids` (positions from {@link scanIdentityIndex}), built from the columns, in that order. */
export function identityRows(index: IdentityIndex, rowids: readonly number[]): IdentityRow[] {
  return rowids.map((i) => {
    const t = index.taxonomyIds[i] as number;
    const oig = index.oig.get(i);
    return {
      npi: textAt(index, i, 0),
      name: textAt(index, i, 1),
      taxonomy_code: index.taxonomyCode[t] ?? null,
      taxonomy_display: index.taxonomyDisplay[t] ?? null,
      classification_key: index.classificationValues[index.classificationIds[i] as number] ?? null,
      is_primary: flag(index.isPrimary, i),
      class_rep: flag(index.classRep, i),
      city: index.cityValues[index.cityIds[i] as number] ?? null,
      state: index.stateValues[index.stateIds[i] as number] ?? null,
      checked_at: index.checkedAtValues[index.checkedAtIds[i] as number] ?? null,
      oig_excluded: oig === undefined ? false : oig.oig_excluded,
      oig_type: oig?.oig_type ?? null,
      oig_date: oig?.oig_date ?? null,
      oig_checked_at: oig?.oig_checked_at ?? null,
    };
  });
}

interface CacheEntry {
  readonly key: string;
  /** The manifest's row count: known before loading, so the budget is kept before the columns exist. */
  readonly rows: number;
  readonly index: Promise<IdentityIndex>;
}

/** Options of {@link IdentityPartitionCache}. */
export interface IdentityPartitionCacheOptions {
  /** Rows kept loaded at most (a single larger partition is still loaded, alone). Default 1,000,000. */
  rowBudget?: number;
}

/**
 * The loaded identity partitions of one snapshot, least recently used first out by total rows. Concurrent first
 * queries of a partition share one load. An evicted partition's columns go with the last query that holds them.
 *
 * @example
 * const cache = new IdentityPartitionCache(db, { rowBudget: 1_000_000 });
 * const page = await cache.use(key, rows, () => files.localPath(key), (index) => ...);
 * cache.clear(); // with the snapshot
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

  /** Runs `work` over the index of partition `key` (`rows` rows, file at `file()`), loading it first if needed. */
  async use<T>(
    key: string,
    rows: number,
    file: () => Promise<string>,
    work: (index: IdentityIndex) => T | Promise<T>,
  ): Promise<T> {
    if (this.closed) throw new Error('identity partitions are closed');
    let entry = this.entries.get(key);
    if (entry === undefined) {
      this.evictFor(rows);
      entry = { key, rows, index: file().then((path) => loadIdentityIndex(this.db, path)) };
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
    return work(await entry.index);
  }

  /** Forgets every partition (the snapshot is released). Later `use` calls fail. */
  clear(): void {
    this.closed = true;
    this.entries.clear();
  }

  private evictFor(rows: number): void {
    for (const entry of this.entries.values()) {
      if (this.loadedRows + rows <= this.rowBudget) return;
      this.entries.delete(entry.key);
    }
  }
}
