/**
 * One query's page of an identity serving index (format.ts): the records the lookup in ./reader.ts found, read from
 * the index's bytes and turned into rows (objects, or fields written straight into a sink).
 */
import type { IdentityRowSink, IdentityRows, OigCells } from '../../data-contracts/identity-json';
import type { IdentityRow } from '../../data-contracts/rows';
import type { ByteSource } from '../binary/byte-source';
import { HeapValues } from '../binary/heap-values';
import { decodeFlag, FLAG_OIG, type IdentityIndexHeader, RECORD } from './format';

/** A page's records are read in one positional read when they span at most this many bytes. */
const SPAN_READ_BYTES = 256 * 1024;

/**
 * Which copy of the records a page reads (format.ts): the records in (code, NPI) order, or the clustered city
 * lists', whose records are numbered in `city_records` and whose `oig` entries are keyed by their `city_origin`.
 */
export interface PagePart {
  records: 'records' | 'city_records' | 'geo_records';
  names: 'names' | 'city_names' | 'geo_names';
  origin: 'city_origin' | 'geo_origin' | null;
}

export const MAIN_PART: PagePart = { records: 'records', names: 'names', origin: null };
export const CITY_PART: PagePart = { records: 'city_records', names: 'city_names', origin: 'city_origin' };
/** The radius lists' copy (format.ts, version 5). */
export const GEO_PART: PagePart = { records: 'geo_records', names: 'geo_names', origin: 'geo_origin' };

/** What a page reads through: the index's bytes and its decoded dictionaries (the reader, ./reader.ts). */
export interface PageSource {
  readonly source: ByteSource;
  readonly sections: IdentityIndexHeader['sections'];
  readonly classificationKey: string;
  text(name: 'codes' | 'states' | 'dates' | 'oig_strings', id: number): string | null;
  display(code: number): string | null;
  city(id: number): string | null;
  oigOf(record: number): OigCells | null;
}

/**
 * The rows of one query, in NPI order, read from the index when asked for: as objects ({@link row}), or written
 * field by field into a sink from the index's bytes ({@link writeTo}: no object or string per row). The page reads
 * its records and names once, in one read each when they lie close together.
 */
export class IdentityIndexPage implements IdentityRows {
  readonly length: number;
  /** The records' bytes: one span (`recordAt[i]` into it), or one buffer per record. */
  private readonly recordSpan: Buffer | null;
  private readonly recordBuffers: Buffer[] | null;
  private readonly recordAt: Uint32Array;
  /** The names (length 0: NULL). */
  private readonly names: HeapValues;
  /** The origin record (in `records`) of each flagged row of a city list's page, read with the page. */
  private readonly origins: Map<number, number> | null;

  /** `records` are record numbers in `part`'s records. */
  constructor(
    private readonly reader: PageSource,
    private readonly part: PagePart,
    private readonly records: Uint32Array,
  ) {
    const n = records.length;
    this.length = n;
    let min = Number.POSITIVE_INFINITY;
    let max = -1;
    for (let i = 0; i < n; i += 1) {
      const r = records[i] as number;
      if (r < min) min = r;
      if (r > max) max = r;
    }
    const { source, sections } = reader;
    const recordBase = sections[part.records][0];
    const spanBytes = (max - min + 1) * RECORD.bytes;
    this.recordAt = new Uint32Array(n);
    this.recordSpan =
      n > 0 && spanBytes <= SPAN_READ_BYTES ? source.slice(recordBase + min * RECORD.bytes, spanBytes) : null;
    this.recordBuffers = this.recordSpan === null ? [] : null;
    // Scattered records: a source that fetches its bytes (platform/ranged) gets them all in one round.
    if (this.recordSpan === null && n > 0) {
      source.need?.(Array.from(records, (r) => [recordBase + r * RECORD.bytes, RECORD.bytes] as const));
    }
    const nameStart = new Uint32Array(n);
    const nameLength = new Uint32Array(n);
    for (let i = 0; i < n; i += 1) {
      const r = records[i] as number;
      let buf: Buffer;
      let at: number;
      if (this.recordSpan !== null) {
        buf = this.recordSpan;
        at = (r - min) * RECORD.bytes;
      } else {
        buf = source.slice(recordBase + r * RECORD.bytes, RECORD.bytes);
        at = 0;
        this.recordBuffers?.push(buf);
      }
      this.recordAt[i] = at;
      nameStart[i] = buf.readUInt32LE(at + RECORD.nameStart);
      nameLength[i] = buf.readUInt32LE(at + RECORD.nameLength);
    }
    this.names = new HeapValues(
      nameStart,
      nameLength,
      sections[part.names][0],
      SPAN_READ_BYTES,
      (offset, length) => source.slice(offset, length),
      source.need?.bind(source),
    );
    // The clustered city lists' `oig` entries are keyed by their origin record: read now, with the page, so that
    // writing the page later reads nothing but the meta region.
    this.origins = null;
    if (part.origin !== null) {
      const originBase = sections[part.origin][0];
      const flagged: number[] = [];
      for (let i = 0; i < n; i += 1) {
        const { buf, at } = this.recordOf(i);
        if (((buf[at + RECORD.flags] as number) & FLAG_OIG) !== 0) flagged.push(i);
      }
      if (flagged.length > 0) {
        source.need?.(flagged.map((i) => [originBase + 4 * (records[i] as number), 4] as const));
        this.origins = new Map(flagged.map((i) => [i, source.u32(originBase + 4 * (records[i] as number))]));
      }
    }
  }

  row(i: number): IdentityRow {
    const { buf, at } = this.recordOf(i);
    const flags = buf[at + RECORD.flags] as number;
    const code = buf.readUInt32LE(at + RECORD.code);
    const oig = (flags & FLAG_OIG) !== 0 ? this.oigOf(i) : null;
    return {
      npi: buf.toString('latin1', at + RECORD.npi, at + RECORD.npi + 10),
      name: this.names.lengths[i] === 0 ? null : this.names.text(i),
      taxonomy_code: this.reader.text('codes', code),
      taxonomy_display: this.reader.display(code),
      classification_key: this.reader.classificationKey,
      is_primary: decodeFlag(flags & 3),
      class_rep: decodeFlag((flags >> 2) & 3),
      city: this.reader.city(buf.readUInt32LE(at + RECORD.city)),
      state: this.reader.text('states', buf.readUInt16LE(at + RECORD.state)),
      checked_at: this.reader.text('dates', buf.readUInt16LE(at + RECORD.date)),
      oig_excluded: oig === null ? false : oig.oig_excluded,
      oig_type: oig?.oig_type ?? null,
      oig_date: oig?.oig_date ?? null,
      oig_checked_at: oig?.oig_checked_at ?? null,
      oig_candidate_count: oig?.oig_candidate_count ?? 0,
    };
  }

  writeTo(sink: IdentityRowSink): void {
    const { reader, recordSpan, recordBuffers, recordAt, names } = this;
    for (let i = 0; i < this.length; i += 1) {
      const buf = recordSpan ?? ((recordBuffers as Buffer[])[i] as Buffer);
      const at = recordSpan === null ? 0 : (recordAt[i] as number);
      const flags = buf[at + RECORD.flags] as number;
      const code = buf.readUInt32LE(at + RECORD.code);
      const length = names.lengths[i] as number;
      sink.row(
        buf,
        at + RECORD.npi,
        10,
        length === 0 ? null : names.buffer(i),
        names.offset(i),
        length,
        reader.text('codes', code),
        reader.display(code),
        reader.city(buf.readUInt32LE(at + RECORD.city)),
        reader.text('states', buf.readUInt16LE(at + RECORD.state)),
        reader.text('dates', buf.readUInt16LE(at + RECORD.date)),
        (flags & FLAG_OIG) !== 0 ? this.oigOf(i) : null,
      );
    }
  }

  /** The `oig_*` cells of row `i` (flagged as having them), found by its record number in `records`. */
  private oigOf(i: number): OigCells | null {
    const record = this.records[i] as number;
    if (this.part.origin === null) return this.reader.oigOf(record);
    const origin = this.origins?.get(i);
    return origin === undefined ? null : this.reader.oigOf(origin);
  }

  private recordOf(i: number): { buf: Buffer; at: number } {
    return this.recordSpan !== null
      ? { buf: this.recordSpan, at: this.recordAt[i] as number }
      : { buf: (this.recordBuffers as Buffer[])[i] as Buffer, at: 0 };
  }
}
