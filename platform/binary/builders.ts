/**
 * The encoding helpers of the index writers (platform/identity-index, platform/search-index): growable byte and u32
 * buffers, a dictionary that numbers distinct strings and renumbers them in byte order, the string table and u32
 * sections, and the assembly of a file from its sections.
 */

/** The id of NULL in a dictionary and a string table (./string-table.ts): ids of values start at 1. */
export const NULL_ID = 0;

/** A growable byte buffer. */
export class ByteBuilder {
  private buffer = Buffer.alloc(1 << 16);
  length = 0;

  reserve(bytes: number): Buffer {
    if (this.length + bytes > this.buffer.length) {
      const next = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + bytes));
      this.buffer.copy(next, 0, 0, this.length);
      this.buffer = next;
    }
    return this.buffer;
  }

  writeString(value: string): number {
    const bytes = Buffer.byteLength(value, 'utf8');
    this.reserve(bytes).write(value, this.length, 'utf8');
    this.length += bytes;
    return bytes;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

/** A growable typed array of u32. */
export class U32Builder {
  private values = new Uint32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const next = new Uint32Array(this.values.length * 2);
      next.set(this.values);
      this.values = next;
    }
    this.values[this.length++] = value;
  }

  /** Appends `count` zeros. */
  extend(count: number): void {
    if (this.length + count > this.values.length) {
      const next = new Uint32Array(Math.max(this.values.length * 2, this.length + count));
      next.set(this.values.subarray(0, this.length));
      this.values = next;
    }
    this.length += count;
  }

  array(): Uint32Array {
    return this.values.subarray(0, this.length);
  }
}

/** Distinct strings in first-seen order (temporary ids from 1), later renumbered in byte order. */
export class Dictionary {
  private readonly ids = new Map<string, number>();
  readonly values: string[] = [];

  /** The temporary id of `value`, 0 for NULL. */
  idOf(value: string | null): number {
    if (value === null) return NULL_ID;
    let id = this.ids.get(value);
    if (id === undefined) {
      this.values.push(value);
      id = this.values.length;
      this.ids.set(value, id);
    }
    return id;
  }

  /** The values in byte order, and the final id of every temporary id (index = temporary id). */
  sorted(): { values: string[]; finalOf: Uint32Array } {
    const order = this.values.map((value, i) => ({ value, bytes: Buffer.from(value, 'utf8'), temp: i + 1 }));
    order.sort((a, b) => Buffer.compare(a.bytes, b.bytes));
    const finalOf = new Uint32Array(this.values.length + 1);
    order.forEach((entry, i) => {
      finalOf[entry.temp] = i + 1;
    });
    return { values: order.map((e) => e.value), finalOf };
  }
}

/** A string table section: the count, the end offset of every value, then the UTF-8 bytes (./string-table.ts). */
export function stringTable(values: readonly string[]): Buffer {
  const encoded = values.map((v) => Buffer.from(v, 'utf8'));
  const head = Buffer.alloc(4 + 4 * values.length);
  head.writeUInt32LE(values.length, 0);
  let end = 0;
  encoded.forEach((bytes, i) => {
    end += bytes.length;
    head.writeUInt32LE(end, 4 + 4 * i);
  });
  return Buffer.concat([head, ...encoded]);
}

/** The bytes of a u32 array (little-endian, as every platform Node runs on), without a copy. */
export function u32Bytes(values: Uint32Array): Buffer {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}

/**
 * The bytes of an index file: `magic` (8 bytes), the u32 length of the header JSON, the header (`headerOf` the
 * section table), then the sections in `order`, each 8-byte aligned. The header's length depends on the offsets it
 * lists, so the sections start after a fixed `headerSpace` that the header must fit in.
 */
export function assembleIndex<N extends string, H>(
  what: string,
  magic: Buffer,
  headerSpace: number,
  order: readonly N[],
  sections: Record<N, Buffer>,
  headerOf: (table: Record<N, [offset: number, length: number]>) => H,
): Buffer {
  const align = (n: number) => Math.ceil(n / 8) * 8;
  const start = align(headerSpace);
  let offset = start;
  const table = {} as Record<N, [number, number]>;
  for (const name of order) {
    offset = align(offset);
    table[name] = [offset, sections[name].length];
    offset += sections[name].length;
  }
  const json = Buffer.from(JSON.stringify(headerOf(table)), 'utf8');
  if (12 + json.length > start) throw new Error(`${what}: header too long`);
  const out = Buffer.alloc(offset);
  magic.copy(out, 0);
  out.writeUInt32LE(json.length, 8);
  json.copy(out, 12);
  for (const name of order) sections[name].copy(out, table[name][0]);
  return out;
}

/** Empty strings are NULL on the wire (data-contracts/rows.ts); the index writers store them as NULL. */
export function text(value: string | null): string | null {
  return value === null || value === '' ? null : value;
}
