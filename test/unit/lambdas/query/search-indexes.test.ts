import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { identityRowList } from '../../../../data-contracts/identity-json';
import { SearchIndexes } from '../../../../lambdas/query/search-indexes';
import { SearchIndexWriter } from '../../../../platform/search-index/writer';

const QUERY = { name: 'sm', postalCode: null, entityType: null, city: null, taxonomy: null, limit: 10, offset: 0 };

describe('SearchIndexes', () => {
  let dir: string;
  const files: Record<string, string> = {};
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pf-search-indexes-'));
    for (const [state, npi] of [
      ['TX', '1003633876'],
      ['CA', '1114636115'],
    ] as const) {
      const writer = new SearchIndexWriter(state);
      writer.add({
        npi,
        entity_type: 'individual',
        search_name: 'Smith',
        postal_code: null,
        city: null,
        codes: ['163W00000X'],
        classes: ['rn'],
        displays: ['Registered Nurse'],
        name: 'JO SMITH',
        checked_at: '2024-01-02',
        primary_first: true,
        oig_excluded: false,
        oig_type: null,
        oig_date: null,
        oig_checked_at: null,
        oig_candidate_count: 0,
      });
      files[state] = path.join(dir, `${state}.bin`);
      writeFileSync(files[state] as string, writer.finish());
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('opens a file once for concurrent first searches, and answers from it', async () => {
    const indexes = new SearchIndexes();
    let opens = 0;
    const file = async () => {
      opens += 1;
      return files.TX as string;
    };
    const results = await Promise.all([1, 2, 3].map(() => indexes.search('s1/TX', file, QUERY)));
    expect(opens).toBe(1);
    for (const r of results) {
      expect(identityRowList(r.rows)).toEqual([
        expect.objectContaining({
          npi: '1003633876',
          name: 'JO SMITH',
          taxonomy_code: '163W00000X',
          taxonomy_display: 'Registered Nurse',
          state: 'TX',
          checked_at: '2024-01-02',
          is_primary: true,
          oig_excluded: false,
        }),
      ]);
    }
  });

  it('keeps at most maxOpen files open, reopening an evicted one, and forgets a snapshot', async () => {
    const indexes = new SearchIndexes(1);
    for (let i = 0; i < 4; i += 1) {
      const state = i % 2 === 0 ? 'TX' : 'CA';
      const r = await indexes.search(`s1/${state}`, async () => files[state] as string, QUERY);
      expect(r.total).toBe(1);
      expect(indexes.openFiles).toBe(1);
    }
    await indexes.search('s2/TX', async () => files.TX as string, QUERY);
    indexes.forget('s2/');
    expect(indexes.openFiles).toBe(0);
  });

  it('passes on a file that is not a search index as an error, and keeps nothing open', async () => {
    const bad = path.join(dir, 'bad.bin');
    writeFileSync(bad, 'not an index');
    const indexes = new SearchIndexes();
    await expect(indexes.search('s1/ZZ', async () => bad, QUERY)).rejects.toThrow('not a search index');
    expect(indexes.openFiles).toBe(0);
  });
});
