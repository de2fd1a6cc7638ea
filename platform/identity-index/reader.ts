/**
 * Reads an identity serving index (format.ts) from a {@link ByteSource}: a query is a few lookups (the code, state
 * and city by binary search in their sorted tables, the list in the directory), one slice of a posting list (or of
 * a code's record range) and the page's records. Cost O(limit + log n), whatever the offset or the partition size.
 *
 * The source can be swapped while the reader lives (the partition cache moves a partition between memory and the
 * file): every read goes through `this.source`, and what the reader remembers (decoded dictionary strings) is the
 * same for both.
 *
 * @example
 * const reader = IdentityIndexReader.open(new FileSource(file));
 * reader.query({ code: '163W00000X', state: 'TX', city: null, limit: 50, offset: 0 }); // { total, rows }
 */
import type { IdentityRow } from '../../data-contracts/rows';
import type { ByteSource } from './byte-source';
import {
  ANY,
  cityKey,
  DIRECTORY_ENTRY_BYTES,
  decodeFlag,
  FLAG_OIG,
  IDENTITY_INDEX_MAGIC,
  IDENTITY_INDEX_VERSION,
  type IdentityIndexHeader,
  OIG_ENTRY_BYTES,
  RECORD,
  REP_CODE,
  SECTIONS,
  type SectionName,
} from './format';

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

export interface IdentityIndexPage {
  total: number;
  rows: IdentityRow[];
}

/** Cities decoded and kept per reader at most (the other dictionaries are small and kept whole). */
const CITY_MEMO_LIMIT = 4096;
/** A page's records are read in one positional read when they span at most this many bytes. */
const SPAN_READ_BYTES = 256 * 1024;

const EMPTY: IdentityIndexPage = Object.freeze({ total: 0, rows: [] }) as IdentityIndexPage;

export class IdentityIndexReader {
  private readonly sections: IdentityIndexHeader['sections'];
  private readonly counts: Record<'codes' | 'states' | 'cityKeys' | 'directory' | 'oig', number>;
  private readonly memo = {
    codes: new Map<number, string | null>(),
    displays: new Map<number, string | null>(),
    states: new Map<number, string | null>(),
    dates: new Map<number, string | null>(),
    oig: new Map<number, string | null>(),
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

  /** Reads and checks the header. Throws on a file that is not an index of this version. */
  static open(source: ByteSource): IdentityIndexReader {
    if (source.size < 12 || !source.slice(0, 8).equals(IDENTITY_INDEX_MAGIC)) {
      throw new Error('not an identity serving index');
    }
    const length = source.u32(8);
    const header = JSON.parse(source.slice(12, length).toString('utf8')) as IdentityIndexHeader;
    if (header.version !== IDENTITY_INDEX_VERSION) {
      throw new Error(`identity serving index version ${header.version}, expected ${IDENTITY_INDEX_VERSION}`);
    }
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

  /** The total of a query and the rows of its page, in NPI order. */
  query(q: IdentityIndexQuery): IdentityIndexPage {
    const t = q.code === null ? REP_CODE : this.find('codes', q.code, this.counts.codes);
    const s = q.state === null ? ANY : this.find('states', q.state, this.counts.states);
    const c = q.city === null ? ANY : this.find('city_keys', cityKey(q.city), this.counts.cityKeys);
    if ((q.code !== null && t === 0) || (q.state !== null && s === 0) || (q.city !== null && c === 0)) return EMPTY;

    let total: number;
    let records: ArrayLike<number>;
    if (t !== REP_CODE && s === ANY && c === ANY) {
      const [rangeOffset] = this.sections.code_ranges;
      const first = this.source.u32(rangeOffset + 8 * t);
      total = this.source.u32(rangeOffset + 8 * t + 4);
      const from = Math.min(q.offset, total);
      const to = Math.min(total, q.offset + q.limit);
      records = new Uint32Array(to - from);
      for (let i = 0; i < to - from; i += 1) (records as Uint32Array)[i] = first + from + i;
    } else {
      const entry = this.directoryEntry(t, s, c);
      if (entry === null) return EMPTY;
      total = entry.count;
      const from = Math.min(q.offset, total);
      const to = Math.min(total, q.offset + q.limit);
      const bytes = this.source.slice(this.sections.postings[0] + 4 * (entry.first + from), 4 * (to - from));
      records = new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    }
    return { total, rows: this.rowsAt(records) };
  }

  /** The rows of `records` (record numbers), in that order. */
  private rowsAt(records: ArrayLike<number>): IdentityRow[] {
    const n = records.length;
    if (n === 0) return [];
    let min = Number.POSITIVE_INFINITY;
    let max = -1;
    for (let i = 0; i < n; i += 1) {
      const r = records[i] as number;
      if (r < min) min = r;
      if (r > max) max = r;
    }
    const recordBase = this.sections.records[0];
    // One read of the records' span when it is small (a code's range, a dense list), else one read per record.
    const spanBytes = (max - min + 1) * RECORD.bytes;
    const span = spanBytes <= SPAN_READ_BYTES ? this.source.slice(recordBase + min * RECORD.bytes, spanBytes) : null;
    const out: IdentityRow[] = new Array(n);
    const names: { start: number; length: number }[] = new Array(n);
    const recs: { buf: Buffer; at: number }[] = new Array(n);
    let nameMin = Number.POSITIVE_INFINITY;
    let nameMax = 0;
    for (let i = 0; i < n; i += 1) {
      const r = records[i] as number;
      const rec = span
        ? { buf: span, at: (r - min) * RECORD.bytes }
        : { buf: this.source.slice(recordBase + r * RECORD.bytes, RECORD.bytes), at: 0 };
      recs[i] = rec;
      const start = rec.buf.readUInt32LE(rec.at + RECORD.nameStart);
      const length = rec.buf.readUInt32LE(rec.at + RECORD.nameLength);
      names[i] = { start, length };
      if (length > 0) {
        if (start < nameMin) nameMin = start;
        if (start + length > nameMax) nameMax = start + length;
      }
    }
    const nameBase = this.sections.names[0];
    const nameSpan =
      nameMax > nameMin && nameMax - nameMin <= SPAN_READ_BYTES
        ? this.source.slice(nameBase + nameMin, nameMax - nameMin)
        : null;
    for (let i = 0; i < n; i += 1) {
      const { buf, at } = recs[i] as { buf: Buffer; at: number };
      const { start, length } = names[i] as { start: number; length: number };
      let name: string | null = null;
      if (length > 0) {
        name = nameSpan
          ? nameSpan.toString('utf8', start - nameMin, start - nameMin + length)
          : this.source.slice(nameBase + start, length).toString('utf8');
      }
      const flags = buf[at + RECORD.flags] as number;
      const code = buf.readUInt32LE(at + RECORD.code);
      const oig = (flags & FLAG_OIG) !== 0 ? this.oigOf(records[i] as number) : null;
      out[i] = {
        npi: buf.toString('latin1', at + RECORD.npi, at + RECORD.npi + 10),
        name,
        taxonomy_code: this.text('codes', code),
        taxonomy_display: this.display(code),
        classification_key: this.header.classification_key,
        is_primary: decodeFlag(flags & 3),
        class_rep: decodeFlag((flags >> 2) & 3),
        city: this.city(buf.readUInt32LE(at + RECORD.city)),
        state: this.text('states', buf.readUInt16LE(at + RECORD.state)),
        checked_at: this.text('dates', buf.readUInt16LE(at + RECORD.date)),
        oig_excluded: oig === null ? false : oig.excluded,
        oig_type: oig?.type ?? null,
        oig_date: oig?.date ?? null,
        oig_checked_at: oig?.checkedAt ?? null,
      };
    }
    return out;
  }

  private directoryEntry(t: number, s: number, c: number): { first: number; count: number } | null {
    const base = this.sections.directory[0];
    let lo = 0;
    let hi = this.counts.directory - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = base + mid * DIRECTORY_ENTRY_BYTES;
      const cmp =
        compare(this.source.u32(at), t) || compare(this.source.u32(at + 4), s) || compare(this.source.u32(at + 8), c);
      if (cmp === 0) return { first: this.source.u32(at + 12), count: this.source.u32(at + 16) };
      if (cmp < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return null;
  }

  private oigOf(
    record: number,
  ): { excluded: boolean | null; type: string | null; date: string | null; checkedAt: string | null } | null {
    const base = this.sections.oig[0];
    let lo = 0;
    let hi = this.counts.oig - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = base + mid * OIG_ENTRY_BYTES;
      const r = this.source.u32(at);
      if (r === record) {
        const entry = this.source.slice(at, OIG_ENTRY_BYTES);
        return {
          excluded: decodeFlag(entry[4] as number),
          type: this.text('oig_strings', entry.readUInt32LE(8)),
          date: this.text('oig_strings', entry.readUInt32LE(12)),
          checkedAt: this.text('oig_strings', entry.readUInt32LE(16)),
        };
      }
      if (r < record) lo = mid + 1;
      else hi = mid - 1;
    }
    return null;
  }

  private tableCount(name: SectionName): number {
    return this.source.u32(this.sections[name][0]);
  }

  /** The bytes of entry `id` (1-based) of a string table. */
  private entry(name: SectionName, id: number): Buffer {
    const [offset] = this.sections[name];
    const count = this.source.u32(offset);
    const start = id === 1 ? 0 : this.source.u32(offset + 4 + 4 * (id - 2));
    const end = this.source.u32(offset + 4 + 4 * (id - 1));
    return this.source.slice(offset + 4 + 4 * count + start, end - start);
  }

  /** The id of `value` in a sorted string table, 0 when absent. */
  private find(name: SectionName, value: string, count: number): number {
    const needle = Buffer.from(value, 'utf8');
    let lo = 1;
    let hi = count;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const cmp = Buffer.compare(this.entry(name, mid), needle);
      if (cmp === 0) return mid;
      if (cmp < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  private text(name: 'codes' | 'states' | 'dates' | 'oig_strings', id: number): string | null {
    if (id === ANY) return null;
    const memo = name === 'oig_strings' ? this.memo.oig : this.memo[name];
    let value = memo.get(id);
    if (value === undefined) {
      value = this.entry(name, id).toString('utf8');
      memo.set(id, value);
    }
    return value;
  }

  private display(code: number): string | null {
    if (code === ANY) return null;
    let value = this.memo.displays.get(code);
    if (value === undefined) {
      const text = this.entry('displays', code).toString('utf8');
      value = text === '' ? null : text;
      this.memo.displays.set(code, value);
    }
    return value;
  }

  private city(id: number): string | null {
    if (id === ANY) return null;
    let value = this.memo.cities.get(id);
    if (value === undefined) {
      value = this.entry('cities', id).toString('utf8');
      if (this.memo.cities.size >= CITY_MEMO_LIMIT) this.memo.cities.clear();
      this.memo.cities.set(id, value);
    }
    return value;
  }
}

function compare(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
