/**
 * The NPPES columns the ETL reads, by their exact V2 header names, and the width of each (its length bound): the one
 * table the reader (`nppes.ts`) and the length check (`transforms/field-bounds.ts`) both take.
 */
import type { FieldBounds } from '../transforms/field-bounds';

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

/**
 * Columns read when the file has them, for the OIG possible matches only (NULL when absent): the organisation's
 * other name and the mailing address, compared with an LEIE row's business name and place.
 */
export const NPPES_MATCH_COLUMNS = {
  otherOrganisationName: 'Provider Other Organization Name',
  mailingCity: 'Provider Business Mailing Address City Name',
  mailingState: 'Provider Business Mailing Address State Name',
  mailingPostalCode: 'Provider Business Mailing Address Postal Code',
} as const;

export const taxonomyCodeColumn = (slot: number) => `Healthcare Provider Taxonomy Code_${slot}`;
export const licenseNumberColumn = (slot: number) => `Provider License Number_${slot}`;
export const licenseStateColumn = (slot: number) => `Provider License Number State Code_${slot}`;
export const primarySwitchColumn = (slot: number) => `Healthcare Provider Primary Taxonomy Switch_${slot}`;

/** The taxonomy slots, 1 to {@link TAXONOMY_SLOTS}. */
export const NPPES_SLOTS: readonly number[] = Array.from({ length: TAXONOMY_SLOTS }, (_, i) => i + 1);

/** Every column a file must have. */
export const NPPES_REQUIRED_COLUMNS: readonly string[] = [
  ...Object.values(NPPES_COLUMNS),
  ...NPPES_SLOTS.flatMap((s) => [taxonomyCodeColumn(s), primarySwitchColumn(s)]),
];

/** `column(n)` for every taxonomy slot n = 1..15, with the same bound. */
const slots = (column: (slot: number) => string, bound: number): Record<string, number> =>
  Object.fromEntries(NPPES_SLOTS.map((s) => [column(s), bound]));

const C = NPPES_COLUMNS;
const L = NPPES_LOOKUP_COLUMNS;
const M = NPPES_MATCH_COLUMNS;
/**
 * The widths of the columns above, from the "Max Length" of NPPES V2's readme (Exhibit 2-1; sources/field-bounds.ts
 * says where the readme is).
 */
export const NPPES_FIELD_BOUNDS: FieldBounds = {
  [C.npi]: 10,
  [C.entityType]: 1,
  [C.organisationName]: 100,
  [C.lastName]: 35,
  [C.firstName]: 35,
  [C.middleName]: 20,
  [C.suffix]: 5,
  [C.credential]: 20,
  [C.city]: 40,
  [C.state]: 40,
  [L.postalCode]: 20,
  [L.enumerationDate]: 10,
  [M.otherOrganisationName]: 100,
  [M.mailingCity]: 40,
  [M.mailingState]: 40,
  [M.mailingPostalCode]: 20,
  [C.lastUpdate]: 10,
  [C.deactivation]: 10,
  [C.reactivation]: 10,
  ...slots(taxonomyCodeColumn, 10),
  ...slots(licenseNumberColumn, 20),
  ...slots(licenseStateColumn, 2),
  ...slots(primarySwitchColumn, 1),
};
