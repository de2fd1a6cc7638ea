/**
 * The writers' hard limits are out of a source row's reach: the longest values the sources' bounds let through
 * (etl/sources/field-bounds.ts), in the widest characters, fit every limit a writer throws on. Each limit is pinned
 * too, so that the margin is visible. (The build-level tests, one per writer: test/integration/etl/overlong-fields.)
 */
import { classificationKey } from '../../../data-contracts/layout';
import { NUCC_NAME_MAX } from '../../../etl/sources/field-bounds';
import { NPPES_FIELD_BOUNDS, TAXONOMY_SLOTS } from '../../../etl/sources/nppes-columns';
import { formatIndividualName } from '../../../etl/transforms/names';
import { BufferSource } from '../../../platform/binary/byte-source';
import { IdentityIndexReader } from '../../../platform/identity-index/reader';
import { IdentityIndexWriter } from '../../../platform/identity-index/writer';
import { type SearchIndexRow, searchKey } from '../../../platform/search-index/format';
import { SearchIndexReader } from '../../../platform/search-index/reader';
import { SearchIndexWriter } from '../../../platform/search-index/writer';
import { NO_OIG_CELLS } from '../../helpers/identity-index-row';

/** Four UTF-8 bytes, two UTF-16 units, one code point; unchanged by lower-casing. */
const WIDE = '\u{1D538}';
/** Lower-cases to two code points (`i` and a combining dot): the widest growth of a search key. */
const GROWS = '\u0130';
const B = NPPES_FIELD_BOUNDS as Record<string, number>;
const at = (column: string, char: string) => char.repeat(B[column] as number);
/** The search index stores a name's and a search key's byte length in a u16 (platform/search-index/format.ts). */
const U16_MAX = 0xffff;

/** The longest individual display name the bounds allow, in the widest characters. */
const longestName = (char: string) =>
  formatIndividualName({
    first: at('Provider First Name', char),
    middle: at('Provider Middle Name', char),
    last: at('Provider Last Name (Legal Name)', char),
    suffix: at('Provider Name Suffix Text', char),
    credential: at('Provider Credential Text', char),
  }) as string;

const searchRow = (over: Partial<SearchIndexRow>): SearchIndexRow => ({
  npi: '1234567893',
  entity_type: 'individual',
  search_name: 'DOE',
  name: 'JANE DOE',
  postal_code: '77030',
  city: 'HOUSTON',
  checked_at: '2026-07-27',
  codes: ['163W00000X'],
  classes: ['registered-nurse'],
  displays: ['Registered Nurse'],
  primary_first: true,
  ...NO_OIG_CELLS,
  ...over,
});

describe('the search index (64 KB names and keys, 255 codes per NPI)', () => {
  const name = longestName(WIDE);
  const org = at('Provider Organization Name (Legal Business Name)', GROWS);
  const last = at('Provider Last Name (Legal Name)', GROWS);

  it('takes the longest display name and search names the NPPES bounds allow', () => {
    expect(Buffer.byteLength(name)).toBe(4 * (35 + 20 + 35 + 5 + 20) + 3 + 2);
    expect(Buffer.byteLength(name)).toBeLessThan(U16_MAX / 100);
    expect(Buffer.byteLength(searchKey(org))).toBe(3 * 100);
    const writer = new SearchIndexWriter('TX');
    writer.add(searchRow({ npi: '1234567893', name, search_name: last }));
    const codes = Array.from({ length: TAXONOMY_SLOTS }, (_, i) => `${String(i).padStart(9, '0')}X`);
    writer.add(
      searchRow({
        npi: '1245319599',
        entity_type: 'organization',
        name: org,
        search_name: org,
        city: at('Provider Business Practice Location Address City Name', WIDE),
        codes,
        classes: codes.map(() => classificationKey('x'.repeat(NUCC_NAME_MAX))),
        displays: codes.map(() => WIDE.repeat(NUCC_NAME_MAX)),
      }),
    );
    const reader = SearchIndexReader.open(new BufferSource(writer.finish()));
    expect(reader.entries).toBe(2);
    const found = reader.search({
      name: GROWS,
      postalCode: null,
      entityType: 'organization',
      city: null,
      taxonomy: null,
      limit: 5,
      offset: 0,
    });
    expect(found.rows.row(0).name).toBe(org);
  });

  it('refuses a name one byte over 64 KB (the limit the bounds keep rows from)', () => {
    const writer = new SearchIndexWriter('TX');
    expect(() => writer.add(searchRow({ search_name: 'a'.repeat(U16_MAX + 1) }))).toThrow('has a name over 64 KB');
  });
});

describe('the identity index (u32 name lengths; the classification key inside a fixed header space)', () => {
  it('takes the longest name and city the bounds allow, under the longest classification key NUCC can give', () => {
    const key = classificationKey(`${'Ab'.repeat(NUCC_NAME_MAX / 2)}`);
    expect(key.length).toBeLessThanOrEqual(80);
    const writer = new IdentityIndexWriter(key);
    const name = longestName(WIDE);
    writer.add({
      npi: '1234567893',
      name,
      taxonomy_code: '163W00000X',
      taxonomy_display: WIDE.repeat(NUCC_NAME_MAX),
      city: at('Provider Business Practice Location Address City Name', WIDE),
      state: at('Provider Business Practice Location Address State Name', WIDE),
      checked_at: '2026-07-27',
      is_primary: true,
      class_rep: true,
      oig_excluded: true,
      oig_type: 'x'.repeat(9),
      oig_date: '2026-09-20',
      oig_checked_at: '2026-10-03T00:00:00Z',
      oig_candidate_count: 0,
    });
    const reader = IdentityIndexReader.open(new BufferSource(writer.finish()));
    expect(reader.classificationKey).toBe(key);
    const page = reader.query({ code: '163W00000X', state: null, city: null, limit: 1, offset: 0 });
    expect(page.rows.row(0).name).toBe(name);
  });
});
