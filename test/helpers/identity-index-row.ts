import type { IdentityIndexRow } from '../../platform/identity-index/format';

/** The OIG cells of a row with no OIG match and no possible matches, as the index writers take them. */
export const NO_OIG_CELLS = {
  oig_excluded: false,
  oig_type: null,
  oig_date: null,
  oig_checked_at: null,
  oig_candidate_count: 0,
} as const;

/**
 * One row for an identity serving index's writer: the NPI and code given, every other column empty (a primary,
 * class-representative row, no OIG match, no candidates) unless `over` sets it.
 */
export function indexRow(
  npi: string,
  taxonomyCode: string,
  over: Partial<Omit<IdentityIndexRow, 'npi' | 'taxonomy_code'>> = {},
): IdentityIndexRow {
  return {
    npi,
    name: null,
    taxonomy_code: taxonomyCode,
    taxonomy_display: null,
    city: null,
    state: null,
    checked_at: null,
    is_primary: true,
    class_rep: true,
    ...NO_OIG_CELLS,
    ...over,
  };
}
