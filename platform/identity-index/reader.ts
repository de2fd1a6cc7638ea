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
import { tableCount, tableFind, tableRange } from '../binary/string-table';
import { intern } from '../string-intern';
import {
  ANY,
  BULK_SECTIONS,
  CANDIDATE_COUNT_VERSION,
  CITY_SECTIONS,
  cityKey,
  DIRECTORY_ENTRY_BYTES,
  decodeFlag,
  type IdentityIndexHeader,
  magicVersion,
  OIG_ENTRY,
  OIG_ENTRY_BYTES,
  READABLE_VERSIONS,
  REP_CODE,
  SECTIONS,
  type SectionName,
} from './format';
import { CITY_PART, IdentityIndexPage, MAIN_PART, type PageSource } from './page';

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

/** Cities decoded and kept per reader at most (the other dictionaries are small and kept whole). */
const CITY_MEMO_LIMIT = 4096;

export class IdentityIndexReader implements PageSource {
  /** @internal */
  readonly sections: IdentityIndexHeader['sections'];
  private readonly counts: Record<'codes' | 'states' | 'cityKeys' | 'directory' | 'oig', number>;
  /** Decoded dictionary strings by id (ids are dense: arrays, not maps); `undefined` = not decoded yet. */
  private readonly memo = {
    codes: [] as (string | null | undefined)[],
    displays: [] as (string | null | undefined)[],
    states: [] as (string | null | undefined)[],
    dates: [] as (string | null | undefined)[],
    oig: [] as (string | null | undefined)[],
    cities: new Map<number, string | null>(),
  };

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
      oig: this.sections.oig[1] / OIG_ENTRY_BYTES,
    };
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
    return this.sections[BULK_SECTIONS[0]][0];
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

  /** @internal The `oig_*` cells of a record flagged as having them. */
  oigOf(record: number): OigCells | null {
    const base = this.sections.oig[0];
    const { source } = this;
    const i = findSorted(0, this.counts.oig, (probe) => source.u32(base + probe * OIG_ENTRY_BYTES) - record);
    if (i < 0) return null;
    const entry = source.slice(base + i * OIG_ENTRY_BYTES, OIG_ENTRY_BYTES);
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
