/**
 * The cells of a search index's entries, their rows' values but the name: the taxonomy tables (read whole when the
 * index opens; every state's index carries the same ones, so their strings are interned), the cities, dates and OIG
 * strings (decoded on demand and remembered), and the OIG entries (through their fence, by NPI).
 */
import type { ByteSource } from '../binary/byte-source';
import { RunFence } from '../binary/run-fence';
import { tableValue, tableValues } from '../binary/string-table';
import { intern } from '../string-intern';
import { ENTRY, ENTRY_FLAGS, OIG_CANDIDATES_AT, OIG_ENTRY_BYTES, type SearchIndexHeader } from './format';

/** The cells of an entry but its name, as {@link SearchCells.cellsOf} reads them. */
export interface EntryCells {
  npi: string;
  code: string;
  display: string | null;
  classificationKey: string;
  isPrimary: boolean;
  city: string | null;
  checkedAt: string | null;
  /** The OIG match (type, date, checked_at), or null for none. */
  oig: [string | null, string | null, string | null] | null;
  /** The NPI's OIG possible matches. */
  candidates: number;
}

const NO_OIG: Pick<EntryCells, 'oig' | 'candidates'> = Object.freeze({ oig: null, candidates: 0 });

/** The value of the 10 ASCII digits of an NPI at `at` (exact: below 2^53), the key of the `oig` entries. */
function npiValue(bytes: Buffer, at: number): number {
  let value = 0;
  for (let i = 0; i < 10; i += 1) value = value * 10 + ((bytes[at + i] as number) - 48);
  return value;
}

/** The cells of one index's entries: the reader and its pages (./page.ts) read them through it. */
export class SearchCells {
  /** The taxonomy codes, their classification keys and displays, by code id - 1. */
  readonly codes: string[];
  readonly classes: string[];
  private readonly displays: string[];
  /** Decoded strings of the larger tables, by id. */
  private readonly memo = {
    cities: new Map<number, string>(),
    dates: new Map<number, string>(),
    oig: new Map<number, string>(),
  };
  /** The `oig` entries' fence (platform/binary/run-fence.ts), by the NPI's value. */
  private readonly oigFence: RunFence;

  constructor(
    private readonly source: ByteSource,
    readonly header: SearchIndexHeader,
  ) {
    this.codes = tableValues(source, header.sections.codes[0]).map(intern);
    this.classes = tableValues(source, header.sections.code_classes[0]).map(intern);
    this.displays = tableValues(source, header.sections.displays[0]).map(intern);
    this.oigFence = new RunFence(header.sections.oig, OIG_ENTRY_BYTES, npiValue);
  }

  /** `length` bytes of the index at `offset`. */
  bytesAt(offset: number, length: number): Buffer {
    return this.source.slice(offset, length);
  }

  /** Tells the source the ranges read next (ByteSource.need). */
  need(ranges: (readonly [number, number])[]): void {
    this.source.need?.(ranges);
  }

  /**
   * The cells but the name of the entry at `at` of `bytes`, showing code id `code` (0: the entry's first
   * code).
   */
  cellsOf(bytes: Buffer, at: number, code: number): EntryCells {
    const flags = bytes[at + ENTRY.flags] as number;
    const firstCode = bytes.readUInt16LE(at + ENTRY.firstCodeId);
    const shown = code === 0 ? firstCode : code;
    const npi = bytes.toString('latin1', at + ENTRY.npi, at + ENTRY.npi + 10);
    return {
      npi,
      code: this.codes[shown - 1] as string,
      display: this.displays[shown - 1] || null,
      classificationKey: this.classes[shown - 1] as string,
      isPrimary: shown === firstCode && (flags & ENTRY_FLAGS.primaryFirst) !== 0,
      city: this.tableString('cities', bytes.readUInt32LE(at + ENTRY.cityAsWritten)),
      checkedAt: this.tableString('dates', bytes.readUInt16LE(at + ENTRY.date)),
      ...((flags & (ENTRY_FLAGS.oig | ENTRY_FLAGS.candidates)) !== 0 ? this.oigOf(npi, flags) : NO_OIG),
    };
  }

  /**
   * The OIG cells of an NPI flagged in the LEIE or with candidates, found through the OIG fence (one read of the run
   * of entries that can hold it). The match cells only when flagged in the LEIE; the count only when flagged with
   * candidates (never in a version 6 file).
   */
  private oigOf(npi: string, flags: number): Pick<EntryCells, 'oig' | 'candidates'> {
    const entry = this.oigFence.find(this.source, Number(npi));
    if (entry === null) return NO_OIG;
    const id = (k: number) => this.tableString('oig_strings', entry.readUInt32LE(12 + 4 * k));
    return {
      oig: (flags & ENTRY_FLAGS.oig) !== 0 ? [id(0), id(1), id(2)] : null,
      candidates: (flags & ENTRY_FLAGS.candidates) !== 0 ? entry.readUInt16LE(OIG_CANDIDATES_AT) : 0,
    };
  }

  /** String `id` (from 1; 0 = NULL) of a string table section, decoded once. */
  private tableString(section: 'cities' | 'dates' | 'oig_strings', id: number): string | null {
    if (id === 0) return null;
    const memo = section === 'cities' ? this.memo.cities : section === 'dates' ? this.memo.dates : this.memo.oig;
    const known = memo.get(id);
    if (known !== undefined) return known;
    const value = intern(tableValue(this.source, this.header.sections[section][0], id));
    if (memo.size < 4096) memo.set(id, value);
    return value;
  }
}
