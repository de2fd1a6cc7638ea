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
import type { IdentityRows } from '../../data-contracts/identity-json';
import { lowerBound } from '../binary/binary-search';
import type { ByteSource } from '../binary/byte-source';
import { tableCount, tableFind } from '../binary/string-table';
import { SearchCells } from './cells';
import {
  ENTITY_CODE,
  ENTRY,
  FENCE_BYTES,
  FENCE_EVERY,
  readSearchIndexHeader,
  type SearchIndexHeader,
  searchCityKey,
  searchKey,
} from './format';
import { SearchPage } from './page';

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
  /**
   * A radius filter: the distance in miles of each ZIP within the circle (a ZIP it does not give is outside). The
   * entries whose postal code is outside are skipped; the result's `miles` gives each page row's distance.
   */
  near?: ReadonlyMap<string, number> | null;
}

export interface SearchResult {
  total: number;
  /** With a radius filter: the distance of each page row, in page order. */
  miles?: Float64Array;
  /**
   * The page: one identity row per NPI, showing the taxonomy the filter accepted (else the first code); as objects
   * (`row`), or written from the index's bytes into a sink (`writeTo`: no object or decoded name per row).
   */
  rows: IdentityRows;
}

export class SearchIndexReader {
  private readonly entriesAt: number;
  private readonly count: number;
  private readonly cells: SearchCells;
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
    this.cells = new SearchCells(source, header);
    this.cells.codes.forEach((code, i) => {
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
    return new SearchIndexReader(source, readSearchIndexHeader(source));
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
    const none: SearchResult = { total: 0, rows: new SearchPage(this.cells, Buffer.alloc(0), [], [], 0) };
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
    const near = q.near ?? null;
    const narrowed =
      near !== null ||
      entity !== 0 ||
      city !== 0 ||
      wanted !== null ||
      (prefix !== null && (postal !== null || prefix.length > 16));
    if (!narrowed) {
      const from = Math.min(hi, lo + q.offset);
      const to = Math.min(hi, from + q.limit);
      const page = this.source.slice(section + from * ENTRY.bytes, (to - from) * ENTRY.bytes);
      const at = Array.from({ length: to - from }, (_, i) => i * ENTRY.bytes);
      return {
        total: hi - lo,
        rows: new SearchPage(this.cells, page, at, new Array<number>(at.length).fill(0), names),
      };
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
    const miles: number[] = [];
    for (let i = 0; i < n; i += 1) {
      const at = i * ENTRY.bytes;
      if (entity !== 0 && bytes[at + ENTRY.entity] !== entity) continue;
      let distance = 0;
      if (near !== null) {
        const found = near.get(bytes.toString('latin1', at + ENTRY.postal, at + ENTRY.postal + 5));
        if (found === undefined) continue;
        distance = found;
      }
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
      miles.push(distance);
    }

    const end = Math.min(matches.length, q.offset + q.limit);
    const from = Math.min(q.offset, end);
    return {
      total: matches.length,
      rows: new SearchPage(this.cells, bytes, matches.slice(from, end), codes.slice(from, end), names),
      ...(near !== null ? { miles: Float64Array.from(miles.slice(from, end)) } : {}),
    };
  }

  /** The code ids a taxonomy filter accepts, null for no filter. */
  private taxonomyIds(taxonomy: SearchTaxonomy | null): Set<number> | null {
    if (taxonomy === null) return null;
    if ('code' in taxonomy) {
      const id = this.codeId.get(taxonomy.code);
      return new Set(id === undefined ? [] : [id]);
    }
    const ids = new Set<number>();
    this.cells.classes.forEach((key, i) => {
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
    const first = lowerBound(0, fences.length / stride, (f) =>
      before(fences.compare(needle, 0, width, f * stride, f * stride + width)),
    );
    if (first === 0) return 0;
    const from = (first - 1) * FENCE_EVERY;
    const to = Math.min(n, first * FENCE_EVERY);
    const run = this.source.slice(section + from * ENTRY.bytes, (to - from) * ENTRY.bytes);
    return (
      from +
      lowerBound(0, to - from, (i) =>
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
}
