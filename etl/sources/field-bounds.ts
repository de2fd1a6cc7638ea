/**
 * The length bound of every column the ETL reads, one table per source (characters; a longer value rejects its row:
 * `transforms/field-bounds.ts`); NPPES's stands with its column names in `nppes-columns.ts`. Columns the ETL never
 * reads are not bounded: their values reach no writer. The widths and where they come from are listed in
 * etl/README.md.
 *
 * - NPPES: the "Max Length" of each column in the NPPES Data Dissemination Readme, V2 layout (Exhibit 2-1, Data
 *   File Layout; `NPPES_Data_Dissemination_Readme_v.2.pdf` in every V2 bundle, https://download.cms.gov/nppes/NPI_Files.html).
 *   V2 widened the first names to 35 and the legal business names to 100 (V1: 20 and 70).
 * - LEIE: the OIG's record layout of the downloadable database (`leie_record_layout.pdf`, linked from
 *   https://oig.hhs.gov/exclusions/exclusions_list.asp: "how many characters are in each field").
 * - NUCC: a code is ten characters (the NUCC code set; NPPES's taxonomy code width too). NUCC publishes no width for
 *   its names: they are held to 200, what the API's `taxonomy` parameter accepts as a classification name
 *   (data-contracts/openapi.ts), so that every classification the ETL publishes can be asked for.
 * - FDA: no published widths. A letter's company is compared with feed legal names, held to the feed's text bound;
 *   its issuing office becomes a vertical record's `fda_source` (`FDA warning letter (<office>)`) and its address
 *   its `fda_source_url`, so both are held to what the feed contract allows a curated source and its URL.
 * - The curation feed: its contract's own bounds (data-contracts/feed.ts), read off the JSON Schemas.
 */
import {
  FEED_MAX_LENGTH,
  FEED_OBSERVATION_COLUMNS,
  FEED_OBSERVATION_SCHEMA,
  FEED_PROVIDER_COLUMNS,
  FEED_PROVIDER_SCHEMA,
  type FeedCellType,
} from '../../data-contracts/feed';
import { PARAMETER_RULES } from '../../data-contracts/parameter-rules';
import type { FieldBounds } from '../transforms/field-bounds';

/** OIG LEIE record layout: the columns `sources/leie.ts` reads. */
export const LEIE_FIELD_BOUNDS: FieldBounds = {
  LASTNAME: 20,
  FIRSTNAME: 15,
  MIDNAME: 15,
  BUSNAME: 30,
  GENERAL: 20,
  SPECIALTY: 20,
  NPI: 10,
  DOB: 8,
  CITY: 20,
  STATE: 2,
  ZIP: 5,
  EXCLTYPE: 9,
  EXCLDATE: 8,
  REINDATE: 8,
};

/** What the API's `taxonomy` parameter accepts as a classification name (data-contracts/parameter-rules.ts). */
export const NUCC_NAME_MAX = PARAMETER_RULES.taxonomy.maxLength;

/** NUCC taxonomy CSV: the columns `sources/nucc.ts` reads. */
export const NUCC_FIELD_BOUNDS: FieldBounds = {
  Code: 10,
  Grouping: NUCC_NAME_MAX,
  Classification: NUCC_NAME_MAX,
  Specialization: NUCC_NAME_MAX,
  'Display Name': NUCC_NAME_MAX,
  Section: NUCC_NAME_MAX,
};

/** `FDA warning letter (` and `)` around an issuing office in a vertical record's `fda_source` (sources/fda.ts). */
const FDA_SOURCE_WRAPPING = 'FDA warning letter ()'.length;
/** `https://www.fda.gov/` before a relative letter address. */
const FDA_SITE_PREFIX = 'https://www.fda.gov/'.length;

/** FDA warning letters, both published forms (the export's and the scraped listing's column names). */
export const FDA_FIELD_BOUNDS: FieldBounds = {
  'Company Name': FEED_MAX_LENGTH.text,
  company: FEED_MAX_LENGTH.text,
  'Letter Issue Date': 10,
  letter_date: 10,
  'Issuing Office': FEED_MAX_LENGTH.text - FDA_SOURCE_WRAPPING,
  issuing_office: FEED_MAX_LENGTH.text - FDA_SOURCE_WRAPPING,
  url: FEED_MAX_LENGTH.url - FDA_SITE_PREFIX,
};

/** A JSON Schema property as far as its length is concerned (the feed schemas are declared `as const`). */
type SchemaProperty = { readonly maxLength?: number; readonly enum?: readonly string[]; readonly anyOf?: unknown };

/**
 * A feed file's bounds, read off its JSON Schema: a text column's `maxLength` (of the property, or of its string
 * branch), an enum's longest member, a numeric column's `numberText`. Throws on a text column the schema leaves
 * unbounded, so that the contract cannot gain one unnoticed.
 */
export function feedFieldBounds(
  schema: { properties: Readonly<Record<string, unknown>> },
  columns: Readonly<Record<string, FeedCellType>>,
): FieldBounds {
  return Object.fromEntries(
    Object.entries(columns).map(([column, type]) => {
      if (type !== 'string') return [column, FEED_MAX_LENGTH.numberText];
      const property = schema.properties[column] as SchemaProperty | undefined;
      const anyOf = Array.isArray(property?.anyOf) ? (property.anyOf as SchemaProperty[]) : [];
      const branches = property === undefined ? [] : [property, ...anyOf];
      const enumMax = branches.flatMap((b) => b.enum ?? []).reduce((max, v) => Math.max(max, v.length), 0);
      const bound = branches.find((b) => b.maxLength !== undefined)?.maxLength ?? (enumMax > 0 ? enumMax : null);
      if (bound === null) throw new Error(`feed column ${column} has no length bound in its schema`);
      return [column, bound];
    }),
  );
}

export const FEED_PROVIDER_FIELD_BOUNDS = feedFieldBounds(FEED_PROVIDER_SCHEMA, FEED_PROVIDER_COLUMNS);
export const FEED_OBSERVATION_FIELD_BOUNDS = feedFieldBounds(FEED_OBSERVATION_SCHEMA, FEED_OBSERVATION_COLUMNS);
