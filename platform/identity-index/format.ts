/**
 * The identity serving index: one binary file per identity partition (one NUCC classification), written by the
 * ETL next to the partition's Parquet and read by the API without DuckDB. It answers every identity query shape
 * (a taxonomy code or a classification name, optionally a state and a city, any `limit` and `offset`) with an exact
 * total and a page in O(limit): no scan, no sort, no count at request time.
 *
 * Layout (little-endian; sections 8-byte aligned; offsets are from the start of the file). The small sections come
 * first, so that one read of the file's head (up to the `postings` section) gives a reader everything it looks up
 * (the "meta" region); the bulk sections follow:
 * ```
 * 0    "PFIDX\0\0\4"                magic (8 bytes; the last byte is the version)
 * 8    u32 H                        header length
 * 12   header JSON (H bytes)        { version, classification_key, rows, rep_rows, sections: { name: [offset, length] } }
 *      code_ranges  (codes+1) x 8 B per code id: first record, record count (a code's records are contiguous)
 *      directory    n x 20 B        (t, s, c, first posting, count), sorted by (t, s, c): see below
 *      codes, states, cities, city_keys, dates      sorted string tables (id = position + 1, 0 = NULL)
 *      displays     string table    the taxonomy display of code id i at position i (empty = NULL)
 *      city_key_of  u32 per city    the city-key id of each city id (position id - 1)
 *      oig          k x 20 B        the records whose oig_* cells are not "no match" or that have OIG possible
 *                                   matches, sorted by record number: see {@link OIG_ENTRY}
 *      oig_strings  string table    the oig_type / oig_date / oig_checked_at values (unsorted)
 *      postings     u32 record numbers: every list in NPI order, but the city lists (below)
 *      records      rows x 32 B     one record per (NPI, code) row, in (taxonomy_code, npi) order: see RECORD
 *      names        UTF-8           the names, one after the other in record order
 *      city_records m x 32 B        a copy of the records of every code's city list, in (state, city, code, npi) order
 *      city_names   UTF-8           their names, in city_records order (their `nameStart` is into this section)
 *      city_origin  m x u32         the record number in `records` of each city record (its `oig` entry's key)
 *      geo_dir      g x 12 B        the radius lists' directory: (ZIP rank, first geo record, count), sorted by
 *                                   (t, rank): see "Radius lists" below
 *      geo_records  p x 32 B        a copy of the records of every list placed at a ZIP centroid, in (t, rank, npi)
 *                                   order
 *      geo_names    UTF-8           their names, in geo_records order
 *      geo_origin   p x u32         the record number in `records` of each geo record
 * ```
 * and, in the meta region (before `postings`), `geo_ranges` ((codes + 1) x 8 B per t: first geo_dir entry, entry
 * count) and `geo_fence` (u32: the rank of every {@link GEO_FENCE_EVERY}-th geo_dir entry).
 * A string table is `u32 count`, `u32 end[count]` (cumulative byte ends), then the UTF-8 bytes. Sorted tables are
 * in byte order, so a request value is found by binary search.
 *
 * Directory keys: `t` is a code id, or {@link REP_CODE} for the `class_rep` rows (a classification-name query);
 * `s` a state id or {@link ANY}; `c` a city-key id (the lower-cased city, {@link cityKey}) or {@link ANY}. Lists
 * exist for (t, s, ANY), (t, s, c), (t, ANY, c) and, for REP_CODE, also (REP_CODE, ANY, ANY); a code alone is its
 * contiguous record range (`code_ranges`), already in NPI order. A key with no rows has no entry.
 *
 * The city lists, (t, s, c) with a state and a city, are clustered. A code's city list is a run of `city_records`
 * (its entry's `first` is into that section): a page of a taxonomy + state + city query is one short read of
 * records and one of names. Through a posting list, the same page's records lay scattered over the whole code's
 * range (up to 50 block reads a page). A classification's city list (t = REP_CODE) stays a posting list, but of
 * places in `city_records`: its rows are its codes' rows of that state and city, which the (state, city, code)
 * order keeps in one block, so its page is one read too. The copy costs about 55 bytes per row on disk (record,
 * name, origin) and nothing in the meta region. The other lists stay posting lists of `records`: a code alone is
 * already contiguous, and a state's rows lie close enough together for one read in the common case.
 *
 * Radius lists (version 5): the rows placed at their practice ZIP's centroid (platform/geo/zip-table.ts), per t (a
 * code, or {@link REP_CODE} for the class_rep rows), clustered in `geo_records` by ZIP rank (the ZIP table's walk of
 * 0.5-degree cells), then NPI. A radius query finds each cell of its circle in t's `geo_dir` entries (the fence, in
 * memory, narrows it to one run of 256 entries), reads those runs in one round, and then the page's records: the
 * cells that intersect the circle, never the partition or a state. A row without a placed ZIP is in no radius list.
 *
 * Version 2 (written before the clustered copy) has no `city_*` sections and keeps the city lists in `postings`;
 * versions 2 and 3 (written before the OIG possible matches) keep no candidate count in their `oig` entries (the
 * bytes are padding, read as 0). The reader reads them all ({@link READABLE_VERSIONS}), so a server of this code
 * answers from an older snapshot.
 */

import { VersionedMagic } from '../binary/versioned-magic';

/** The version this code writes. */
export const IDENTITY_INDEX_VERSION = 5 as const;
/**
 * The versions this code reads: the clustered city lists are new in 3, the `oig` entries' candidate count in 4, the
 * radius lists and the entity type flag in 5.
 */
export const READABLE_VERSIONS = [2, 3, 4, 5] as const;
/** The first version with radius lists. */
export const GEO_VERSION = 5;
/** geo_dir entries per fence. */
export const GEO_FENCE_EVERY = 256;
/** Bytes per geo_dir entry: ZIP rank, first geo record, count (u32 each). */
export const GEO_DIR_BYTES = 12;
/** The first version whose `oig` entries hold a candidate count. */
export const CANDIDATE_COUNT_VERSION = 4;
export type IdentityIndexVersion = (typeof READABLE_VERSIONS)[number];

const MAGIC = new VersionedMagic('PFIDX\0\0');

/** The magic of version `version`: "PFIDX\0\0" and the version byte. */
export function identityIndexMagic(version: IdentityIndexVersion): Buffer {
  return MAGIC.of(version);
}

/** The version byte of a file's first 8 bytes, or null when they are not an identity index's magic. */
export function magicVersion(head: Buffer): number | null {
  return MAGIC.versionOf(head);
}

/** Directory `t` of the class_rep lists (classification-name queries); code ids start at 1. */
export const REP_CODE = 0;
/** Directory `s` or `c` meaning "any state" / "any city"; also the id of NULL in every string table. */
export const ANY = 0;

/** Bytes per record and the offsets of its fields. */
export const RECORD = {
  bytes: 32,
  /** 10 ASCII digits. */
  npi: 0,
  /**
   * bits 0-1 is_primary, bits 2-3 class_rep (0 false, 1 true, 2 NULL); bit 4: the record has an `oig` entry; bits
   * 5-6 (version 5): the entity type ({@link ENTITY_FLAGS}).
   */
  flags: 10,
  /** u32: start of the name in `names`. */
  nameStart: 12,
  /** u32: byte length of the name; 0 = NULL. */
  nameLength: 16,
  /** u32 code id. */
  code: 20,
  /** u32 city id. */
  city: 24,
  /** u16 state id. */
  state: 28,
  /** u16 checked_at id. */
  date: 30,
} as const;

export const FLAG_OIG = 0x10;
/** The entity type in bits 5-6 of a record's flags (version 5; 0 in older files: unknown). */
export const ENTITY_SHIFT = 5;
export const ENTITY_FLAGS = { individual: 1, organization: 2 } as const;

/** Bytes per directory entry: t, s, c, first posting, count (u32 each). */
export const DIRECTORY_ENTRY_BYTES = 20;
/**
 * An `oig` entry: record u32 (0), excluded u8 (4: 0 false, 1 true, 2 NULL), 1 padding, u16 candidate count (6: the
 * NPI's OIG possible matches, at most 65,535; padding before version 4), type (8), date (12), checked_at (16) string
 * ids, u32 each.
 */
export const OIG_ENTRY = {
  bytes: 20,
  record: 0,
  excluded: 4,
  candidates: 6,
  type: 8,
  date: 12,
  checkedAt: 16,
} as const;
export const OIG_ENTRY_BYTES = OIG_ENTRY.bytes;
/** The largest candidate count an entry holds (a larger count is stored as this). */
export const MAX_CANDIDATE_COUNT = 0xffff;

/** The sections in file order: the meta region (everything a lookup reads) first, then the bulk, from {@link FIRST_BULK_SECTION}. */
export const SECTIONS = [
  'code_ranges',
  'directory',
  'codes',
  'displays',
  'states',
  'cities',
  'city_keys',
  'city_key_of',
  'dates',
  'oig',
  'oig_strings',
  'geo_ranges',
  'geo_fence',
  'postings',
  'records',
  'names',
  'city_records',
  'city_names',
  'city_origin',
  'geo_dir',
  'geo_records',
  'geo_names',
  'geo_origin',
] as const;
/** The first of the sections a page reads a slice of: it ends the meta region (those after it are the bulk). */
export const FIRST_BULK_SECTION = 'postings' satisfies SectionName;
export type SectionName = (typeof SECTIONS)[number];
/** The sections new in version 3 (absent from a version 2 file). */
export const CITY_SECTIONS = ['city_records', 'city_names', 'city_origin'] as const;
/** The sections new in version 5 (absent from older files). */
export const GEO_SECTIONS = ['geo_ranges', 'geo_fence', 'geo_dir', 'geo_records', 'geo_names', 'geo_origin'] as const;

export interface IdentityIndexHeader {
  version: IdentityIndexVersion;
  classification_key: string;
  rows: number;
  rep_rows: number;
  sections: Record<SectionName, [offset: number, length: number]>;
}

/** One row of an identity partition as the index stores it (the IDENTITY_TABLE columns but classification_key). */
export interface IdentityIndexRow {
  npi: string;
  name: string | null;
  taxonomy_code: string;
  taxonomy_display: string | null;
  city: string | null;
  state: string | null;
  checked_at: string | null;
  is_primary: boolean | null;
  class_rep: boolean | null;
  oig_excluded: boolean | null;
  oig_type: string | null;
  oig_date: string | null;
  oig_checked_at: string | null;
  /** The NPI's OIG possible matches (0 when none). */
  oig_candidate_count: number;
  /** `individual` or `organization` (null: unknown). Version 5 keeps it in the flags. */
  entity_type?: string | null;
  /** The rank of the row's practice ZIP in the snapshot's ZIP table, or null when it is not placed (version 5). */
  zip_rank?: number | null;
}

/**
 * The key a city is matched by (the contract's city filter is case-insensitive): the writer indexes it and the
 * reader looks the request value up with the same function.
 * @example cityKey('San Antonio') === cityKey('SAN ANTONIO')
 */
export function cityKey(city: string): string {
  return city.toLowerCase();
}

/** 0 false, 1 true, 2 NULL. */
export function encodeFlag(value: boolean | null): number {
  return value === null ? 2 : value ? 1 : 0;
}

export function decodeFlag(bits: number): boolean | null {
  return bits === 2 ? null : bits === 1;
}
