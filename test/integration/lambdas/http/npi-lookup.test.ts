/**
 * The NPI lookups over the real ETL's output of the real samples (demo inputs), through the node adapter, with
 * dynalite metering. Expectations are read from the sample files themselves, not restated by hand.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PLAN_RULES } from '../../../../data-contracts/constants';
import type { NpiBatchEntry, NpiRecord } from '../../../../data-contracts/types';
import { type ApiTestEnv, demoInputs, setMonthlyUsage, startApiTestEnv } from '../../../helpers/api-test-env';
import { parseCsvTable } from '../../../helpers/csv-body';

const SOURCE = path.resolve(__dirname, '../../../fixtures/source-data');
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const clean = (v: string | undefined) => {
  const t = (v ?? '').trim().replace(/\s+/g, ' ');
  return t === '' ? null : t;
};
/** `M/D/YY` or `MM/DD/YYYY` to ISO (two-digit years: the POSIX pivot, 00-68 -> 20xx). */
const isoOf = (us: string) => {
  const [m, d, yy] = us.trim().split('/');
  const y = String(yy).length === 2 ? (Number(yy) <= 68 ? 2000 : 1900) + Number(yy) : yy;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
};

type Row = Record<string, string>;
async function readRows(file: string): Promise<Row[]> {
  const { header, rows } = parseCsvTable(await readFile(file, 'utf8'));
  return rows.map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])));
}

function isDeactivated(row: Row): boolean {
  const deact = clean(row['NPI Deactivation Date']);
  if (deact === null) return false;
  const react = clean(row['NPI Reactivation Date']);
  return react === null || isoOf(react) < isoOf(deact);
}

function expectedTaxonomies(row: Row) {
  const slots = Array.from({ length: 15 }, (_, i) => i + 1);
  const primary = slots.find(
    (s) => row[`Healthcare Provider Primary Taxonomy Switch_${s}`]?.trim().toUpperCase() === 'Y',
  );
  return slots
    .filter((s) => clean(row[`Healthcare Provider Taxonomy Code_${s}`]) !== null)
    .map((s) => ({
      code: clean(row[`Healthcare Provider Taxonomy Code_${s}`])?.toUpperCase(),
      primary: s === primary,
      license_number: clean(row[`Provider License Number_${s}`]),
      license_state: clean(row[`Provider License Number State Code_${s}`])?.toUpperCase() ?? null,
    }));
}

/** A real LEIE row with an NPI (leie.csv): KILGORE BYRON, 1128b4, 2013-12-19. */
const LEIE_NPI = '1255407482';

describe('NPI lookups on the real samples', () => {
  let env: ApiTestEnv;
  let work: string;
  /** The rows of nppes_sample.csv that decide their NPI (not overridden by a later demo file). */
  let sample: Row[];

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'pf-npi-lookup-'));
    const rows = await readRows(path.join(SOURCE, 'nppes_sample.csv'));
    const later = new Set((await readRows(path.join(SOURCE, 'nppes_pristine_excerpt_v2.csv'))).map((r) => r.NPI));
    sample = rows.filter((r) => !later.has(r.NPI));
    // One more NPPES file, listed last: a real sample record under the NPI of a real LEIE row, for the OIG match.
    const text = await readFile(path.join(SOURCE, 'nppes_sample.csv'), 'utf8');
    const [header, ...lines] = text.split('\n');
    // The sample is unquoted (a re-saved file): the record's first field is its NPI.
    const active = lines.find((l) => l.startsWith('1003633876,')) as string;
    const extra = path.join(work, 'nppes_leie_npi.csv');
    await writeFile(extra, `${header}\n${LEIE_NPI}${active.slice(10)}\n`);
    const inputs = demoInputs();
    env = await startApiTestEnv({ storage: 'folder', inputs: { ...inputs, nppes: [...inputs.nppes, extra] } });
  }, 120_000);
  afterAll(async () => {
    await env?.close();
    await rm(work, { recursive: true, force: true });
  });

  const get = async (url: string, key: string) => {
    const res = await env.get(`/api/v1${url}`, bearer(key));
    return { res, body: (await res.json()) as Record<string, unknown> };
  };

  it('answers 200 for every active NPI of nppes_sample.csv with its real name and taxonomies', async () => {
    const active = sample.filter((r) => !isDeactivated(r));
    expect(active.length).toBeGreaterThan(900);
    for (const row of active) {
      const { res, body } = await get(`/npi/${row.NPI}`, env.keys.enterprise);
      expect({ npi: row.NPI, status: res.status }).toEqual({ npi: row.NPI, status: 200 });
      const data = body.data as NpiRecord;
      const organisation = row['Entity Type Code']?.trim() === '2';
      expect(data).toMatchObject({
        npi: row.NPI,
        status: 'active',
        entity_type: organisation ? 'organization' : 'individual',
        organization_name: organisation ? clean(row['Provider Organization Name (Legal Business Name)']) : null,
        last_name: organisation ? null : clean(row['Provider Last Name (Legal Name)']),
        first_name: organisation ? null : clean(row['Provider First Name']),
        city: clean(row['Provider Business Practice Location Address City Name']),
        state: clean(row['Provider Business Practice Location Address State Name']),
        last_update_date: isoOf(row['Last Update Date'] ?? ''),
      });
      const zip = row['Provider Business Practice Location Address Postal Code']?.trim() ?? '';
      expect(data.postal_code).toBe(/^[0-9]{5}/.test(zip) ? zip.slice(0, 5) : null);
      expect(data.name).toContain(
        organisation ? String(data.organization_name) : String(clean(row['Provider Last Name (Legal Name)'])),
      );
      expect(data.taxonomies.map(({ display: _d, ...t }) => t)).toEqual(expectedTaxonomies(row));
    }
  }, 120_000);

  it('answers 410 for every deactivated NPI of nppes_sample.csv with its real deactivation date', async () => {
    const gone = sample.filter(isDeactivated);
    expect(gone.length).toBeGreaterThan(0);
    for (const row of gone) {
      const { res, body } = await get(`/npi/${row.NPI}/`, env.keys.free);
      expect(res.status).toBe(410);
      expect(body.data).toEqual({
        npi: row.NPI,
        status: 'deactivated',
        deactivation_date: isoOf(row['NPI Deactivation Date'] ?? ''),
        layer: 'identity',
        source: 'NPPES',
        oig: expect.objectContaining({ npi_match: 'none' }),
      });
    }
  });

  it('gives an NPI of the real LEIE slices the OIG match shape with that row type and date', async () => {
    const leie = (await readRows(path.join(SOURCE, 'leie.csv'))).filter((r) => r.NPI === LEIE_NPI);
    expect(leie).toHaveLength(1);
    const { res, body } = await get(`/npi/${LEIE_NPI}`, env.keys.free);
    expect(res.status).toBe(200);
    const date = String(leie[0]?.EXCLDATE);
    expect((body.data as NpiRecord).oig).toEqual({
      excluded: true,
      type: leie[0]?.EXCLTYPE,
      date: `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`,
      source: 'oig_leie',
      checked_at: '2026-10-03T00:00:00Z',
    });
  });

  it('answers 404 not_found for a valid NPI that is absent, 400 invalid_npi for a malformed one', async () => {
    const absent = await get('/npi/1234567893', env.keys.free);
    expect([absent.res.status, absent.body.code]).toEqual([404, 'not_found']);
    for (const bad of ['1234567890', '123', 'abcdefghij']) {
      const r = await get(`/npi/${bad}`, env.keys.free);
      expect([bad, r.res.status, r.body.code]).toEqual([bad, 400, 'invalid_npi']);
    }
  });

  it('locks the paid fields on every plan, as on identity rows', async () => {
    for (const key of Object.values(env.keys)) {
      const { body } = await get('/npi/1003633876', key);
      for (const field of ['certification', 'license', 'fda', 'price']) {
        expect((body.data as Record<string, unknown>)[field]).toMatchObject({ locked: true });
      }
    }
  });

  it('answers a batch in the order asked, one entry per NPI', async () => {
    const { res, body } = await get('/npi?numbers=1114636115,1003633876,12345,1234567893,1003633876', env.keys.free);
    expect(res.status).toBe(200);
    const data = body.data as NpiBatchEntry[];
    expect(data.map((e) => [e.npi, e.status])).toEqual([
      ['1114636115', 'deactivated'],
      ['1003633876', 'active'],
      ['12345', 'invalid'],
      ['1234567893', 'not_found'],
      ['1003633876', 'active'],
    ]);
    expect(data[1]?.record).toEqual(data[4]?.record);
  });

  it('meters one call per 200 or 410 and none per 404 or 400', async () => {
    const key = (await env.keyStore.create({ plan: 'developer', vertical: null })).key;
    expect((await get('/npi/1003633876', key)).body.usage).toEqual({ used: 1, quota: 25_000 });
    expect((await get('/npi/1114636115', key)).body.usage).toEqual({ used: 2, quota: 25_000 });
    await get('/npi/1234567893', key);
    await get('/npi/1234567890', key);
    const { res } = await get('/npi/1003633876', key);
    expect(res.headers.get('x-ratelimit-used')).toBe('3');
  });

  it('meters a batch as one call per NPI asked and refuses it whole with 429 when fewer are left', async () => {
    const key = (await env.keyStore.create({ plan: 'builder', vertical: 'glp1' })).key;
    const { body } = await get('/npi?numbers=1003633876,12345,1234567893', key);
    expect(body.usage).toEqual({ used: 3, quota: PLAN_RULES.builder.monthlyQuota });
    await setMonthlyUsage(env, key, 4_998);
    const refused = await get('/npi?numbers=1003633876,1003633876,1003633876', key);
    expect([refused.res.status, refused.body.code]).toEqual([429, 'quota_exceeded']);
    expect(refused.res.headers.get('retry-after')).not.toBeNull();
    const fits = await get('/npi?numbers=1003633876,1003633876', key);
    expect(fits.body.usage).toEqual({ used: 5_000, quota: 5_000 });
  });
  it('charges the same 100 NPIs the same through /npi?numbers= and a roster search, however it is paged', async () => {
    const key = (await env.keyStore.create({ plan: 'developer', vertical: null })).key;
    const numbers = sample
      .filter((r) => !isDeactivated(r))
      .slice(0, 100)
      .map((r) => r.NPI)
      .join(',');
    expect((await get(`/npi?numbers=${numbers}`, key)).body.usage).toEqual({ used: 100, quota: 25_000 });
    const roster = await get(`/providers?npi=${numbers}&limit=100`, key);
    expect(roster.body.pagination).toMatchObject({ total: 100, returned: 100 });
    expect(roster.body.usage).toEqual({ used: 200, quota: 25_000 });
    expect((await get(`/providers?npi=${numbers}`, key)).body.usage).toEqual({ used: 250, quota: 25_000 });
    expect((await get(`/providers?npi=${numbers}&offset=50`, key)).body.usage).toEqual({ used: 300, quota: 25_000 });
    // A page past the end is refused (400) and its up-front charge given back.
    expect((await get(`/providers?npi=${numbers}&offset=150`, key)).res.status).toBe(400);
    expect((await get('/npi/1003633876', key)).body.usage).toEqual({ used: 301, quota: 25_000 });
  });

  it('refuses a key it has seen exhausted before reading its parameters, with the headers of a 429', async () => {
    const key = (await env.keyStore.create({ plan: 'free', vertical: null })).key;
    await setMonthlyUsage(env, key, PLAN_RULES.free.monthlyQuota ?? 0);
    const first = await get('/npi/1003633876', key);
    expect([first.res.status, first.body.code]).toEqual([429, 'quota_exceeded']);
    // Malformed and unknown parameters: the quota comes first.
    for (const url of ['/npi/12', '/npi?numbers=', '/providers?vertical=nope&bogus=1']) {
      const refused = await get(url, key);
      expect([url, refused.res.status, refused.body.code]).toEqual([url, 429, 'quota_exceeded']);
      expect(refused.body.usage).toEqual({ used: 500, quota: 500 });
      expect(Number(refused.res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.res.headers.get('x-ratelimit-remaining')).toBe('0');
    }
  });

  it('ties every answer (200, 410, batch) to its snapshot and answers 304, unmetered, to a current ETag', async () => {
    const key = (await env.keyStore.create({ plan: 'developer', vertical: null })).key;
    for (const url of ['/npi/1003633876', '/npi/1114636115', '/npi?numbers=1003633876,1114636115']) {
      const { res, body } = await get(url, key);
      expect(typeof body.snapshot_id).toBe('string');
      expect(res.headers.get('x-snapshot-id')).toBe(body.snapshot_id);
      expect(res.headers.get('x-data-as-of')).toBe(body.as_of);
      const etag = res.headers.get('etag') as string;
      expect(etag).toMatch(/^W\/"/);
      const used = Number(res.headers.get('x-ratelimit-used'));
      const again = await env.get(`/api/v1${url}`, { ...bearer(key), 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      const after = await get(url, key);
      expect(Number(after.res.headers.get('x-ratelimit-used'))).toBe(used + (url.includes('numbers') ? 2 : 1));
    }
    const other = await get('/npi/1003633876', env.keys.free);
    const tagged = await get('/npi/1003633876', key);
    expect(other.res.headers.get('etag')).not.toBe(tagged.res.headers.get('etag'));
  });
});
