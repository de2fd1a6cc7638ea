/**
 * Writes a state's identity search index (format.ts) from its NPIs, in any order: the writer sorts them by
 * (search key bytes, NPI), so the order is the reader's byte order whatever collation produced the rows.
 *
 * Memory is linear in the state: the rows' keys and fixed fields until {@link SearchIndexWriter.finish}.
 *
 * @example
 * const writer = new SearchIndexWriter('TX');
 * for (const row of rows) writer.add(row);
 * await writeFile(file, writer.finish());
 */
import { ByteBuilder, Dictionary, stringTable, text, U32Builder } from '../binary/builders';
import {
  assembleSearchIndex,
  ENTITY_CODE,
  ENTRY,
  ENTRY_FLAGS,
  FENCE_BYTES,
  FENCE_EVERY,
  MAX_CANDIDATE_COUNT,
  OIG_CANDIDATES_AT,
  OIG_ENTRY_BYTES,
  SEARCH_INDEX_VERSION,
  type SearchIndexRow,
  type SearchIndexVersion,
  type SectionName,
  searchCityKey,
  searchKey,
} from './format';

const NPI_PATTERN = /^[0-9]{10}$/;
const POSTAL_PATTERN = /^[0-9]{5}$/;
const MAX_CODES = 255;
const MAX_KEY_BYTES = 0xffff;
const U16_MAX = 0xffff;

interface Pending {
  key: Buffer;
  npi: string;
  entity: number;
  postal: string | null;
  /** Temporary ids: city key, city as written, date. */
  city: number;
  cityAsWritten: number;
  date: number;
  name: Buffer;
  codes: number[];
  flags: number;
  /** Temporary oig string ids (type, date, checked_at) and the candidate count, or null for neither. */
  oig: [number, number, number, number] | null;
}

export class SearchIndexWriter {
  private readonly rows: Pending[] = [];
  private readonly cities = new Dictionary();
  private readonly citiesAsWritten = new Dictionary();
  private readonly dates = new Dictionary();
  private readonly codes = new Dictionary();
  private readonly oigStrings = new Dictionary();
  private readonly classOf = new Map<number, string>();
  private readonly displayOf = new Map<number, string>();

  /** `version` 6 writes the layout before the candidate count (format.ts), for the reader's tests. */
  constructor(
    readonly state: string,
    private readonly version: SearchIndexVersion = SEARCH_INDEX_VERSION,
  ) {}

  get count(): number {
    return this.rows.length;
  }

  add(row: SearchIndexRow): void {
    if (!NPI_PATTERN.test(row.npi)) throw new Error(`search index: NPI ${JSON.stringify(row.npi)} is not 10 digits`);
    if (row.codes.length === 0 || row.codes.length > MAX_CODES || row.classes.length !== row.codes.length) {
      throw new Error(`search index: NPI ${row.npi} has ${row.codes.length} codes (1 to ${MAX_CODES}, with classes)`);
    }
    const key = Buffer.from(searchKey(row.search_name), 'utf8');
    if (key.length > MAX_KEY_BYTES) throw new Error(`search index: NPI ${row.npi} has a name over 64 KB`);
    const postal = row.postal_code !== null && POSTAL_PATTERN.test(row.postal_code) ? row.postal_code : null;
    if (row.displays.length !== row.codes.length)
      throw new Error(`search index: NPI ${row.npi} has no display per code`);
    const codes = row.codes.map((code, i) => {
      const id = this.codes.idOf(code);
      this.classOf.set(id, row.classes[i] as string);
      this.displayOf.set(id, row.displays[i] ?? '');
      return id;
    });
    const city = text(row.city);
    const candidates = this.version >= 7 ? Math.min(Math.max(row.oig_candidate_count, 0), MAX_CANDIDATE_COUNT) : 0;
    const oig =
      row.oig_excluded || candidates > 0
        ? ([
            this.oigStrings.idOf(row.oig_excluded ? row.oig_type : null),
            this.oigStrings.idOf(row.oig_excluded ? row.oig_date : null),
            this.oigStrings.idOf(row.oig_excluded ? row.oig_checked_at : null),
            candidates,
          ] as [number, number, number, number])
        : null;
    this.rows.push({
      key,
      npi: row.npi,
      entity: ENTITY_CODE[row.entity_type],
      postal,
      city: city === null ? 0 : this.cities.idOf(searchCityKey(city)),
      cityAsWritten: this.citiesAsWritten.idOf(city),
      date: this.dates.idOf(text(row.checked_at)),
      name: Buffer.from(row.name, 'utf8'),
      codes,
      flags:
        (row.primary_first ? ENTRY_FLAGS.primaryFirst : 0) |
        (row.oig_excluded ? ENTRY_FLAGS.oig : 0) |
        (candidates > 0 ? ENTRY_FLAGS.candidates : 0),
      oig,
    });
  }

  /** The file's bytes. */
  finish(): Buffer {
    const rows = this.rows.sort((a, b) => Buffer.compare(a.key, b.key) || (a.npi < b.npi ? -1 : a.npi > b.npi ? 1 : 0));
    const cities = this.cities.sorted();
    const citiesAsWritten = this.citiesAsWritten.sorted();
    const dates = this.dates.sorted();
    if (dates.values.length > U16_MAX) throw new Error('search index: more than 65,535 dates');
    if (this.codes.values.length > U16_MAX) throw new Error('search index: more than 65,535 taxonomy codes');
    const codes = this.codes.sorted();
    const classes = new Array<string>(codes.values.length).fill('');
    const displays = new Array<string>(codes.values.length).fill('');
    for (const [temp, key] of this.classOf) classes[(codes.finalOf[temp] as number) - 1] = key;
    for (const [temp, display] of this.displayOf) displays[(codes.finalOf[temp] as number) - 1] = display;
    const names = new ByteBuilder();
    const oigNpis: [string, number, number, number, number][] = [];

    const entries = Buffer.alloc(rows.length * ENTRY.bytes);
    const keys = new ByteBuilder();
    const entryCodes: number[] = [];
    rows.forEach((row, i) => {
      const at = i * ENTRY.bytes;
      row.key.copy(entries, at + ENTRY.key16, 0, Math.min(16, row.key.length));
      entries.write(row.npi, at + ENTRY.npi, 'latin1');
      entries[at + ENTRY.entity] = row.entity;
      entries[at + ENTRY.codeCount] = row.codes.length;
      if (row.postal !== null) entries.write(row.postal, at + ENTRY.postal, 'latin1');
      entries.writeUInt16LE(row.key.length, at + ENTRY.keyLength);
      entries.writeUInt32LE(keys.length, at + ENTRY.keyStart);
      row.key.copy(keys.reserve(row.key.length), keys.length);
      keys.length += row.key.length;
      entries.writeUInt32LE(row.city === 0 ? 0 : (cities.finalOf[row.city] as number), at + ENTRY.city);
      entries.writeUInt32LE(entryCodes.length, at + ENTRY.firstCode);
      for (const code of row.codes) entryCodes.push(codes.finalOf[code] as number);
      entries.writeUInt32LE(names.length, at + ENTRY.nameStart);
      if (row.name.length > U16_MAX) throw new Error(`search index: NPI ${row.npi} has a name over 64 KB`);
      entries.writeUInt16LE(row.name.length, at + ENTRY.nameLength);
      row.name.copy(names.reserve(row.name.length), names.length);
      names.length += row.name.length;
      entries.writeUInt16LE(dates.finalOf[row.date] as number, at + ENTRY.date);
      entries.writeUInt32LE(citiesAsWritten.finalOf[row.cityAsWritten] as number, at + ENTRY.cityAsWritten);
      entries[at + ENTRY.flags] = row.flags;
      entries.writeUInt16LE(codes.finalOf[row.codes[0] as number] as number, at + ENTRY.firstCodeId);
      if (row.oig !== null) oigNpis.push([row.npi, ...row.oig]);
    });
    // OIG cells by NPI (entries are in name order, so sorted here).
    oigNpis.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const oigBytes = Buffer.alloc(oigNpis.length * OIG_ENTRY_BYTES);
    oigNpis.forEach(([npi, type, date, checked, candidates], k) => {
      const at = k * OIG_ENTRY_BYTES;
      oigBytes.write(npi, at, 'latin1');
      oigBytes.writeUInt16LE(candidates, at + OIG_CANDIDATES_AT);
      oigBytes.writeUInt32LE(type, at + 12);
      oigBytes.writeUInt32LE(date, at + 16);
      oigBytes.writeUInt32LE(checked, at + 20);
    });

    // Postal copies: the entries with a postal code, by (postal code, entry number), so a ZIP's entries are
    // contiguous (one read) and still in name order.
    const withPostal = new U32Builder();
    rows.forEach((row, i) => {
      if (row.postal !== null) withPostal.push(i);
    });
    const order = Uint32Array.from(withPostal.array()).sort((a, b) => {
      const pa = rows[a]?.postal as string;
      const pb = rows[b]?.postal as string;
      return pa < pb ? -1 : pa > pb ? 1 : a - b;
    });
    const postal = Buffer.alloc(order.length * ENTRY.bytes);
    const postalNames = new ByteBuilder();
    order.forEach((entry, k) => {
      const at = k * ENTRY.bytes;
      entries.copy(postal, at, entry * ENTRY.bytes, (entry + 1) * ENTRY.bytes);
      // The copy's name in a heap of its own, so a ZIP's names are contiguous too.
      const name = (rows[entry] as Pending).name;
      postal.writeUInt32LE(postalNames.length, at + ENTRY.nameStart);
      name.copy(postalNames.reserve(name.length), postalNames.length);
      postalNames.length += name.length;
    });

    const fence = (section: Buffer, field: number, width: number, stride: number) => {
      const count = Math.ceil(section.length / ENTRY.bytes / FENCE_EVERY);
      const out = Buffer.alloc(count * stride);
      for (let f = 0; f < count; f += 1) {
        const at = f * FENCE_EVERY * ENTRY.bytes + field;
        section.copy(out, f * stride, at, at + width);
      }
      return out;
    };
    const sections: Record<SectionName, Buffer> = {
      entries,
      keys: keys.bytes(),
      names: names.bytes(),
      city_keys: stringTable(cities.values),
      cities: stringTable(citiesAsWritten.values),
      dates: stringTable(dates.values),
      codes: stringTable(codes.values),
      code_classes: stringTable(classes),
      displays: stringTable(displays),
      entry_codes: Buffer.from(Uint16Array.from(entryCodes).buffer),
      postal,
      postal_names: postalNames.bytes(),
      name_fence: fence(entries, ENTRY.key16, 16, FENCE_BYTES.name),
      postal_fence: fence(postal, ENTRY.postal, 5, FENCE_BYTES.postal),
      oig: oigBytes,
      // Temporary ids in first-seen order are the final ids of an unsorted table.
      oig_strings: stringTable(this.oigStrings.values),
    };
    return assembleSearchIndex(this.state, rows.length, sections, this.version);
  }
}
