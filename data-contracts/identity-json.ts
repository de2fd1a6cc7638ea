/**
 * The JSON bytes of identity rows (the IdentityProvider wire shape of rows.ts), written without building the
 * objects: byte for byte `JSON.stringify(rows.map(identityProviderFromRow))`, which property tests hold equal.
 *
 * A 1,000-row identity page is about 1 MB, three quarters of it the same locked placeholders and OIG note on every
 * row. The writer copies those as constant bytes, encodes a page's taxonomy part once, writes plain ASCII values
 * without encoding them, and takes npi and name as UTF-8 bytes: an identity index page (platform/identity-index) hands its rows over field
 * by field from its own buffers ({@link IdentityRowSink}), so a page allocates no row objects and no strings
 * (a request that lives through two young-generation collections would otherwise move its garbage to the old one).
 */
import { IDENTITY_SOURCE } from './constants';
import { roundedMiles } from './near';
import { candidateCount, type IdentityRow, LOCKED_MEMBERS_JSON, NO_MATCH_OIG_MEMBER_JSON, oigFromRow } from './rows';

/** The `oig_*` cells of a row that is not plain "no match" (an NPI match, or possible matches to count). */
export type OigCells = Pick<
  IdentityRow,
  'oig_excluded' | 'oig_type' | 'oig_date' | 'oig_checked_at' | 'oig_candidate_count'
>;

/** A cell of a row as the index holds it: text, or null for none. */
type Cell = string | null;

/**
 * Receives identity rows field by field: `row` (npi and name as UTF-8 bytes of their buffers, the other cells as they
 * are) and `rowObject` (one row held as an object). The JSON writer below is the sink; its methods declare the
 * signatures once.
 */
export type IdentityRowSink = Pick<IdentityJsonWriter, 'row' | 'rowObject'>;

/** A page of identity rows: as objects on demand, or written into a sink. */
export interface IdentityRows {
  readonly length: number;
  row(i: number): IdentityRow;
  writeTo(sink: IdentityRowSink): void;
}

const str = (v: IdentityRow[keyof IdentityRow]): string | null =>
  v === null || v === undefined || v === '' ? null : String(v);

/** Identity rows held as objects (tests, fakes, small pages). */
export function identityRowsOf(rows: readonly IdentityRow[]): IdentityRows {
  return {
    length: rows.length,
    row: (i) => rows[i] as IdentityRow,
    writeTo(sink) {
      for (const row of rows) sink.rowObject(row);
    },
  };
}

/** Every row of a page as objects. */
export function identityRowList(rows: IdentityRows): IdentityRow[] {
  return Array.from({ length: rows.length }, (_, i) => rows.row(i));
}

const JSON_PARTS = {
  npi: Buffer.from('{"npi":'),
  name: Buffer.from(',"name":'),
  city: Buffer.from(',"city":'),
  state: Buffer.from(',"state":'),
  checkedAt: Buffer.from(`,"layer":"identity","source":${JSON.stringify(IDENTITY_SOURCE)},"checked_at":`),
  /**
   * The OIG no-match note, no candidate and the four locked placeholders: the same bytes closing every row without a
   * match or a candidate.
   */
  noMatchTail: Buffer.from(`${NO_MATCH_OIG_MEMBER_JSON},"oig_candidate_count":0${LOCKED_MEMBERS_JSON}}`),
  noMatchOig: Buffer.from(NO_MATCH_OIG_MEMBER_JSON),
  candidateCount: ',"oig_candidate_count":',
  tail: Buffer.from(`${LOCKED_MEMBERS_JSON}}`),
  nullName: Buffer.from('"null"'),
  null: Buffer.from('null'),
} as const;

/** Strings JSON writes as they are between quotes: printable ASCII without `"` and `\`. */
const PLAIN_JSON_STRING = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** Does JSON write these UTF-8 bytes as they are between quotes (no `"`, `\` or control character)? */
function plainJsonBytes(bytes: Buffer, at: number, end: number): boolean {
  for (let i = at; i < end; i += 1) {
    const b = bytes[i] as number;
    if (b < 0x20 || b === 0x22 || b === 0x5c) return false;
  }
  return true;
}

/** The bytes of a page's repeated parts by the two cells they show (a Map tells null from 'null'). */
class PartMemo {
  private readonly parts = new Map<string | null, Map<string | null, Buffer>>();

  get(a: string | null, b: string | null): Buffer | undefined {
    return this.parts.get(a)?.get(b);
  }

  set(a: string | null, b: string | null, text: string): Buffer {
    let inner = this.parts.get(a);
    if (inner === undefined) {
      inner = new Map();
      this.parts.set(a, inner);
    }
    const bytes = Buffer.from(text, 'utf8');
    inner.set(b, bytes);
    return bytes;
  }
}

const json = (value: string | null) => JSON.stringify(value);

/**
 * Writes an identity page's JSON into one buffer: `before`, the array of rows, `after` (an envelope's text around
 * its `data` array).
 * @example
 * const writer = new IdentityJsonWriter('{"data":', rows.length);
 * rows.writeTo(writer);
 * writer.finish('}'); // Buffer
 */
/**
 * Bytes of one row's JSON, for the first buffer: rows measured 1,000 bytes at the median and up to 1,320 (bench at
 * 1,000,000 rows), so most pages never grow.
 */
const ROW_BYTES_ESTIMATE = 1100;

export class IdentityJsonWriter implements IdentityRowSink {
  private buffer: Buffer;
  private length = 0;
  private rows = 0;
  private readonly taxonomy = new PartMemo();
  /** A radius answer's distances (row i's at i), written as each row's last member; null for other answers. */
  private readonly miles: ArrayLike<number> | null;

  /**
   * `allocate` gives the first buffer, of at least the bytes asked (a whole pooled block: lambdas/http/body-pool.ts);
   * growth past it allocates anew.
   */
  constructor(
    before: string,
    expectedRows: number,
    allocate: (bytes: number) => Buffer = Buffer.allocUnsafe,
    miles: ArrayLike<number> | null = null,
  ) {
    this.miles = miles;
    this.buffer = allocate(Math.max(1024, expectedRows * ROW_BYTES_ESTIMATE + before.length * 3 + 16));
    this.text(before);
    this.byte(0x5b);
  }

  /**
   * One row: npi and name as UTF-8 bytes at `[at, at + length)` of their buffers (a NULL name: `name` null), then
   * the other cells, `oig` null for the "no match" cells without a candidate. Prototype methods, not arrow members: the page calls them
   * once per row, and the engine optimises a method call better than a call through an instance field.
   */
  row(
    npi: Buffer,
    npiAt: number,
    npiLength: number,
    name: Buffer | null,
    nameAt: number,
    nameLength: number,
    code: Cell,
    display: Cell,
    city: Cell,
    state: Cell,
    checkedAt: Cell,
    oig: OigCells | null,
  ): void {
    this.startRow();
    this.stringBytes(npi, npiAt, npiLength);
    this.part(JSON_PARTS.name);
    if (name === null) this.part(JSON_PARTS.nullName);
    else this.stringBytes(name, nameAt, nameLength);
    this.rest(code, display, city, state, checkedAt, oig);
  }

  rowObject(row: IdentityRow): void {
    this.startRow();
    this.string(String(row.npi));
    this.part(JSON_PARTS.name);
    // The object mapping writes `String(row.name)`: a NULL name is the text "null" there, and here.
    this.string(String(row.name));
    const { taxonomy_code: code, taxonomy_display: display, city, state, checked_at: checkedAt } = row;
    this.rest(str(code), str(display), str(city), str(state), str(checkedAt), row);
  }

  private startRow(): void {
    if (this.rows > 0) this.byte(0x2c);
    this.rows += 1;
    this.part(JSON_PARTS.npi);
  }

  /** Everything after the name: the taxonomy part encoded once per page, the rest written as it comes. */
  private rest(code: Cell, display: Cell, city: Cell, state: Cell, checkedAt: Cell, oig: OigCells | null): void {
    this.part(
      this.taxonomy.get(code, display) ??
        this.taxonomy.set(code, display, `,"taxonomy_code":${json(code)},"taxonomy_display":${json(display)}`),
    );
    this.part(JSON_PARTS.city);
    this.nullableString(city);
    this.part(JSON_PARTS.state);
    this.nullableString(state);
    this.part(JSON_PARTS.checkedAt);
    this.nullableString(checkedAt);
    const count = oig === null ? 0 : candidateCount(oig.oig_candidate_count);
    const excluded = oig !== null && oig.oig_excluded === true;
    if (!excluded && count === 0) {
      this.part(JSON_PARTS.noMatchTail);
    } else {
      if (excluded) this.text(`,"oig":${JSON.stringify(oigFromRow(oig))}`);
      else this.part(JSON_PARTS.noMatchOig);
      this.text(`${JSON_PARTS.candidateCount}${count}`);
      this.part(JSON_PARTS.tail);
    }
    if (this.miles !== null) {
      // The row's closing brace makes way for its distance, the last member.
      this.length -= 1;
      this.text(`,"distance_miles":${roundedMiles(this.miles[this.rows - 1] as number)}}`);
    }
  }

  private nullableString(value: string | null): void {
    if (value === null) this.part(JSON_PARTS.null);
    else this.string(value);
  }

  /** Closes the array, appends `after` and returns the bytes. */
  finish(after: string): Buffer {
    this.byte(0x5d);
    this.text(after);
    return this.buffer.subarray(0, this.length);
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    next.set(this.buffer.subarray(0, this.length), 0);
    this.buffer = next;
  }

  private byte(value: number): void {
    this.room(1);
    this.buffer[this.length] = value;
    this.length += 1;
  }

  private part(bytes: Buffer): void {
    this.bytes(bytes, 0, bytes.length);
  }

  private bytes(source: Buffer, at: number, length: number): void {
    this.room(length);
    const out = this.buffer;
    if (length <= 64) {
      // An npi or a name: a loop costs less than a view and a copy call (2,000 of each on a 1,000-row page).
      for (let i = 0; i < length; i += 1) out[this.length + i] = source[at + i] as number;
    } else {
      // TypedArray#set: Buffer#copy validates its arguments on every call, which shows on a page of small parts.
      out.set(length === source.length && at === 0 ? source : source.subarray(at, at + length), this.length);
    }
    this.length += length;
  }

  private text(value: string): void {
    this.room(Buffer.byteLength(value));
    this.length += this.buffer.write(value, this.length, 'utf8');
  }

  /** A JSON string value (quotes included), exactly as JSON.stringify writes it. */
  private string(value: string): void {
    if (PLAIN_JSON_STRING.test(value)) {
      this.room(value.length + 2);
      this.buffer[this.length] = 0x22;
      this.buffer.write(value, this.length + 1, 'latin1');
      this.buffer[this.length + value.length + 1] = 0x22;
      this.length += value.length + 2;
    } else {
      this.text(JSON.stringify(value));
    }
  }

  /** A JSON string from UTF-8 bytes: copied between quotes when JSON writes them as they are, else escaped. */
  private stringBytes(source: Buffer, at: number, length: number): void {
    if (plainJsonBytes(source, at, at + length)) {
      this.byte(0x22);
      this.bytes(source, at, length);
      this.byte(0x22);
    } else {
      this.text(JSON.stringify(source.toString('utf8', at, at + length)));
    }
  }
}

/**
 * The JSON array of identity rows as IdentityProviders, between `before` and `after`.
 * @example identityProvidersJson(identityRowsOf(rows)).toString() // '[{"npi":"1234567893","name":…}]'
 */
export function identityProvidersJson(
  rows: IdentityRows,
  before = '',
  after = '',
  allocate?: (bytes: number) => Buffer,
  miles: ArrayLike<number> | null = null,
): Buffer {
  const writer = new IdentityJsonWriter(before, rows.length, allocate, miles);
  rows.writeTo(writer);
  return writer.finish(after);
}
