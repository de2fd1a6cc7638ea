/**
 * The sources' length bounds (etl/sources/field-bounds.ts, NPPES's in etl/sources/nppes-columns.ts): every column the ETL reads has one, each is the source's
 * documented width (or the contract's bound), and no row of the real sample files is over any of them.
 */
import path from 'node:path';
import { FEED_OBSERVATION_SCHEMA, FEED_PROVIDER_COLUMNS, FEED_PROVIDER_SCHEMA } from '../../../../data-contracts/feed';
import { openApiDocument } from '../../../../data-contracts/openapi';
import { readSmallCsv } from '../../../../etl/csv/read';
import { FDA_FORMS } from '../../../../etl/sources/fda';
import { FEED_FILES } from '../../../../etl/sources/feed';
import {
  FDA_FIELD_BOUNDS,
  FEED_OBSERVATION_FIELD_BOUNDS,
  FEED_PROVIDER_FIELD_BOUNDS,
  feedFieldBounds,
  LEIE_FIELD_BOUNDS,
  NUCC_FIELD_BOUNDS,
  NUCC_NAME_MAX,
} from '../../../../etl/sources/field-bounds';
import { LEIE_COLUMNS } from '../../../../etl/sources/leie';
import {
  licenseNumberColumn,
  licenseStateColumn,
  NPPES_FIELD_BOUNDS,
  NPPES_LOOKUP_COLUMNS,
  NPPES_MATCH_COLUMNS,
  NPPES_REQUIRED_COLUMNS,
  TAXONOMY_SLOTS,
} from '../../../../etl/sources/nppes-columns';
import { NUCC_COLUMNS } from '../../../../etl/sources/nucc';
import { type FieldBounds, overlongField } from '../../../../etl/transforms/field-bounds';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const fixture = (...parts: string[]) => path.join(REPO_ROOT, 'test', 'fixtures', ...parts);
const sourceData = (name: string) => fixture('source-data', name);
const sorted = (names: Iterable<string>) => [...names].sort();

/** Every record of `file` that some bound rejects, as `line: reason`. */
async function overlongRows(file: string, bounds: FieldBounds): Promise<string[]> {
  const { header, records, unreadable } = await readSmallCsv(file);
  expect(unreadable).toEqual([]);
  expect(records.length).toBeGreaterThan(0);
  return records.flatMap((r) => {
    const reason = overlongField(header, r.fields, bounds);
    return reason === null ? [] : [`${r.line}: ${reason}`];
  });
}

describe('the sources’ field bounds', () => {
  it('bound exactly the NPPES columns the ETL reads, at the V2 readme’s widths', () => {
    const slots = Array.from({ length: TAXONOMY_SLOTS }, (_, i) => i + 1);
    const read = [
      ...NPPES_REQUIRED_COLUMNS,
      ...Object.values(NPPES_LOOKUP_COLUMNS),
      ...Object.values(NPPES_MATCH_COLUMNS),
      ...slots.flatMap((s) => [licenseNumberColumn(s), licenseStateColumn(s)]),
    ];
    expect(sorted(Object.keys(NPPES_FIELD_BOUNDS))).toEqual(sorted(new Set(read)));
    // NPPES Data Dissemination Readme (V2), Exhibit 2-1; V1 had 20 for first names and 70 for business names.
    expect(NPPES_FIELD_BOUNDS).toMatchObject({
      NPI: 10,
      'Entity Type Code': 1,
      'Provider Organization Name (Legal Business Name)': 100,
      'Provider Last Name (Legal Name)': 35,
      'Provider First Name': 35,
      'Provider Middle Name': 20,
      'Provider Name Suffix Text': 5,
      'Provider Credential Text': 20,
      'Provider Business Practice Location Address City Name': 40,
      'Provider Business Practice Location Address State Name': 40,
      'Provider Business Practice Location Address Postal Code': 20,
      'Provider Other Organization Name': 100,
      'Provider Business Mailing Address City Name': 40,
      'Provider Business Mailing Address State Name': 40,
      'Provider Business Mailing Address Postal Code': 20,
      'Last Update Date': 10,
      'Healthcare Provider Taxonomy Code_15': 10,
      'Provider License Number_15': 20,
      'Provider License Number State Code_15': 2,
      'Healthcare Provider Primary Taxonomy Switch_15': 1,
    });
  });

  it('bound exactly the LEIE, NUCC and FDA columns the ETL reads', () => {
    expect(sorted(Object.keys(LEIE_FIELD_BOUNDS))).toEqual(sorted(Object.values(LEIE_COLUMNS)));
    // The OIG record layout's widths (DOB is read for the reinstatement key only).
    expect(LEIE_FIELD_BOUNDS).toEqual({
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
    });
    expect(sorted(Object.keys(NUCC_FIELD_BOUNDS))).toEqual(sorted(Object.values(NUCC_COLUMNS)));
    const fda = Object.values(FDA_FORMS).flatMap((form) => Object.values(form).filter((c) => c !== null));
    expect(sorted(Object.keys(FDA_FIELD_BOUNDS))).toEqual(sorted(fda));
  });

  it('hold a NUCC name to what the API’s taxonomy parameter accepts', () => {
    const paths = openApiDocument.paths as unknown as Record<string, { get: { parameters: { name?: string }[] } }>;
    const parameters = paths['/providers']?.get.parameters ?? [];
    const taxonomy = parameters.find((p) => p.name === 'taxonomy') as { schema: { maxLength: number } } | undefined;
    expect(taxonomy?.schema.maxLength).toBe(NUCC_NAME_MAX);
    expect(NUCC_FIELD_BOUNDS.Classification).toBe(NUCC_NAME_MAX);
  });

  it('read the feed’s bounds off its contract, and refuse a contract column left unbounded', () => {
    expect(sorted(Object.keys(FEED_PROVIDER_FIELD_BOUNDS))).toEqual(sorted(Object.keys(FEED_PROVIDER_COLUMNS)));
    expect(FEED_PROVIDER_FIELD_BOUNDS.name).toBe(FEED_PROVIDER_SCHEMA.properties.name.maxLength);
    expect(FEED_PROVIDER_FIELD_BOUNDS.slug).toBe(FEED_PROVIDER_SCHEMA.properties.slug.maxLength);
    expect(FEED_PROVIDER_FIELD_BOUNDS.vertical).toBe(
      Math.max(...FEED_PROVIDER_SCHEMA.properties.vertical.enum.map((v) => v.length)),
    );
    expect(FEED_OBSERVATION_FIELD_BOUNDS.source_url).toBe(
      FEED_OBSERVATION_SCHEMA.properties.source_url.anyOf[0].maxLength,
    );
    expect(() =>
      feedFieldBounds({ properties: { note: { type: 'string', pattern: '^.*$' } } }, { note: 'string' }),
    ).toThrow('feed column note has no length bound in its schema');
  });
});

describe('no real row is over a bound', () => {
  it.each([
    'source-data/nppes_sample.csv',
    'source-data/nppes_pristine_excerpt_v2.csv',
    'changes/b/nppes_update.csv',
    'changes/c/nppes_update.csv',
  ])('NPPES: %s', async (name) => {
    expect(await overlongRows(fixture(...name.split('/')), NPPES_FIELD_BOUNDS)).toEqual([]);
  });

  it('NPPES, the pandas-mangled copy: only its Entity Type Codes rewritten as `1.0`/`2.0`, which no build accepts', async () => {
    const over = await overlongRows(sourceData('nppes_sample_alt_pandas_mangled.csv'), NPPES_FIELD_BOUNDS);
    expect(over.length).toBeGreaterThan(0);
    for (const o of over)
      expect(o).toMatch(/: overlong field: Entity Type Code has 3 characters, over its bound of 1$/);
  });

  it.each(['source-data/leie.csv', 'source-data/leie_head.csv', 'changes/b/leie_head.csv', 'changes/c/leie_head.csv'])(
    'LEIE: %s',
    async (name) => {
      expect(await overlongRows(fixture(...name.split('/')), LEIE_FIELD_BOUNDS)).toEqual([]);
    },
  );

  it('NUCC: nucc_taxonomy.csv', async () => {
    expect(await overlongRows(sourceData('nucc_taxonomy.csv'), NUCC_FIELD_BOUNDS)).toEqual([]);
  });

  it.each(['fda_warning_letters.csv', 'fda_warning_letters_scraped_2026.csv'])('FDA: %s', async (name) => {
    expect(await overlongRows(sourceData(name), FDA_FIELD_BOUNDS)).toEqual([]);
  });

  it.each([path.join(REPO_ROOT, 'tools', 'demo', 'glp1'), fixture('changes', 'b', 'glp1')])(
    'feed: %s',
    async (folder) => {
      expect(await overlongRows(path.join(folder, FEED_FILES.providers), FEED_PROVIDER_FIELD_BOUNDS)).toEqual([]);
      expect(await overlongRows(path.join(folder, FEED_FILES.observations), FEED_OBSERVATION_FIELD_BOUNDS)).toEqual([]);
    },
  );
});
