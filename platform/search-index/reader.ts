/**
 * Reads a state's identity search index (format.ts) from a {@link ByteSource}: the range of a name prefix (binary
 * search over the sorted entries) or of a postal code (binary search over the postal postings), then one pass over
 * that range applying the other filters. The total is exact; the page is the range's matches from `offset`, in
 * (search key, NPI) order.
 *
 * @example
 * const reader = SearchIndexReader.open(new FileSource(file));
 * reader.search({ name: 'smi', postalCode: null, entityType: null, city: null, taxonomy: null, limit: 50, offset: 0 });
 */
import type { EntityType } from '../../data-contracts/constants';
import type { IdentityRow } from '../../data-contracts/rows';
import type { ByteSource } from '../identity-index/byte-source';
import { tableCount, tableFind, tableValue, tableValues } from '../identity-index/string-table';
import {
  ENTITY_CODE,
  ENTRY,
  ENTRY_FLAGS,
  FENCE_BYTES,
  FENCE_EVERY,
  OIG_ENTRY_BYTES,
  SEARCH_INDEX_MAGIC,
  SEARCH_INDEX_VERSION,
  SECTIONS,
  type SearchIndexHeader,
  searchCityKey,
  searchKey,
} from './format';

/** A taxonomy filter: one code, or every code of a classification (the NPI's row of that classification). */
export type SearchTaxonomy = { code: string } | { classificationKey: string };

export interface SearchQuery {
  /** A prefix of the search key (matched case-insensitively, {@link searchKey}), or null. */
  name: string | null;
  /** 5 digits, or null. */
  postalCode: string | null;
  entityType: EntityType | null;
  /** Matched case-insensitively, or null. */
  city: string | null;
  taxonomy: SearchTaxonomy | null;
  limit: number;
  offset: number;
}

export interface SearchResult {
  total: number;
  /** The page: one identity row per NPI, showing the taxonomy the filter accepted (else the first code). */
  rows: IdentityRow[];
}

export class SearchIndexReader {
  private readonly entriesAt: number;
  private readonly count: number;
  private readonly codes: string[];
  private readonly classes: string[];
  private readonly displays: string[];
  /** Decoded strings of the larger tables, by id. */
  private readonly memo = {
    cities: new Map<number, string>(),
    dates: new Map<number, string>(),
    oig: new Map<number, string>(),
  };
  private readonly codeId = new Map<string, number>();
  private readonly postalCount: number;
  /** The fences of the name-sorted entries and of the postal copies, in memory (a 16th of a percent of the file). */
  private readonly fences: { name: Buffer; postal: Buffer };
  private readonly cityCount: number;

  private constructor(
    private readonly source: ByteSource,
    readonly header: SearchIndexHeader,
  ) {
    this.entriesAt = header.sections.entries[0];
    this.count = header.entries;
    this.codes = tableValues(source, header.sections.codes[0]);
    this.classes = tableValues(source, header.sections.code_classes[0]);
    this.displays = tableValues(source, header.sections.displays[0]);
    this.codes.forEach((code, i) => {
      this.codeId.set(code, i + 1);
    });
    this.postalCount = header.sections.postal[1] / ENTRY.bytes;
    this.fences = {
      name: Buffer.from(source.slice(...header.sections.name_fence)),
      postal: Buffer.from(source.slice(...header.sections.postal_fence)),
    };
    this.cityCount = tableCount(source, header.sections.city_keys[0]);
  }

  /** Reads and checks the header. Throws on a file that is not a search index of this version. */
  static open(source: ByteSource): SearchIndexReader {
    if (source.size < 12 || !source.slice(0, 8).equals(SEARCH_INDEX_MAGIC)) throw new Error('not a search index');
    const header = JSON.parse(source.slice(12, source.u32(8)).toString('utf8')) as SearchIndexHeader;
    if (header.version !== SEARCH_INDEX_VERSION) {
      throw new Error(`search index version ${header.version}, expected ${SEARCH_INDEX_VERSION}`);
    }
    for (const name of SECTIONS) {
      const [offset, bytes] = header.sections?.[name] ?? [-1, -1];
      if (!(offset >= 0 && bytes >= 0 && offset + bytes <= source.size)) {
        throw new Error(`search index: section ${name} is out of bounds`);
      }
    }
    if (header.sections.entries[1] !== header.entries * ENTRY.bytes) throw new Error('search index: bad entry count');
    return new SearchIndexReader(source, header);
  }

  get state(): string {
    return this.header.state;
  }

  get entries(): number {
    return this.count;
  }

  /** Entry `i` (in search order): its NPI, full search key and postal code (tools draw queries from these). */
  entryAt(i: number): { npi: string; key: string; postalCode: string | null } {
    if (!(i >= 0 && i < this.count)) throw new RangeError(`search index: no entry ${i}`);
    const bytes = this.source.slice(this.entriesAt + i * ENTRY.bytes, ENTRY.bytes);
    const key = this.source.slice(
      this.header.sections.keys[0] + bytes.readUInt32LE(ENTRY.keyStart),
      bytes.readUInt16LE(ENTRY.keyLength),
    );
    const postal = bytes.toString('latin1', ENTRY.postal, ENTRY.postal + 5);
    return {
      npi: bytes.toString('latin1', ENTRY.npi, ENTRY.npi + 10),
      key: key.toString('utf8'),
      postalCode: postal === '\0\0\0\0\0' ? null : postal,
    };
  }

  search(q: SearchQuery): SearchResult {
    const none: SearchResult = { total: 0, rows: [] };
    const city =
      q.city === null
        ? 0
        : tableFind(this.source, this.header.sections.city_keys[0], searchCityKey(q.city), this.cityCount);
    if (q.city !== null && city === 0) return none;
    const wanted = this.taxonomyIds(q.taxonomy);
    if (wanted !== null && wanted.size === 0) return none;
    const prefix = q.name === null ? null : Buffer.from(searchKey(q.name), 'utf8');
    const postal = q.postalCode === null ? null : Buffer.from(q.postalCode, 'latin1');
    const entity = q.entityType === null ? 0 : ENTITY_CODE[q.entityType];

    // The range: a name prefix's entries, or a postal code's copies; both in name order, contiguous.
    let section: number;
    let names: number;
    let lo: number;
    let hi: number;
    if (prefix !== null) {
      const head = prefix.subarray(0, 16);
      section = this.entriesAt;
      names = this.header.sections.names[0];
      lo = this.bound(section, this.count, this.fences.name, FENCE_BYTES.name, ENTRY.key16, head, false);
      hi = this.bound(section, this.count, this.fences.name, FENCE_BYTES.name, ENTRY.key16, head, true);
    } else if (postal !== null) {
      section = this.header.sections.postal[0];
      names = this.header.sections.postal_names[0];
      lo = this.bound(section, this.postalCount, this.fences.postal, FENCE_BYTES.postal, ENTRY.postal, postal, false);
      hi = this.bound(section, this.postalCount, this.fences.postal, FENCE_BYTES.postal, ENTRY.postal, postal, true);
    } else {
      throw new Error('search index: a search needs a name prefix or a postal code');
    }
    // Nothing narrows the range: its size is the total, and only the page's entries are read.
    const narrowed =
      entity !== 0 || city !== 0 || wanted !== null || (prefix !== null && (postal !== null || prefix.length > 16));
    if (!narrowed) {
      const from = Math.min(hi, lo + q.offset);
      const to = Math.min(hi, from + q.limit);
      const page = this.source.slice(section + from * ENTRY.bytes, (to - from) * ENTRY.bytes);
      const rows: IdentityRow[] = [];
      for (let at = 0; at < page.length; at += ENTRY.bytes) rows.push(this.rowOf(page, at, 0, names));
      return { total: hi - lo, rows };
    }
    const bytes = this.source.slice(section + lo * ENTRY.bytes, (hi - lo) * ENTRY.bytes);
    const n = bytes.length / ENTRY.bytes;
    // With a taxonomy filter every entry's codes are read: for a name range they are contiguous, so in one read.
    let codeBytes: Buffer | null = null;
    let codesAt = 0;
    if (wanted !== null && prefix !== null && n > 0) {
      codesAt = bytes.readUInt32LE(ENTRY.firstCode);
      const lastAt = (n - 1) * ENTRY.bytes;
      const end = bytes.readUInt32LE(lastAt + ENTRY.firstCode) + (bytes[lastAt + ENTRY.codeCount] as number);
      codeBytes = this.source.slice(this.header.sections.entry_codes[0] + 2 * codesAt, 2 * (end - codesAt));
    }

    const matches: number[] = [];
    const codes: number[] = [];
    for (let i = 0; i < n; i += 1) {
      const at = i * ENTRY.bytes;
      if (entity !== 0 && bytes[at + ENTRY.entity] !== entity) continue;
      if (city !== 0 && bytes.readUInt32LE(at + ENTRY.city) !== city) continue;
      if (prefix !== null && postal !== null && postal.compare(bytes, at + ENTRY.postal, at + ENTRY.postal + 5) !== 0) {
        continue;
      }
      if (prefix !== null && prefix.length > 16 && !this.keyStartsWith(bytes, at, prefix)) continue;
      let code = 0;
      if (wanted !== null) {
        code = this.acceptedCode(bytes, at, wanted, codeBytes, codesAt);
        if (code === 0) continue;
      }
      matches.push(at);
      codes.push(code);
    }

    const rows: IdentityRow[] = [];
    const end = Math.min(matches.length, q.offset + q.limit);
    for (let k = q.offset; k < end; k += 1)
      rows.push(this.rowOf(bytes, matches[k] as number, codes[k] as number, names));
    return { total: matches.length, rows };
  }

  /**
   * The identity row of the entry at `at` of `bytes`, showing code id `code` (0: the entry's first code); `names`
   * is the offset of the names heap its `nameStart` points into.
   */
  private rowOf(bytes: Buffer, at: number, code: number, names: number): IdentityRow {
    const e = bytes.subarray(at, at + ENTRY.bytes);
    const flags = e[ENTRY.flags] as number;
    const name = this.source.slice(names + e.readUInt32LE(ENTRY.nameStart), e.readUInt16LE(ENTRY.nameLength));
    const firstCode = e.readUInt16LE(ENTRY.firstCodeId);
    const shown = code === 0 ? firstCode : code;
    const npi = e.toString('latin1', ENTRY.npi, ENTRY.npi + 10);
    const oig = (flags & ENTRY_FLAGS.oig) !== 0 ? this.oigOf(npi) : null;
    return {
      npi,
      name: name.toString('utf8'),
      taxonomy_code: this.codes[shown - 1] as string,
      taxonomy_display: this.displays[shown - 1] || null,
      classification_key: this.classes[shown - 1] as string,
      is_primary: shown === firstCode && (flags & ENTRY_FLAGS.primaryFirst) !== 0,
      class_rep: null,
      city: this.tableString('cities', e.readUInt32LE(ENTRY.cityAsWritten)),
      state: this.header.state,
      checked_at: this.tableString('dates', e.readUInt16LE(ENTRY.date)),
      oig_excluded: oig !== null,
      oig_type: oig?.[0] ?? null,
      oig_date: oig?.[1] ?? null,
      oig_checked_at: oig?.[2] ?? null,
    };
  }

  /** The OIG cells (type, date, checked_at) of an NPI flagged in the LEIE: binary search over `oig`. */
  private oigOf(npi: string): [string | null, string | null, string | null] | null {
    const [offset, length] = this.header.sections.oig;
    const needle = Buffer.from(npi, 'latin1');
    let lo = 0;
    let hi = length / OIG_ENTRY_BYTES - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = offset + mid * OIG_ENTRY_BYTES;
      const order = this.source.compareAt(at, 10, needle);
      if (order === 0) {
        const id = (k: number) => this.tableString('oig_strings', this.source.u32(at + 12 + 4 * k));
        return [id(0), id(1), id(2)];
      }
      if (order < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return null;
  }

  /** String `id` (from 1; 0 = NULL) of a string table section, decoded once. */
  private tableString(section: 'cities' | 'dates' | 'oig_strings', id: number): string | null {
    if (id === 0) return null;
    const memo = section === 'cities' ? this.memo.cities : section === 'dates' ? this.memo.dates : this.memo.oig;
    const known = memo.get(id);
    if (known !== undefined) return known;
    const value = tableValue(this.source, this.header.sections[section][0], id);
    if (memo.size < 4096) memo.set(id, value);
    return value;
  }

  /** The code ids a taxonomy filter accepts, null for no filter. */
  private taxonomyIds(taxonomy: SearchTaxonomy | null): Set<number> | null {
    if (taxonomy === null) return null;
    if ('code' in taxonomy) {
      const id = this.codeId.get(taxonomy.code);
      return new Set(id === undefined ? [] : [id]);
    }
    const ids = new Set<number>();
    this.classes.forEach((key, i) => {
      if (key === taxonomy.classificationKey) ids.add(i + 1);
    });
    return ids;
  }

  /** The first of the entry's codes that the filter accepts (the row's code), 0 when none. */
  private acceptedCode(
    bytes: Buffer,
    at: number,
    wanted: Set<number>,
    codeBytes: Buffer | null,
    codesAt: number,
  ): number {
    const first = bytes.readUInt32LE(at + ENTRY.firstCode);
    const count = bytes[at + ENTRY.codeCount] as number;
    const ids =
      codeBytes !== null
        ? codeBytes.subarray(2 * (first - codesAt), 2 * (first - codesAt + count))
        : this.source.slice(this.header.sections.entry_codes[0] + 2 * first, 2 * count);
    for (let k = 0; k < count; k += 1) {
      const id = ids.readUInt16LE(2 * k);
      if (wanted.has(id)) return id;
    }
    return 0;
  }

  /**
   * The first entry of a sorted section (`n` entries) whose field (`needle.length` bytes at `field`) is at least
   * `needle` (`strict`: greater than it): found among the fences in memory, then in one read of one run of
   * {@link FENCE_EVERY} entries.
   */
  private bound(
    section: number,
    n: number,
    fences: Buffer,
    stride: number,
    field: number,
    needle: Buffer,
    strict: boolean,
  ): number {
    const width = needle.length;
    const before = (order: number) => (strict ? order <= 0 : order < 0);
    const first = this.lowerBound(fences.length / stride, (f) =>
      before(fences.compare(needle, 0, width, f * stride, f * stride + width)),
    );
    if (first === 0) return 0;
    const from = (first - 1) * FENCE_EVERY;
    const to = Math.min(n, first * FENCE_EVERY);
    const run = this.source.slice(section + from * ENTRY.bytes, (to - from) * ENTRY.bytes);
    return (
      from +
      this.lowerBound(to - from, (i) =>
        before(run.compare(needle, 0, width, i * ENTRY.bytes + field, i * ENTRY.bytes + field + width)),
      )
    );
  }

  private keyStartsWith(bytes: Buffer, at: number, prefix: Buffer): boolean {
    const length = bytes.readUInt16LE(at + ENTRY.keyLength);
    if (length < prefix.length) return false;
    const start = this.header.sections.keys[0] + bytes.readUInt32LE(at + ENTRY.keyStart);
    return this.source.compareAt(start, prefix.length, prefix) === 0;
  }

  /** The first index in [from, n) for which `before` is false (`before` is true then false over the range). */
  private lowerBound(n: number, before: (i: number) => boolean, from = 0): number {
    let lo = from;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(mid)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
