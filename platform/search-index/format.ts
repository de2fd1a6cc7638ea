/**
 * The identity search index: one binary file per state, written by the ETL from the identity layer and read by the
 * API without DuckDB. It answers the identity searches that are not a taxonomy list (`name` prefix, `postal_code`,
 * narrowed by `entity_type`, `taxonomy` and `city`) within one state, with an exact total and a page: a binary
 * search for the range of the name prefix (or the postal code), then one pass over that range's fixed-width entries.
 * The page's rows are read from the index too (names, cities, dates, OIG cells and taxonomy displays are in it), so a
 * page is a few reads of contiguous bytes, not one read per NPI.
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
 *      entries      n x 64 B        see ENTRY
 *      keys         UTF-8           the full search keys, one after the other in entry order
 *      names        UTF-8           the display names (the identity rows' `name`), in entry order
 *      city_keys    string table    sorted lower-cased cities (id = position + 1, 0 = none)
 *      cities       string table    sorted cities as written (the rows' `city`)
 *      dates        string table    sorted `checked_at` dates
 *      codes        string table    sorted taxonomy codes (id = position + 1)
 *      code_classes string table    the classification key of code id i at position i - 1
 *      displays     string table    the NUCC display of code id i at position i - 1 (empty = none)
 *      entry_codes  u16 per code    each entry's code ids, in the order of SearchIndexRow.codes
 *      postal       n' x 64 B       copies of the entries that have a postal code, sorted by (postal code, entry
 *                                   number): a ZIP's entries are contiguous, in name order
 *      postal_names UTF-8           the display names in postal-copy order (a copy's nameStart points here)
 *      name_fence   16 B per fence  the key16 of every FENCE_EVERY-th entry (a search's bounds: one read each)
 *      postal_fence 8 B per fence   the postal code of every FENCE_EVERY-th postal copy (5 ASCII, 3 padding)
 *      oig          k x 24 B        the NPIs in the LEIE or with OIG possible matches: NPI (10 ASCII), u16
 *                                   candidate count (version 7; padding in 6), then oig_type, oig_date,
 *                                   oig_checked_at ids (u32) in oig_strings; sorted by NPI
 *      oig_strings  string table    those values (unsorted; id = position + 1, 0 = NULL)
 * ```
 * A string table is `u32 count`, `u32 end[count]` (cumulative byte ends), then the UTF-8 bytes (as in the
 * identity index, platform/identity-index/format.ts).
 *
 * Version 6 (written before the OIG possible matches) has no candidate count: the reader reads it as 0
 * ({@link READABLE_SEARCH_VERSIONS}), so a server of this code answers from an older snapshot.
 */

import type { EntityType } from '../../data-contracts/constants';
import { assembleIndex } from '../binary/builders';
import type { ByteSource } from '../binary/byte-source';
import { VersionedMagic } from '../binary/versioned-magic';

/**
 * The magic's version byte, 1 in every search index so far: the layout's version is the header's
 * ({@link SEARCH_INDEX_VERSION}), and a reader accepts exactly this magic.
 */
const MAGIC_VERSION = 1;
const MAGIC = new VersionedMagic('PFSRCH\0');
export const SEARCH_INDEX_VERSION = 7 as const;
/** The header versions this code reads: the candidate count is new in 7. */
export const READABLE_SEARCH_VERSIONS = [6, 7] as const;
export type SearchIndexVersion = (typeof READABLE_SEARCH_VERSIONS)[number];
/** Bytes before the first section: the magic, the header's length and its JSON. */
const HEADER_SPACE = 12 + 1024;

/** Entries per fence: a bound is found in memory to a run of 256 entries (16 KB), then in one read of that run. */
export const FENCE_EVERY = 256;
/** Bytes per fence of `name_fence` and `postal_fence`. */
export const FENCE_BYTES = { name: 16, postal: 8 } as const;

/** Bytes per entry and the offsets of its fields. */
export const ENTRY = {
  bytes: 64,
  /** The first 16 bytes of the UTF-8 search key, NUL-padded (binary search compares these first). */
  key16: 0,
  /** 10 ASCII digits. */
  npi: 16,
  /** u8: 1 individual, 2 organization. */
  entity: 26,
  /** u8: the number of the entry's codes in `entry_codes`. */
  codeCount: 27,
  /** 5 ASCII digits, or 5 NUL bytes when the record has no US ZIP code (then 1 byte of padding). */
  postal: 28,
  /** u16: byte length of the full search key. */
  keyLength: 34,
  /** u32: start of the full search key in `keys`. */
  keyStart: 36,
  /** u32: city-key id, 0 = no city. */
  city: 40,
  /** u32: index of the entry's first code in `entry_codes`. */
  firstCode: 44,
  /** u32: start of the display name in `names`. */
  nameStart: 48,
  /** u16: byte length of the display name. */
  nameLength: 52,
  /** u16: `checked_at` date id, 0 = NULL. */
  date: 54,
  /** u32: city id (as written), 0 = NULL. */
  cityAsWritten: 56,
  /** u8: {@link ENTRY_FLAGS}. */
  flags: 60,
  /** u16: the id of the entry's first code (its row's code without a taxonomy filter). */
  firstCodeId: 62,
} as const;

export const ENTRY_FLAGS = {
  /** The entry's first code is its primary taxonomy. */
  primaryFirst: 1,
  /** The NPI is in the LEIE (an `oig` entry holds its cells). */
  oig: 2,
  /** The NPI has OIG possible matches (its `oig` entry holds their count; version 7). */
  candidates: 4,
} as const;

/** Bytes per `oig` entry: NPI (10 ASCII), u16 candidate count (10), type, date, checked_at string ids (u32, 12). */
export const OIG_ENTRY_BYTES = 24;
/** Where an `oig` entry's candidate count is. */
export const OIG_CANDIDATES_AT = 10;
/** The largest candidate count an entry holds (a larger count is stored as this). */
export const MAX_CANDIDATE_COUNT = 0xffff;

export const ENTITY_CODE = { individual: 1, organization: 2 } as const satisfies Record<EntityType, number>;

export const SECTIONS = [
  'entries',
  'keys',
  'names',
  'city_keys',
  'cities',
  'dates',
  'codes',
  'code_classes',
  'displays',
  'entry_codes',
  'postal',
  'postal_names',
  'name_fence',
  'postal_fence',
  'oig',
  'oig_strings',
] as const;
export type SectionName = (typeof SECTIONS)[number];

export interface SearchIndexHeader {
  version: SearchIndexVersion;
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
  /** The identity rows' display name. */
  name: string;
  postal_code: string | null;
  city: string | null;
  checked_at: string | null;
  /** The NPI's taxonomy codes, in the order a reader tries them (the first accepted one is the row's). */
  codes: readonly string[];
  /** The classification key of each code (parallel to `codes`). */
  classes: readonly string[];
  /** The NUCC display of each code (parallel to `codes`). */
  displays: readonly (string | null)[];
  /** Whether `codes[0]` is the NPI's primary taxonomy. */
  primary_first: boolean;
  oig_excluded: boolean;
  oig_type: string | null;
  oig_date: string | null;
  oig_checked_at: string | null;
  /** The NPI's OIG possible matches (0 when none). */
  oig_candidate_count: number;
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

/** The bytes of a search index file: the magic, the header, then `sections` in {@link SECTIONS} order. */
export function assembleSearchIndex(
  state: string,
  entries: number,
  sections: Record<SectionName, Buffer>,
  version: SearchIndexVersion = SEARCH_INDEX_VERSION,
): Buffer {
  return assembleIndex(
    'search index',
    MAGIC.of(MAGIC_VERSION),
    HEADER_SPACE,
    SECTIONS,
    sections,
    (table): SearchIndexHeader => ({ version, state, entries, sections: table }),
  );
}

/** Reads and checks a search index's header. Throws on a file that is not a search index of this version. */
export function readSearchIndexHeader(source: ByteSource): SearchIndexHeader {
  if (source.size < 12 || MAGIC.versionOf(source.slice(0, 8)) !== MAGIC_VERSION) throw new Error('not a search index');
  const header = JSON.parse(source.slice(12, source.u32(8)).toString('utf8')) as SearchIndexHeader;
  if (!(READABLE_SEARCH_VERSIONS as readonly number[]).includes(header.version)) {
    throw new Error(`search index version ${header.version}, this code reads ${READABLE_SEARCH_VERSIONS.join(', ')}`);
  }
  for (const name of SECTIONS) {
    const [offset, bytes] = header.sections?.[name] ?? [-1, -1];
    if (!(offset >= 0 && bytes >= 0 && offset + bytes <= source.size)) {
      throw new Error(`search index: section ${name} is out of bounds`);
    }
  }
  if (header.sections.entries[1] !== header.entries * ENTRY.bytes) throw new Error('search index: bad entry count');
  return header;
}
