/**
 * Reads an identity serving index (format.ts) from a {@link ByteSource}: a query is a few lookups (the code, state
 * and city by binary search in their sorted tables, the list in the directory), one slice of a posting list (or of
 * a code's record range) and the page's records (./page.ts). Cost O(limit + log n), whatever the offset or the
 * partition size.
 *
 * The source can be swapped while the reader lives (the partition cache moves a partition between memory and the
 * file): every read goes through `this.source`, and what the reader remembers (decoded dictionary strings) is the
 * same for both.
 *
 * @example
 * const reader = IdentityIndexReader.open(new FileSource(file));
 * reader.query({ code: '163W00000X', state: 'TX', city: null, limit: 50, offset: 0 }); // { total, rows }
 */
import type { IdentityRows, OigCells } from '../../data-contracts/identity-json';
import { findSorted } from '../binary/binary-search';
import type { ByteSource } from '../binary/byte-source';
import { RunFence } from '../binary/run-fence';
import { tableCount, tableFind, tableRange } from '../binary/string-table';
import { intern } from '../string-intern';
import {
  ANY,
  CANDIDATE_COUNT_VERSION,
  CITY_SECTIONS,
  cityKey,
  DIRECTORY_ENTRY_BYTES,
  decodeFlag,
  ENTITY_FLAGS,
  ENTITY_SHIFT,
  FIRST_BULK_SECTION,
  GEO_DIR_BYTES,
  GEO_FENCE_EVERY,
  GEO_SECTIONS,
  GEO_VERSION,
  type IdentityIndexHeader,
  magicVersion,
  OIG_ENTRY,
  OIG_ENTRY_BYTES,
  READABLE_VERSIONS,
  RECORD,
  REP_CODE,
  SECTIONS,
  type SectionName,
} from './format';
import { CITY_PART, GEO_PART, IdentityIndexPage, MAIN_PART, type PageSource } from './page';

/** An identity query in index terms. */
export interface IdentityIndexQuery {
  /** A taxonomy code, or null for a classification-name query (the class_rep rows). */
  code: string | null;
  /** Matched exactly. */
  state: string | null;
  /** Matched case-insensitively ({@link cityKey}). */
  city: string | null;
  limit: number;
  offset: number;
}

export interface IdentityIndexResult {
  total: number;
  rows: IdentityRows;
}

/** The ZIPs of a circle, as platform/geo/zip-table.ts `circle` gives them. */
export interface NearZips {
  /** ZIP ranks, nearest first (ties by rank). */
  ranks: Uint32Array;
  /** Their unrounded distances in miles. */
  miles: Float64Array;
  /** [first rank, count] of each cell holding the circle's ZIPs, in rank order. */
  cells: readonly (readonly [number, number])[];
  /** Where each cell starts in the cells' ranks laid end to end (zip-table.ts `CircleZips`). */
  cellOffsets: Uint32Array;
  /** The place of each of `ranks` in that layout. */
  local: Uint32Array;
  /** The layout's length. */
  span: number;
}

/** A radius query in index terms: the rows of `code` (or the class_rep rows) placed at one of `zips`. */
export interface IdentityNearQuery {
  code: string | null;
  zips: NearZips;
  entityType: 'individual' | 'organization' | null;
  limit: number;
  offset: number;
}

/** A radius query's page: its rows nearest first (ties by NPI), each row's distance in `miles`. */
export interface IdentityNearResult extends IdentityIndexResult {
  miles: Float64Array;
}

/** One ZIP's run of a radius list: where its records are and how far the ZIP is. */
interface NearRun {
  miles: number;
  rank: number;
  first: number;
  count: number;
}

/** Cities decoded and kept per reader at most (the other dictionaries are small and kept whole). */
const CITY_MEMO_LIMIT = 4096;

export class IdentityIndexReader implements PageSource {
  /** @internal */
  readonly sections: IdentityIndexHeader['sections'];
  private readonly counts: Record<'codes' | 'states' | 'cityKeys' | 'directory', number>;
  /** Decoded dictionary strings by id (ids are dense: arrays, not maps); `undefined` = not decoded yet. */
  private readonly memo = {
    codes: [] as (string | null | undefined)[],
    displays: [] as (string | null | undefined)[],
    states: [] as (string | null | undefined)[],
    dates: [] as (string | null | undefined)[],
    oig: [] as (string | null | undefined)[],
    cities: new Map<number, string | null>(),
  };
  /** The `oig` entries' fence (platform/binary/run-fence.ts), by record number. */
  private readonly oigFence: RunFence;

  private constructor(
    public source: ByteSource,
    readonly header: IdentityIndexHeader,
  ) {
    this.sections = header.sections;
    this.counts = {
      codes: this.tableCount('codes'),
      states: this.tableCount('states'),
      cityKeys: this.tableCount('city_keys'),
      directory: this.sections.directory[1] / DIRECTORY_ENTRY_BYTES,
    };
    this.oigFence = new RunFence(this.sections.oig, OIG_ENTRY_BYTES, (entries, at) => entries.readUInt32LE(at));
  }

  /** Reads and checks the header. Throws on a file that is not an index of a version this code reads. */
  static open(source: ByteSource): IdentityIndexReader {
    const fileVersion = source.size < 12 ? null : magicVersion(source.slice(0, 8));
    if (fileVersion === null) throw new Error('not an identity serving index');
    const header = JSON.parse(source.slice(12, source.u32(8)).toString('utf8')) as IdentityIndexHeader;
    const version = READABLE_VERSIONS.find((v) => v === fileVersion && v === header.version);
    if (version === undefined) {
      throw new Error(
        `identity serving index version ${fileVersion}, this code reads versions ${READABLE_VERSIONS.join(', ')}`,
      );
    }
    // Version 2 has no clustered city lists: empty sections at the file's end, never read (see query).
    if (version === 2 && header.sections) for (const name of CITY_SECTIONS) header.sections[name] = [source.size, 0];
    // Before version 5 there are no radius lists: empty sections at the file's end ({@link hasRadiusLists}).
    if (version < GEO_VERSION && header.sections)
      for (const name of GEO_SECTIONS) header.sections[name] = [source.size, 0];
    for (const name of SECTIONS) {
      const [offset, bytes] = header.sections?.[name] ?? [-1, -1];
      if (!(offset >= 0 && bytes >= 0 && offset + bytes <= source.size)) {
        throw new Error(`identity serving index: section ${name} is out of bounds`);
      }
    }
    return new IdentityIndexReader(source, header);
  }

  get classificationKey(): string {
    return this.header.classification_key;
  }

  /** Bytes of the file's head that hold everything a lookup reads (the meta region, format.ts). */
  get metaLength(): number {
    return this.sections[FIRST_BULK_SECTION][0];
  }

  /** The total of a query and the rows of its page, in NPI order. */
  query(q: IdentityIndexQuery): IdentityIndexResult {
    const t = q.code === null ? REP_CODE : this.find('codes', q.code, this.counts.codes);
    const s = q.state === null ? ANY : this.find('states', q.state, this.counts.states);
    const c = q.city === null ? ANY : this.find('city_keys', cityKey(q.city), this.counts.cityKeys);
    if ((q.code !== null && t === 0) || (q.state !== null && s === 0) || (q.city !== null && c === 0)) {
      return { total: 0, rows: new IdentityIndexPage(this, MAIN_PART, new Uint32Array(0)) };
    }

    if (t !== REP_CODE && s === ANY && c === ANY) {
      const [rangeOffset] = this.sections.code_ranges;
      const first = this.source.u32(rangeOffset + 8 * t);
      const total = this.source.u32(rangeOffset + 8 * t + 4);
      return { total, rows: new IdentityIndexPage(this, MAIN_PART, range(first, total, q)) };
    }
    const entry = this.directoryEntry(t, s, c);
    if (entry === null) return { total: 0, rows: new IdentityIndexPage(this, MAIN_PART, new Uint32Array(0)) };
    const total = entry.count;
    const city = this.clustered && s !== ANY && c !== ANY;
    if (city && t !== REP_CODE) {
      // A code's city list: its records lie one after the other in city_records (format.ts).
      return { total, rows: new IdentityIndexPage(this, CITY_PART, range(entry.first, total, q)) };
    }
    // A posting list; a classification's city list holds places in city_records, close together (format.ts).
    const [from, to] = pageWindow(total, q);
    const bytes = this.source.slice(this.sections.postings[0] + 4 * (entry.first + from), 4 * (to - from));
    const records = new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    return { total, rows: new IdentityIndexPage(this, city ? CITY_PART : MAIN_PART, records) };
  }

  /** Whether the file has radius lists (version 5 on). */
  get hasRadiusLists(): boolean {
    return this.header.version >= GEO_VERSION;
  }

  /**
   * The total of a radius query and its page, nearest first, then by NPI. Reads t's directory entries of the
   * circle's cells (one round for all of them), then only the runs the page needs (or, with an entity type, every
   * run of the circle, to count the matching records). Throws on a file without radius lists.
   */
  nearQuery(q: IdentityNearQuery): IdentityNearResult {
    if (!this.hasRadiusLists) throw new Error('identity serving index: no radius lists before version 5');
    const none: IdentityNearResult = {
      total: 0,
      rows: new IdentityIndexPage(this, GEO_PART, new Uint32Array(0)),
      miles: new Float64Array(0),
    };
    const t = q.code === null ? REP_CODE : this.find('codes', q.code, this.counts.codes);
    if (q.code !== null && t === 0) return none;
    const runs = this.nearRuns(t, q.zips);
    if (runs.length === 0) return none;
    const recordBase = this.sections.geo_records[0];
    const entityBits = q.entityType === null ? 0 : ENTITY_FLAGS[q.entityType];
    if (entityBits !== 0) {
      this.source.need?.(runs.map((r) => [recordBase + r.first * RECORD.bytes, r.count * RECORD.bytes] as const));
    }
    const matches = (record: number) =>
      entityBits === 0 ||
      (((this.source.slice(recordBase + record * RECORD.bytes + RECORD.flags, 1)[0] as number) >> ENTITY_SHIFT) & 3) ===
        entityBits;
    let total = 0;
    if (entityBits === 0) for (const r of runs) total += r.count;
    const records: number[] = [];
    const miles: number[] = [];
    let skip = q.offset;
    // Runs of equal distance (ZIPs sharing a centroid, or exactly as far) are one group, merged by NPI.
    for (let g = 0; g < runs.length; ) {
      let end = g + 1;
      while (end < runs.length && (runs[end] as NearRun).miles === (runs[g] as NearRun).miles) end += 1;
      const group = runs.slice(g, end);
      g = end;
      const groupCount = group.reduce((sum, r) => sum + r.count, 0);
      if (entityBits === 0 && (records.length >= q.limit || skip >= groupCount)) {
        if (records.length < q.limit) skip -= groupCount;
        continue;
      }
      const members = group.length === 1 ? rangeOf(group[0] as NearRun) : this.byNpi(group);
      for (const record of members) {
        if (!matches(record)) continue;
        if (entityBits !== 0) total += 1;
        if (skip > 0) {
          skip -= 1;
          continue;
        }
        if (records.length < q.limit) {
          records.push(record);
          miles.push((group[0] as NearRun).miles);
        } else if (entityBits === 0) break;
      }
    }
    return {
      total,
      rows: new IdentityIndexPage(this, GEO_PART, Uint32Array.from(records)),
      miles: Float64Array.from(miles),
    };
  }

  /** t's radius-list runs at the circle's ZIPs, nearest first (ties by rank). */
  private nearRuns(t: number, zips: NearZips): NearRun[] {
    const [rangesBase] = this.sections.geo_ranges;
    if (this.sections.geo_ranges[1] < 8 * (t + 1)) return [];
    const from = this.source.u32(rangesBase + 8 * t);
    const count = this.source.u32(rangesBase + 8 * t + 4);
    if (count === 0 || zips.ranks.length === 0) return [];
    const to = from + count;
    // Each cell's window of t's entries, from the fence alone; then every window's bytes in one round.
    const windows = zips.cells.map(([first, n]): [number, number] => [
      this.fenceBound(first, from, to),
      this.fenceUpper(first + n, from, to),
    ]);
    const dirBase = this.sections.geo_dir[0];
    // Neighbouring cells of a row of cells have neighbouring ranks, so their windows touch: one read per stretch.
    const stretches: [number, number][] = [];
    for (const [lo, hi] of windows) {
      if (hi <= lo) continue;
      const last = stretches[stretches.length - 1];
      if (last !== undefined && lo <= last[1] + GEO_FENCE_EVERY) last[1] = Math.max(last[1], hi);
      else stretches.push([lo, hi]);
    }
    this.source.need?.(stretches.map(([lo, hi]) => [dirBase + lo * GEO_DIR_BYTES, (hi - lo) * GEO_DIR_BYTES] as const));
    const stretchBytes = stretches.map(([lo, hi]) =>
      this.source.slice(dirBase + lo * GEO_DIR_BYTES, (hi - lo) * GEO_DIR_BYTES),
    );
    // Each run by its ZIP's place in the circle's cell space (no map): first record + 1 (0: no run) and count.
    const runFirst = new Uint32Array(zips.span);
    const runCount = new Uint32Array(zips.span);
    let s = 0;
    windows.forEach(([lo, hi], k) => {
      if (hi <= lo) return;
      while ((stretches[s] as [number, number])[1] < hi) s += 1;
      const [stretchLo] = stretches[s] as [number, number];
      const stretch = stretchBytes[s] as Buffer;
      const [cellFirst, cellCount] = zips.cells[k] as readonly [number, number];
      const offset = zips.cellOffsets[k] as number;
      const bytes = stretch.subarray((lo - stretchLo) * GEO_DIR_BYTES, (hi - stretchLo) * GEO_DIR_BYTES);
      for (let at = 0; at < bytes.length; at += GEO_DIR_BYTES) {
        const rank = bytes.readUInt32LE(at);
        if (rank < cellFirst || rank >= cellFirst + cellCount) continue;
        runFirst[offset + rank - cellFirst] = bytes.readUInt32LE(at + 4) + 1;
        runCount[offset + rank - cellFirst] = bytes.readUInt32LE(at + 8);
      }
    });
    // The circle's ZIPs are nearest first already: its runs come out in order.
    const runs: NearRun[] = [];
    for (let i = 0; i < zips.ranks.length; i += 1) {
      const place = zips.local[i] as number;
      const first = runFirst[place] as number;
      if (first === 0) continue;
      runs.push({
        miles: zips.miles[i] as number,
        rank: zips.ranks[i] as number,
        first: first - 1,
        count: runCount[place] as number,
      });
    }
    return runs;
  }

  /**
   * A lower bound, within t's entries [from, to), of the first entry whose rank is at least `rank`: the last fence
   * entry below it (the fence holds every GEO_FENCE_EVERY-th entry's rank, in the meta region).
   */
  private fenceBound(rank: number, from: number, to: number): number {
    const k = this.lastFenceBelow(rank, from, to);
    return k < 0 ? from : k * GEO_FENCE_EVERY;
  }

  /** An upper bound, within [from, to), of the entries whose rank is below `rank`: the next fence after them. */
  private fenceUpper(rank: number, from: number, to: number): number {
    const k = this.lastFenceBelow(rank, from, to);
    return Math.min(to, (k < 0 ? Math.ceil(from / GEO_FENCE_EVERY) : k + 1) * GEO_FENCE_EVERY);
  }

  /** The last fence k whose entry lies within [from, to) and whose rank is below `rank`, or -1. */
  private lastFenceBelow(rank: number, from: number, to: number): number {
    const base = this.sections.geo_fence[0];
    let lo = Math.ceil(from / GEO_FENCE_EVERY);
    let hi = Math.floor((to - 1) / GEO_FENCE_EVERY);
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (this.source.u32(base + 4 * mid) < rank) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** The records of equally distant runs, merged by NPI. */
  private byNpi(group: readonly NearRun[]): number[] {
    const base = this.sections.geo_records[0];
    this.source.need?.(group.map((r) => [base + r.first * RECORD.bytes, r.count * RECORD.bytes] as const));
    const all = group.flatMap((r) => Array.from(rangeOf(r)));
    const npi = (record: number) => this.source.slice(base + record * RECORD.bytes + RECORD.npi, 10).toString('latin1');
    const keyed = all.map((record) => ({ record, npi: npi(record) }));
    keyed.sort((a, b) => (a.npi < b.npi ? -1 : a.npi > b.npi ? 1 : 0));
    return keyed.map((k) => k.record);
  }

  /** Whether the city lists are clustered (version 3 on) rather than posting lists. */
  private get clustered(): boolean {
    return this.header.version >= 3;
  }

  private directoryEntry(t: number, s: number, c: number): { first: number; count: number } | null {
    const base = this.sections.directory[0];
    const { source } = this;
    const i = findSorted(0, this.counts.directory, (probe) => {
      const at = base + probe * DIRECTORY_ENTRY_BYTES;
      return source.u32(at) - t || source.u32(at + 4) - s || source.u32(at + 8) - c;
    });
    if (i < 0) return null;
    const at = base + i * DIRECTORY_ENTRY_BYTES;
    return { first: source.u32(at + 12), count: source.u32(at + 16) };
  }

  /**
   * @internal The `oig_*` cells of a record flagged as having them, found through the OIG fence (one read of the run
   * of entries that can hold it).
   */
  oigOf(record: number): OigCells | null {
    const entry = this.oigFence.find(this.source, record);
    if (entry === null) return null;
    return {
      oig_excluded: decodeFlag(entry[OIG_ENTRY.excluded] as number),
      oig_type: this.text('oig_strings', entry.readUInt32LE(OIG_ENTRY.type)),
      oig_date: this.text('oig_strings', entry.readUInt32LE(OIG_ENTRY.date)),
      oig_checked_at: this.text('oig_strings', entry.readUInt32LE(OIG_ENTRY.checkedAt)),
      oig_candidate_count:
        this.header.version >= CANDIDATE_COUNT_VERSION ? entry.readUInt16LE(OIG_ENTRY.candidates) : 0,
    };
  }

  private tableCount(name: SectionName): number {
    return tableCount(this.source, this.sections[name][0]);
  }

  /** The bytes of entry `id` (1-based) of a string table. */
  private entry(name: SectionName, id: number): Buffer {
    return this.source.slice(...tableRange(this.source, this.sections[name][0], id));
  }

  /** The id of `value` in a sorted string table, 0 when absent. */
  private find(name: SectionName, value: string, count: number): number {
    return tableFind(this.source, this.sections[name][0], value, count);
  }

  /** @internal */
  text(name: 'codes' | 'states' | 'dates' | 'oig_strings', id: number): string | null {
    if (id === ANY) return null;
    const memo = name === 'oig_strings' ? this.memo.oig : this.memo[name];
    let value = memo[id];
    if (value === undefined) {
      // Codes, states and dates recur across partitions: one copy per process (platform/string-intern.ts).
      value = intern(this.entry(name, id).toString('utf8'));
      memo[id] = value;
    }
    return value;
  }

  /** @internal */
  display(code: number): string | null {
    if (code === ANY) return null;
    let value = this.memo.displays[code];
    if (value === undefined) {
      const text = this.entry('displays', code).toString('utf8');
      value = text === '' ? null : text;
      this.memo.displays[code] = value;
    }
    return value;
  }

  /** @internal */
  city(id: number): string | null {
    if (id === ANY) return null;
    let value = this.memo.cities.get(id);
    if (value === undefined) {
      value = intern(this.entry('cities', id).toString('utf8'));
      if (this.memo.cities.size >= CITY_MEMO_LIMIT) this.memo.cities.clear();
      this.memo.cities.set(id, value);
    }
    return value;
  }
}

/** The record numbers of a run, in order. */
function rangeOf(run: { first: number; count: number }): Uint32Array {
  const out = new Uint32Array(run.count);
  for (let i = 0; i < run.count; i += 1) out[i] = run.first + i;
  return out;
}

/** The positions `[from, to)` of the page `q` asks for in a list of `total` entries. */
function pageWindow(total: number, q: IdentityIndexQuery): [from: number, to: number] {
  return [Math.min(q.offset, total), Math.min(total, q.offset + q.limit)];
}

/** The record numbers of the page `q` asks for in a list of `total` consecutive records from `first`. */
function range(first: number, total: number, q: IdentityIndexQuery): Uint32Array {
  const [from, to] = pageWindow(total, q);
  const records = new Uint32Array(to - from);
  for (let i = 0; i < to - from; i += 1) records[i] = first + from + i;
  return records;
}
