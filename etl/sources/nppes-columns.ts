/**
 * The NPPES columns the ETL reads, by their exact V2 header names: shared by the reader (`nppes.ts`, which re-exports
 * them) and the bounds table (`field-bounds.ts`).
 */

export const TAXONOMY_SLOTS = 15 as const;

/** The NPPES columns the ETL reads (exact V2 header names); all are required. */
export const NPPES_COLUMNS = {
  npi: 'NPI',
  entityType: 'Entity Type Code',
  organisationName: 'Provider Organization Name (Legal Business Name)',
  lastName: 'Provider Last Name (Legal Name)',
  firstName: 'Provider First Name',
  middleName: 'Provider Middle Name',
  suffix: 'Provider Name Suffix Text',
  credential: 'Provider Credential Text',
  city: 'Provider Business Practice Location Address City Name',
  state: 'Provider Business Practice Location Address State Name',
  lastUpdate: 'Last Update Date',
  deactivation: 'NPI Deactivation Date',
  reactivation: 'NPI Reactivation Date',
} as const;

/**
 * Columns read when the file has them, for the NPI lookup records only (NULL when absent): files cut down to the
 * required columns, such as the benchmark's generated ones, still build.
 */
export const NPPES_LOOKUP_COLUMNS = {
  postalCode: 'Provider Business Practice Location Address Postal Code',
  enumerationDate: 'Provider Enumeration Date',
} as const;

export const taxonomyCodeColumn = (slot: number) => `Healthcare Provider Taxonomy Code_${slot}`;
export const licenseNumberColumn = (slot: number) => `Provider License Number_${slot}`;
export const licenseStateColumn = (slot: number) => `Provider License Number State Code_${slot}`;
export const primarySwitchColumn = (slot: number) => `Healthcare Provider Primary Taxonomy Switch_${slot}`;
