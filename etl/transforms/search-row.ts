/**
 * The shape of a search row (platform/search-index) as it crosses from DuckDB to the search index writer: the
 * SELECT that makes the rows (sources/identity-search.ts) and the writer (writers/search-index.ts) both hold to it.
 */

/**
 * The columns of the search rows (`identitySearchSql` of sources/identity-search.ts), in order. `codes` is a list
 * joined by {@link LIST_SEPARATOR} (a string crosses from DuckDB to JS far faster than a list value). The
 * classification and display of each code are NUCC's (the `taxonomy` table, `unmapped` for a code NUCC lacks): the
 * writer looks them up ({@link TaxonomyLookup}) instead of carrying two long strings per row through the state sort
 * and across to JS.
 */
export const IDENTITY_SEARCH_COLUMNS = [
  'state',
  'npi',
  'entity_type',
  'search_name',
  'name',
  'postal_code',
  'city',
  'checked_at',
  'codes',
  'primary_first',
  'oig_excluded',
  'oig_type',
  'oig_date',
  'oig_checked_at',
  'oig_candidate_count',
] as const;

/** The separator of the joined list columns: the ASCII unit separator, which no NPPES or NUCC value holds. */
export const LIST_SEPARATOR = '\x1f';

/** NUCC's classification key and display of each code (the `taxonomy` table), for the search rows' codes. */
export interface TaxonomyLookup {
  /** The classification key of `code`: `unmapped` when NUCC lacks it, as in the identity layer. */
  classOf(code: string): string;
  /** The display of `code`, null when NUCC lacks it or has none. */
  displayOf(code: string): string | null;
}
