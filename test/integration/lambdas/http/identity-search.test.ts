/**
 * The identity searches (`name`, `postal_code`, `entity_type`, `npi` on GET /providers) over the real ETL's output
 * of the real samples (demo inputs), through the node adapter. The expected answers are computed by brute force
 * from the NPI records of every NPI in the sample files (`/npi?numbers=`, themselves checked against the files in
 * npi-lookup.test.ts), so the search index is checked against an independent path.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isValidNpi } from '../../../../data-contracts/npi-check';
import type { NpiBatchEntry, NpiRecord } from '../../../../data-contracts/types';
import { searchKey } from '../../../../platform/search-index/format';
import { type ApiTestEnv, startApiTestEnv } from '../../../helpers/api-test-env';
import { parseCsvTable } from '../../../helpers/csv-body';

const SOURCE = path.resolve(__dirname, '../../../fixtures/source-data');
const FILES = ['nppes_sample.csv', 'nppes_pristine_excerpt_v2.csv'];
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

const searchName = (r: NpiRecord) => (r.entity_type === 'organization' ? r.organization_name : r.last_name) ?? r.name;
const keyBytes = (r: NpiRecord) => Buffer.from(searchKey(searchName(r)), 'utf8');
const byKeyThenNpi = (a: NpiRecord, b: NpiRecord) =>
  Buffer.compare(keyBytes(a), keyBytes(b)) || (a.npi < b.npi ? -1 : 1);
const primaryCode = (r: NpiRecord) => r.taxonomies.find((t) => t.primary)?.code;

describe('identity search on the real samples', () => {
  let env: ApiTestEnv;
  /** Every active NPI of the demo's NPPES files that the identity layer holds with a state. */
  let records: NpiRecord[];
  let allNpis: string[];

  const get = async (query: string, key = '') => {
    const res = await env.get(`/api/v1/providers?${query}`, bearer(key || env.keys.enterprise));
    return { res, body: (await res.json()) as Record<string, unknown> };
  };
  const npisOf = (body: Record<string, unknown>) => (body.data as { npi: string }[]).map((r) => r.npi);

  beforeAll(async () => {
    env = await startApiTestEnv({ storage: 'folder' });
    const npis = new Set<string>();
    for (const file of FILES) {
      const { header, rows } = parseCsvTable(await readFile(path.join(SOURCE, file), 'utf8'));
      const at = header.indexOf('NPI');
      for (const cells of rows) npis.add(String(cells[at]).trim());
    }
    allNpis = [...npis];
    records = [];
    for (let i = 0; i < allNpis.length; i += 100) {
      const numbers = allNpis.slice(i, i + 100).join(',');
      const res = await env.get(`/api/v1/npi?numbers=${numbers}`, bearer(env.keys.enterprise));
      for (const entry of ((await res.json()) as { data: NpiBatchEntry[] }).data) {
        if (entry.status !== 'active') continue;
        const record = entry.record as NpiRecord;
        if (/^[A-Z]{2}$/.test(record.state ?? '') && record.taxonomies.length > 0) {
          records.push(record);
        }
      }
    }
  }, 120_000);
  afterAll(async () => {
    await env?.close();
  });

  it('finds exactly the NPIs whose organisation or last name starts with the prefix, in one state, in name order', async () => {
    expect(records.length).toBeGreaterThan(900);
    let nonEmpty = 0;
    for (let i = 0; i < records.length; i += 23) {
      const r = records[i] as NpiRecord;
      const prefix = searchKey(searchName(r)).slice(0, 2 + (i % 3));
      if (prefix.length < 2) continue;
      const expected = records
        .filter((x) => x.state === r.state && searchKey(searchName(x)).startsWith(prefix))
        .sort(byKeyThenNpi);
      // Random letter case: the match is case-insensitive.
      const asked = i % 2 === 0 ? prefix.toUpperCase() : prefix;
      const { res, body } = await get(`name=${encodeURIComponent(asked)}&state=${r.state}&limit=1000`);
      expect(res.status).toBe(200);
      expect({ prefix, state: r.state, npis: npisOf(body) }).toEqual({
        prefix,
        state: r.state,
        npis: expected.map((x) => x.npi),
      });
      expect((body.pagination as { total: number }).total).toBe(expected.length);
      nonEmpty += expected.length > 0 ? 1 : 0;
    }
    expect(nonEmpty).toBeGreaterThan(30);
  }, 60_000);

  it('shows each NPI once, with its primary taxonomy, name, city, state and OIG screen', async () => {
    const r = records.find((x) => x.taxonomies.length > 1 && primaryCode(x) !== undefined) as NpiRecord;
    const { body } = await get(`name=${encodeURIComponent(searchName(r))}&state=${r.state}&limit=1000`);
    const row = (body.data as Record<string, unknown>[]).find((x) => x.npi === r.npi);
    expect(row).toMatchObject({
      npi: r.npi,
      name: r.name,
      taxonomy_code: primaryCode(r),
      city: r.city,
      state: r.state,
      checked_at: r.last_update_date,
      layer: 'identity',
      oig: expect.objectContaining({ npi_match: 'none' }),
    });
    expect(npisOf(body).filter((n) => n === r.npi)).toHaveLength(1);
  });

  it("shows each row's taxonomy display as NUCC's display of its code (as the NPI record has it)", async () => {
    const byNpi = new Map(records.map((r) => [r.npi, r]));
    const postals = [...new Set(records.map((r) => `${r.state}|${r.postal_code ?? ''}`))].filter(
      (k) => !k.endsWith('|'),
    );
    let checked = 0;
    for (const key of postals.slice(0, 60)) {
      const [state, postal] = key.split('|') as [string, string];
      const { body } = await get(`postal_code=${postal}&state=${state}&limit=1000`);
      for (const row of body.data as { npi: string; taxonomy_code: string; taxonomy_display: string | null }[]) {
        const taxonomy = byNpi.get(row.npi)?.taxonomies.find((t) => t.code === row.taxonomy_code);
        expect(taxonomy).toBeDefined();
        expect(row.taxonomy_display).toBe(taxonomy?.display ?? null);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(60);
  }, 60_000);

  it('finds exactly the NPIs of a postal code, narrowed by entity type', async () => {
    const withZip = records.filter((r) => r.postal_code !== null);
    for (let i = 0; i < withZip.length; i += 61) {
      const r = withZip[i] as NpiRecord;
      for (const entityType of [null, r.entity_type]) {
        const expected = records
          .filter(
            (x) =>
              x.state === r.state &&
              x.postal_code === r.postal_code &&
              (entityType === null || x.entity_type === entityType),
          )
          .sort(byKeyThenNpi);
        const more = entityType === null ? '' : `&entity_type=${entityType}`;
        const { body } = await get(`postal_code=${r.postal_code}&state=${r.state}${more}&limit=1000`);
        expect(npisOf(body)).toEqual(expected.map((x) => x.npi));
        expect(body.filters).toMatchObject({ postal_code: r.postal_code, entity_type: entityType, name: null });
      }
    }
  });

  it('narrows a name search by taxonomy code and shows the matched code', async () => {
    const r = records.find((x) => x.taxonomies.length > 1 && !x.taxonomies[1]?.primary) as NpiRecord;
    const code = r.taxonomies[1]?.code as string;
    const prefix = searchKey(searchName(r)).slice(0, 3);
    const expected = records
      .filter(
        (x) =>
          x.state === r.state &&
          searchKey(searchName(x)).startsWith(prefix) &&
          x.taxonomies.some((t) => t.code === code),
      )
      .sort(byKeyThenNpi);
    const { body } = await get(`name=${encodeURIComponent(prefix)}&state=${r.state}&taxonomy=${code}&limit=1000`);
    expect(npisOf(body)).toEqual(expected.map((x) => x.npi));
    for (const row of body.data as { taxonomy_code: string }[]) expect(row.taxonomy_code).toBe(code);
  });

  it('pages a search with limit and offset over the same order', async () => {
    const r = records[0] as NpiRecord;
    const prefix = searchKey(searchName(r)).slice(0, 2);
    const { body: all } = await get(`name=${encodeURIComponent(prefix)}&state=${r.state}&limit=1000`);
    const { body: page } = await get(`name=${encodeURIComponent(prefix)}&state=${r.state}&limit=2&offset=1`);
    expect(npisOf(page)).toEqual(npisOf(all).slice(1, 3));
    expect(page.pagination).toMatchObject({ total: (all.pagination as { total: number }).total, offset: 1, limit: 2 });
  });

  it('answers a roster: its active NPIs in NPI order; deactivated and never-issued NPIs are absent', async () => {
    const known = new Set(allNpis);
    let unissued = 1999999990;
    while (!isValidNpi(String(unissued)) || known.has(String(unissued))) unissued += 1;
    const active = new Set(records.map((r) => r.npi));
    const gone = allNpis.find((n) => !active.has(n)) as string;
    const roster = [records[40], records[3], records[900], records[3]].map((r) => (r as NpiRecord).npi);
    const { res, body } = await get(`npi=${[...roster, gone, String(unissued)].join(',')}`);
    expect(res.status).toBe(200);
    expect(npisOf(body)).toEqual([...new Set(roster)].sort());
    const r = records[40] as NpiRecord;
    const { body: narrowed } = await get(`npi=${roster.join(',')}&state=${r.state}&entity_type=${r.entity_type}`);
    expect(npisOf(narrowed)).toContain(r.npi);
    for (const row of narrowed.data as { state: string }[]) expect(row.state).toBe(r.state);
  });

  it('answers a search as CSV with the identity columns', async () => {
    const r = records[5] as NpiRecord;
    const res = await env.get(
      `/api/v1/providers?postal_code=${r.postal_code}&state=${r.state}&format=csv`,
      bearer(env.keys.developer),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const { header, rows } = parseCsvTable(await res.text());
    expect(header).toContain('npi');
    expect(rows.map((cells) => cells[header.indexOf('npi')])).toContain(r.npi);
  });

  it.each([
    ['name=smith', 'add state'],
    ['postal_code=77030', 'add state'],
    ['entity_type=individual&state=TX', 'entity_type narrows'],
    ['name=s&state=TX', 'name must be 2 to 100 characters'],
    ['postal_code=7703&state=TX', '5-digit'],
    ['vertical=glp1&name=sm&state=TX', 'drop vertical'],
    ['zip=77030&state=TX', 'zip'],
  ])('refuses %s with 400 and a hint, unmetered', async (query, message) => {
    const { res, body } = await get(query, env.keys.developer);
    expect(res.status).toBe(400);
    expect(body.code).toBe('invalid_parameter');
    expect(`${body.error} ${body.hint ?? ''}`).toContain(message);
    expect(res.headers.get('x-ratelimit-remaining')).toBeNull();
  });

  it('refuses a roster with a malformed NPI with invalid_npi', async () => {
    const { res, body } = await get('npi=1003633876,1234567890');
    expect(res.status).toBe(400);
    expect(body.code).toBe('invalid_npi');
  });
});
