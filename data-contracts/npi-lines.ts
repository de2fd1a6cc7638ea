/**
 * The lines of an NPI lookup bucket as the ETL builds them (version 1 of the bucket format stores them as JSON text;
 * version 2 keeps a record head per NPI, data-contracts/npi-record.ts). Where buckets live: layout.ts.
 */

import type { OigCandidate } from './types';

/** One line of an NPI bucket: an active NPI's identity record, or a deactivated NPI. Dates are `YYYY-MM-DD`. */
export type NpiLookupLine = NpiActiveLine | NpiDeactivatedLine;

/** The OIG cells of an NPI line (the identity rows' `oig_*` columns, same LEIE match). */
export interface NpiOigCells {
  oig_excluded: boolean;
  oig_type: string | null;
  oig_date: string | null;
  oig_checked_at: string | null;
}

export interface NpiActiveLine extends NpiOigCells {
  npi: string;
  status: 'active';
  /** NPPES Entity Type Code: 1 individual, 2 organisation. */
  entity_type: 'individual' | 'organization';
  /** The display name, built as the identity layer builds it. */
  name: string;
  organization_name: string | null;
  last_name: string | null;
  first_name: string | null;
  /** Every non-empty taxonomy slot, in slot order. */
  taxonomies: {
    code: string;
    display: string | null;
    primary: boolean;
    license_number: string | null;
    license_state: string | null;
  }[];
  city: string | null;
  state: string | null;
  /** The practice location's 5-digit ZIP code. */
  postal_code: string | null;
  enumeration_date: string | null;
  last_update_date: string | null;
  /** The OIG possible matches, in wire order; absent when none (and from lines written before candidates). */
  oig_candidates?: OigCandidate[];
}

export interface NpiDeactivatedLine extends NpiOigCells {
  npi: string;
  status: 'deactivated';
  deactivation_date: string;
}
