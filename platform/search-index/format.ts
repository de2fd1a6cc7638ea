/**
 * The identity search index: one binary file per state, written by the ETL from the identity layer and read by the
 * API without DuckDB. It answers the identity searches that are not a taxonomy list (`name` prefix, `postal_code`,
 * narrowed by `entity_type`, `taxonomy` and `city`) within one state, with an exact total and a page: a binary
 * search for the range of the name prefix (or the postal code), then one pass over that range's fixed-width entries.
 * The page's rows are then read from the NPI lookup records (one per NPI).
 *
 * One entry per active NPI of the state (an NPI of the identity layer with a practice state), sorted by
 * (search key, NPI). The search key is {@link searchKey} of the organisation name (organisations) or the last name
 * (individuals).
 *
 * Layout (little-endian; sections 8-byte aligned; offsets from the start of the file):
 * ```
 * 0    "PFSRCH\0\1"                magic (8 bytes)
 * 8    u32 H                        header length
 * 12   header JSON (H bytes)        { version, state, entries, sections: { name: [offset, length] } }
 *      entries      n x 48 B        see ENTRY
 *      keys         UTF-8           the full search keys, one after the other in entry order
 *      city_keys    string table    sorted lower-cased cities (id = position + 1, 0 = none)
 *      codes        string table    sorted taxonomy codes (id = position + 1)
 *      code_classes string table    the classification key of code id i at position i - 1
 *      entry_codes  u16 per code    each entry's code ids: its primary code first, then the others in slot order
 *      postal       u32 per entry   entry numbers sorted by (postal code, entry number)
 * ```
 * A string table is `u32 count`, `u32 end[count]` (cumulative byte ends), then the UTF-8 bytes (as in the
 * identity index, platform/identity-index/format.ts).
 */

import type { EntityType } from '../../data-contracts/constants';

export const SEARCH_INDEX_MAGIC = Buffer.from('PFSRCH\0\x01', 'latin1');
export const SEARCH_INDEX_VERSION = 1 as const;

/** Bytes per entry and the offsets of its fields. */
export const ENTRY = {
  bytes: 48,
  /** The first 16 bytes of the UTF-8 search key, NUL-padded (binary search compares these first). */
  key16: 0,
  /** 10 ASCII digits. */
  npi: 16,
  /** u8: 1 individual, 2 organization. */
  entity: 26,
  /** u8: the number of the entry's codes in `entry_codes`. */
  codeCount: 27,
  /** 5 ASCII digits, or 5 NUL bytes when the record has no US ZIP code. */
  postal: 28,
  /** u16: byte length of the full search key. */
  keyLength: 34,
  /** u32: start of the full search key in `keys`. */
  keyStart: 36,
  /** u32: city-key id, 0 = no city. */
  city: 40,
  /** u32: index of the entry's first code in `entry_codes`. */
  firstCode: 44,
} as const;

export const ENTITY_CODE = { individual: 1, organization: 2 } as const satisfies Record<EntityType, number>;

export const SECTIONS = ['entries', 'keys', 'city_keys', 'codes', 'code_classes', 'entry_codes', 'postal'] as const;
export type SectionName = (typeof SECTIONS)[number];

export interface SearchIndexHeader {
  version: typeof SEARCH_INDEX_VERSION;
  state: string;
  entries: number;
  sections: Record<SectionName, [offset: number, length: number]>;
}

/** One NPI as the writer takes it. */
export interface SearchIndexRow {
  npi: string;
  entity_type: EntityType;
  /** The organisation name of an organisation, the last name of an individual. */
  search_name: string;
  postal_code: string | null;
  city: string | null;
  /** The NPI's taxonomy codes: the primary first, then the others in slot order. */
  codes: readonly string[];
  /** The classification key of each code (parallel to `codes`). */
  classes: readonly string[];
}

/**
 * The key a name is matched by: trimmed, inner spaces collapsed, lower-cased. The writer indexes it and the reader
 * looks the request's prefix up with the same function.
 * @example searchKey('  Smith  Jones ') === 'smith jones'
 */
export function searchKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The key a city is matched by (case-insensitive, as the identity index's city filter). */
export function searchCityKey(city: string): string {
  return city.toLowerCase();
}
