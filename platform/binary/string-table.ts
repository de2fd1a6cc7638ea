/**
 * Reading a string table section (written by `stringTable` in ./builders.ts): `u32 count`, `u32 end[count]`
 * (cumulative byte ends), then the UTF-8 bytes; ids are 1-based (0 = NULL / absent). Shared by the identity index
 * and the search index readers.
 */
import { findSorted } from './binary-search';
import type { ByteSource } from './byte-source';

/** The number of values of the table at `offset`. */
export function tableCount(source: ByteSource, offset: number): number {
  return source.u32(offset);
}

/** The byte range of value `id` (1-based) of the table at `offset`. */
export function tableRange(source: ByteSource, offset: number, id: number): [offset: number, length: number] {
  const count = source.u32(offset);
  const start = id === 1 ? 0 : source.u32(offset + 4 + 4 * (id - 2));
  const end = source.u32(offset + 4 + 4 * (id - 1));
  return [offset + 4 + 4 * count + start, end - start];
}

/** Value `id` (1-based) of the table at `offset`. */
export function tableValue(source: ByteSource, offset: number, id: number): string {
  const [at, length] = tableRange(source, offset, id);
  return source.slice(at, length).toString('utf8');
}

/** Every value of the table at `offset` (small tables, read once). */
export function tableValues(source: ByteSource, offset: number): string[] {
  return Array.from({ length: tableCount(source, offset) }, (_, i) => tableValue(source, offset, i + 1));
}

/** The id of `value` in the sorted (byte order) table at `offset`, 0 when absent; `count` when the caller holds it. */
export function tableFind(
  source: ByteSource,
  offset: number,
  value: string,
  count: number = tableCount(source, offset),
): number {
  const needle = Buffer.from(value, 'utf8');
  const id = findSorted(1, count + 1, (probe) => {
    const [at, length] = tableRange(source, offset, probe);
    return source.compareAt(at, length, needle);
  });
  return Math.max(id, 0);
}
