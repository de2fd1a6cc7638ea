/**
 * Writes an identity serving index (format.ts) from the rows of one partition, given in (taxonomy_code, npi) order.
 *
 * Memory is linear in the partition: 32 bytes per record, its name, three to seven posting entries (4 bytes each) per
 * row while the lists are built, and the clustered copy of the city lists' records and names (format.ts). Lists are
 * built by counting (two passes per list family), never by a comparison sort, except the class_rep rows, which are
 * sorted once by NPI.
 *
 * @example
 * const writer = new IdentityIndexWriter('counselor');
 * for (const row of rowsInCodeNpiOrder) writer.add(row);
 * await writeFile(file, writer.finish());
 */
import { assembleIndex, ByteBuilder, Dictionary, stringTable, text, U32Builder, u32Bytes } from '../binary/builders';
import {
  ANY,
  CANDIDATE_COUNT_VERSION,
  CITY_SECTIONS,
  cityKey,
  ENTITY_FLAGS,
  ENTITY_SHIFT,
  encodeFlag,
  FLAG_OIG,
  GEO_DIR_BYTES,
  GEO_FENCE_EVERY,
  GEO_SECTIONS,
  GEO_VERSION,
  IDENTITY_INDEX_VERSION,
  type IdentityIndexHeader,
  type IdentityIndexRow,
  type IdentityIndexVersion,
  identityIndexMagic,
  MAX_CANDIDATE_COUNT,
  OIG_ENTRY,
  OIG_ENTRY_BYTES,
  RECORD,
  REP_CODE,
  SECTIONS,
  type SectionName,
} from './format';
import { ListBuilder } from './posting-lists';

const NPI_PATTERN = /^[0-9]{10}$/;
const U16_MAX = 0xffff;
/** Numbers per pending `oig` entry: record, excluded, candidates, type, date, checked_at. */
const OIG_STRIDE = 6;

export class IdentityIndexWriter {
  private readonly records = new ByteBuilder();
  private readonly names = new ByteBuilder();
  private readonly codes = new Dictionary();
  private readonly displays = new Map<number, string | null>();
  private readonly states = new Dictionary();
  private readonly cities = new Dictionary();
  private readonly dates = new Dictionary();
  private readonly oigStrings = new Dictionary();
  private readonly oig: number[] = [];
  /** Per record: temporary state and city ids, and class_rep. */
  private readonly stateOf = new U32Builder();
  private readonly cityOf = new U32Builder();
  private readonly repRecords = new U32Builder();
  /** Per record: its ZIP rank + 1 (0: not placed). */
  private readonly zipOf = new U32Builder();
  /** Temporary code id -> [first record, count]. */
  private readonly ranges = new Map<number, [number, number]>();
  private rows = 0;
  private lastCode = 0;
  private lastNpi = '';

  /** `version` 2 writes the layout before the clustered city lists (format.ts), for the reader's tests. */
  constructor(
    private readonly classificationKey: string,
    private readonly version: IdentityIndexVersion = IDENTITY_INDEX_VERSION,
  ) {}

  /**
   * Adds the next row; rows come grouped by taxonomy_code, each code's rows in ascending NPI order. A code's
   * display is its first row's (the later rows' `taxonomy_display` is not read).
   */
  add(row: IdentityIndexRow): void {
    if (!NPI_PATTERN.test(row.npi)) throw new Error(`identity index: NPI ${JSON.stringify(row.npi)} is not 10 digits`);
    const code = text(row.taxonomy_code);
    if (code === null) throw new Error(`identity index: NPI ${row.npi} has no taxonomy code`);
    const codeId = this.codes.idOf(code);
    const record = this.rows;
    if (codeId !== this.lastCode) {
      if (this.ranges.has(codeId)) throw new Error(`identity index: rows of code ${code} are not contiguous`);
      this.ranges.set(codeId, [record, 0]);
      this.displays.set(codeId, text(row.taxonomy_display));
      this.lastCode = codeId;
    } else if (row.npi <= this.lastNpi) {
      throw new Error(`identity index: NPIs of code ${code} are not ascending at ${row.npi}`);
    }
    this.lastNpi = row.npi;
    (this.ranges.get(codeId) as [number, number])[1] += 1;

    const state = this.states.idOf(text(row.state));
    const date = this.dates.idOf(text(row.checked_at));
    if (state > U16_MAX || date > U16_MAX) throw new Error('identity index: more than 65,535 states or dates');
    const city = text(row.city);
    const cityId = this.cities.idOf(city);
    const candidates =
      this.version >= CANDIDATE_COUNT_VERSION ? Math.min(Math.max(row.oig_candidate_count, 0), MAX_CANDIDATE_COUNT) : 0;
    const oig = !(
      row.oig_excluded === false &&
      row.oig_type === null &&
      row.oig_date === null &&
      row.oig_checked_at === null &&
      candidates === 0
    );
    if (oig) {
      this.oig.push(
        record,
        encodeFlag(row.oig_excluded),
        candidates,
        this.oigStrings.idOf(row.oig_type),
        this.oigStrings.idOf(row.oig_date),
        this.oigStrings.idOf(row.oig_checked_at),
      );
    }
    const name = text(row.name);
    const nameStart = this.names.length;
    const nameLength = name === null ? 0 : this.names.writeString(name);

    const buffer = this.records.reserve(RECORD.bytes);
    const at = this.records.length;
    buffer.fill(0, at, at + RECORD.bytes);
    buffer.write(row.npi, at + RECORD.npi, 'latin1');
    const entity =
      this.version >= GEO_VERSION
        ? (ENTITY_FLAGS[row.entity_type as keyof typeof ENTITY_FLAGS] ?? 0) << ENTITY_SHIFT
        : 0;
    buffer[at + RECORD.flags] =
      encodeFlag(row.is_primary) | (encodeFlag(row.class_rep) << 2) | (oig ? FLAG_OIG : 0) | entity;
    buffer.writeUInt32LE(nameStart, at + RECORD.nameStart);
    buffer.writeUInt32LE(nameLength, at + RECORD.nameLength);
    buffer.writeUInt32LE(codeId, at + RECORD.code);
    buffer.writeUInt32LE(cityId, at + RECORD.city);
    buffer.writeUInt16LE(state, at + RECORD.state);
    buffer.writeUInt16LE(date, at + RECORD.date);
    this.records.length += RECORD.bytes;

    this.stateOf.push(state);
    this.cityOf.push(cityId);
    const rank = row.zip_rank ?? null;
    if (rank !== null && !(Number.isInteger(rank) && rank >= 0 && rank < 0xfffffffe)) {
      throw new Error(`identity index: NPI ${row.npi} has ZIP rank ${rank}`);
    }
    this.zipOf.push(rank === null ? 0 : rank + 1);
    if (row.class_rep === true) this.repRecords.push(record);
    this.rows += 1;
  }

  /** The file's bytes. */
  finish(): Buffer {
    const codes = this.codes.sorted();
    const states = this.states.sorted();
    const cities = this.cities.sorted();
    const dates = this.dates.sorted();
    // City keys: the distinct lower-cased cities, and the key id of every (final) city id.
    const keys = new Dictionary();
    const keyTempOfCity = cities.values.map((c) => keys.idOf(cityKey(c)));
    const cityKeys = keys.sorted();
    const cityKeyOf = Uint32Array.from(keyTempOfCity, (temp) => cityKeys.finalOf[temp] as number);

    // Records: temporary ids to final ids.
    const records = this.records.bytes();
    const stateOf = this.stateOf.array();
    const cityOf = this.cityOf.array();
    for (let r = 0; r < this.rows; r += 1) {
      const at = r * RECORD.bytes;
      records.writeUInt32LE(codes.finalOf[records.readUInt32LE(at + RECORD.code)] as number, at + RECORD.code);
      records.writeUInt32LE(cities.finalOf[records.readUInt32LE(at + RECORD.city)] as number, at + RECORD.city);
      records.writeUInt16LE(states.finalOf[records.readUInt16LE(at + RECORD.state)] as number, at + RECORD.state);
      records.writeUInt16LE(dates.finalOf[records.readUInt16LE(at + RECORD.date)] as number, at + RECORD.date);
      stateOf[r] = states.finalOf[stateOf[r] as number] as number;
      const city = cities.finalOf[cityOf[r] as number] as number;
      cityOf[r] = city === ANY ? ANY : (cityKeyOf[city - 1] as number);
    }

    const codeRanges = new Uint32Array(2 * (codes.values.length + 1));
    const displays: string[] = new Array(codes.values.length + 1).fill('');
    for (const [temp, [first, count]] of this.ranges) {
      const id = codes.finalOf[temp] as number;
      codeRanges[2 * id] = first;
      codeRanges[2 * id + 1] = count;
      displays[id] = this.displays.get(temp) ?? '';
    }

    // Posting lists: the class_rep rows first (t = REP_CODE), then each code in id order.
    const repRecords = this.repRecords.array();
    const repNpis = Float64Array.from(repRecords, (r) =>
      Number(records.toString('latin1', r * RECORD.bytes, r * RECORD.bytes + 10)),
    );
    const order = Uint32Array.from(repRecords.keys()).sort((a, b) => (repNpis[a] as number) - (repNpis[b] as number));
    const reps = Uint32Array.from(order, (i) => repRecords[i] as number);
    const lists = new ListBuilder(stateOf, cityOf, this.version >= 3);
    lists.addGroup(REP_CODE, reps, true);
    for (let id = 1; id <= codes.values.length; id += 1) {
      const first = codeRanges[2 * id] as number;
      const count = codeRanges[2 * id + 1] as number;
      lists.addGroup(id, rangeOf(first, count), false);
    }

    const oig = Buffer.alloc((this.oig.length / OIG_STRIDE) * OIG_ENTRY_BYTES);
    for (let k = 0; k < this.oig.length / OIG_STRIDE; k += 1) {
      const [record, excluded, candidates, type, date, checked] = this.oig.slice(
        OIG_STRIDE * k,
        OIG_STRIDE * k + OIG_STRIDE,
      ) as [number, number, number, number, number, number];
      const at = k * OIG_ENTRY_BYTES;
      oig.writeUInt32LE(record, at + OIG_ENTRY.record);
      oig[at + OIG_ENTRY.excluded] = excluded;
      oig.writeUInt16LE(candidates, at + OIG_ENTRY.candidates);
      oig.writeUInt32LE(type, at + OIG_ENTRY.type);
      oig.writeUInt32LE(date, at + OIG_ENTRY.date);
      oig.writeUInt32LE(checked, at + OIG_ENTRY.checkedAt);
    }

    lists.finish(this.rows);
    const names = this.names.bytes();
    const city = clusteredCopy(lists.cityOrigin(), records, names);
    const geo = radiusLists(this.zipOf.array(), reps, codeRanges, codes.values.length);
    const geoCopy = clusteredCopy(geo.origin, records, names);
    const sections: Record<SectionName, Buffer> = {
      geo_ranges: u32Bytes(geo.ranges),
      geo_fence: u32Bytes(geo.fence),
      geo_dir: u32Bytes(geo.dir),
      geo_records: geoCopy.records,
      geo_names: geoCopy.names,
      geo_origin: u32Bytes(geo.origin),
      records,
      names,
      city_records: city.records,
      city_names: city.names,
      city_origin: u32Bytes(lists.cityOrigin()),
      code_ranges: u32Bytes(codeRanges),
      postings: u32Bytes(lists.postings()),
      directory: lists.directory(),
      codes: stringTable(codes.values),
      displays: stringTable(displays.slice(1)),
      states: stringTable(states.values),
      cities: stringTable(cities.values),
      city_keys: stringTable(cityKeys.values),
      city_key_of: u32Bytes(cityKeyOf),
      dates: stringTable(dates.values),
      oig,
      // Temporary ids in first-seen order are the final ids of an unsorted table.
      oig_strings: stringTable(this.oigStrings.values),
    };
    return assemble(this.classificationKey, this.version, this.rows, reps.length, sections);
  }
}

/**
 * The records `origin` lists and their names, copied in that order; each copy's `nameStart` is into the copy's
 * names. Copied word by word and byte by byte (a `Buffer.copy` per record and per name was most of a national
 * build's extra time for the copy).
 */
function clusteredCopy(origin: Uint32Array, records: Buffer, names: Buffer): { records: Buffer; names: Buffer } {
  const WORDS = RECORD.bytes / 4;
  const NAME_START = RECORD.nameStart / 4;
  const NAME_LENGTH = RECORD.nameLength / 4;
  const from = u32View(records);
  let nameBytes = 0;
  for (const r of origin) nameBytes += from[r * WORDS + NAME_LENGTH] as number;
  const out = Buffer.alloc(origin.length * RECORD.bytes);
  const to = u32View(out);
  const outNames = Buffer.alloc(nameBytes);
  let nameAt = 0;
  for (let k = 0; k < origin.length; k += 1) {
    const f = (origin[k] as number) * WORDS;
    const t = k * WORDS;
    for (let w = 0; w < WORDS; w += 1) to[t + w] = from[f + w] as number;
    const start = from[f + NAME_START] as number;
    const length = from[f + NAME_LENGTH] as number;
    for (let b = 0; b < length; b += 1) outNames[nameAt + b] = names[start + b] as number;
    to[t + NAME_START] = nameAt;
    nameAt += length;
  }
  return { records: out, names: outNames };
}

/** The little-endian u32 words of a buffer (records are whole words; a copy when the buffer is not aligned). */
function u32View(bytes: Buffer): Uint32Array {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : Buffer.from(bytes);
  return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length / 4);
}

/**
 * The radius lists (format.ts): per t (REP_CODE, then each code id), its placed records ordered by (ZIP rank, NPI),
 * and the directory of its ranks. `zipOf` holds each record's rank + 1 (0: not placed); `reps` are the class_rep
 * records in NPI order; a code's records are its range of `codeRanges`, in NPI order. Stable sorts by rank keep the
 * NPI order within a rank.
 */
function radiusLists(
  zipOf: Uint32Array,
  reps: Uint32Array,
  codeRanges: Uint32Array,
  codeCount: number,
): { origin: Uint32Array; dir: Uint32Array; ranges: Uint32Array; fence: Uint32Array } {
  const origin = new U32Builder();
  const dir = new U32Builder();
  const ranges = new Uint32Array(2 * (codeCount + 1));
  const group = (t: number, records: Uint32Array) => {
    const placed = records.filter((r) => (zipOf[r] as number) !== 0);
    // Positions in NPI order, sorted by rank then position: (rank, NPI) order.
    const order = Uint32Array.from(placed.keys()).sort(
      (a, b) => (zipOf[placed[a] as number] as number) - (zipOf[placed[b] as number] as number) || a - b,
    );
    ranges[2 * t] = dir.length / 3;
    let lastRank = -1;
    let runFirst = 0;
    const closeRun = () => {
      if (lastRank >= 0) {
        dir.push(lastRank);
        dir.push(runFirst);
        dir.push(origin.length - runFirst);
      }
    };
    for (const position of order) {
      const record = placed[position] as number;
      const rank = (zipOf[record] as number) - 1;
      if (rank !== lastRank) {
        closeRun();
        lastRank = rank;
        runFirst = origin.length;
      }
      origin.push(record);
    }
    closeRun();
    ranges[2 * t + 1] = dir.length / 3 - (ranges[2 * t] as number);
  };
  group(REP_CODE, reps);
  for (let id = 1; id <= codeCount; id += 1) {
    group(id, rangeOf(codeRanges[2 * id] as number, codeRanges[2 * id + 1] as number));
  }
  const entries = dir.array();
  const fence = new Uint32Array(Math.ceil(entries.length / 3 / GEO_FENCE_EVERY));
  for (let k = 0; k < fence.length; k += 1) fence[k] = entries[3 * k * GEO_FENCE_EVERY] as number;
  if (GEO_DIR_BYTES !== 12) throw new Error('identity index: geo_dir entries are three u32');
  return { origin: origin.array(), dir: entries, ranges, fence };
}

function rangeOf(first: number, count: number): Uint32Array {
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i += 1) out[i] = first + i;
  return out;
}

function assemble(
  classificationKey: string,
  version: IdentityIndexVersion,
  rows: number,
  repRows: number,
  sections: Record<SectionName, Buffer>,
): Buffer {
  const absent: readonly string[] = [
    ...(version >= 3 ? [] : CITY_SECTIONS),
    ...(version >= GEO_VERSION ? [] : GEO_SECTIONS),
  ];
  const order = SECTIONS.filter((name) => !absent.includes(name));
  return assembleIndex(
    'identity index',
    identityIndexMagic(version),
    12 + 2048 + classificationKey.length * 4,
    order,
    sections,
    (table): IdentityIndexHeader => ({
      version,
      classification_key: classificationKey,
      rows,
      rep_rows: repRows,
      sections: table,
    }),
  );
}
