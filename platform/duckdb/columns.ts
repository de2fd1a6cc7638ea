/**
 * Reading a streamed result's chunks into JS: whole columns into typed arrays or one buffer of text
 * (`DuckDb.queryColumns`, ./pool.ts), or rows into plain objects (`DuckDb.query`).
 */
import type { DuckDBVector } from '@duckdb/node-api';

/** A typed array that `DuckDb.queryColumns` (./pool.ts) fills from an integer column. */
export type NumberColumn = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;
/** The constructor of a {@link NumberColumn}. */
export type NumberColumnType = new (length: number) => NumberColumn;
/**
 * A VARCHAR column that `DuckDb.queryColumns` (./pool.ts) reads as the UTF-8 bytes of all its values one after the
 * other: value i is `bytes[ends[i - 1] ?? 0, ends[i])`, NULL reads as an empty string.
 */
export interface TextColumn {
  bytes: Buffer;
  ends: Uint32Array;
}
/** How `DuckDb.queryColumns` reads a column: a typed array's constructor, or `'text'` for a {@link TextColumn}. */
export type ColumnType = NumberColumnType | 'text';

/** A JSON-safe result row (`getRowObjectsJson`: BIGINT as string, DOUBLE as number). */
export type SqlRow = Record<string, string | number | boolean | null>;

export interface ColumnReader {
  /** Appends `count` values of `vector` as rows `first`, `first + 1`, ... */
  read(vector: DuckDBVector, count: number, first: number): void;
  finish(rows: number): NumberColumn | TextColumn;
}

/** An integer column into a typed array that grows by doubling. */
export class NumberReader implements ColumnReader {
  private values: NumberColumn;

  constructor(private readonly Type: NumberColumnType) {
    this.values = new Type(2048);
  }

  read(vector: DuckDBVector, count: number, first: number): void {
    if (first + count > this.values.length) {
      const next = new this.Type(Math.max(first + count, this.values.length * 2));
      next.set(this.values as never);
      this.values = next;
    }
    const out = this.values;
    for (let i = 0; i < count; i += 1) out[first + i] = Number(vector.getItem(i) ?? 0);
  }

  finish(rows: number): NumberColumn {
    return this.values.length === rows ? this.values : this.values.slice(0, rows);
  }
}

/** A VARCHAR column into one Buffer of UTF-8 bytes with end offsets. */
export class TextReader implements ColumnReader {
  private bytes = Buffer.allocUnsafeSlow(1 << 16);
  private used = 0;
  private ends = new Uint32Array(2048);

  read(vector: DuckDBVector, count: number, first: number): void {
    if (first + count > this.ends.length) {
      const next = new Uint32Array(Math.max(first + count, this.ends.length * 2));
      next.set(this.ends);
      this.ends = next;
    }
    for (let i = 0; i < count; i += 1) {
      const value = vector.getItem(i);
      if (value !== null) {
        const text = String(value);
        if (this.used + text.length * 3 > this.bytes.length) {
          const next = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.used + text.length * 3));
          this.bytes.copy(next, 0, 0, this.used);
          this.bytes = next;
        }
        this.used += this.bytes.write(text, this.used, 'utf8');
      }
      this.ends[first + i] = this.used;
    }
  }

  finish(rows: number): TextColumn {
    return { bytes: Buffer.from(this.bytes.subarray(0, this.used)), ends: this.ends.slice(0, rows) };
  }
}

/**
 * Appends row objects from converted columns: the same values as `getRowObjectsJson()`, which converts value by
 * value through a per-row visitor and costs about ten times more.
 */
export function appendRowObjects(rows: SqlRow[], names: readonly string[], columns: readonly SqlRow[string][][]): void {
  const count = columns[0]?.length ?? 0;
  for (let i = 0; i < count; i += 1) {
    const row: SqlRow = {};
    for (let c = 0; c < names.length; c += 1) row[names[c] as string] = (columns[c] as SqlRow[string][])[i] ?? null;
    rows.push(row);
  }
}
