/**
 * One copy of each repeated string for the whole process. Index readers decode the same short values (dates, cities,
 * taxonomy codes and names) once per partition: the identity readers held a copy of a date per row for a few thousand
 * distinct dates, and every state's search index the same taxonomy tables. V8 grows its heap to twice the live size
 * between full collections (lambdas/handlers/v8-heap.ts), so each MB kept live costs about two of resident memory.
 */

/** Distinct strings held at most by the process's table (a date table of 65,535 entries, an index's most, fits). */
export const MAX_INTERNED = 65_536;

/** A bounded table of shared strings: past its size it starts again (strings already shared stay shared). */
export class StringIntern {
  private readonly table = new Map<string, string>();

  constructor(private readonly max = MAX_INTERNED) {}

  /** Distinct strings held. */
  get size(): number {
    return this.table.size;
  }

  /** The table's copy of `value`: the first string equal to it that was interned, else `value` itself. */
  intern(value: string): string {
    const known = this.table.get(value);
    if (known !== undefined) return known;
    if (this.table.size >= this.max) this.table.clear();
    this.table.set(value, value);
    return value;
  }
}

const PROCESS_TABLE = new StringIntern();

/**
 * The process's copy of `value` (one table for every index reader of the process).
 * @example intern(bytes.toString('utf8')) // one string kept, however many partitions decode '2024-03-05'
 */
export function intern(value: string): string {
  return PROCESS_TABLE.intern(value);
}
