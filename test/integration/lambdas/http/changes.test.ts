/**
 * `GET /changes` over three snapshots that the real ETL builds from the committed samples and the changed inputs of
 * test/fixtures/changes (A, then B, then C: the changes of each step are listed in that folder's README), through
 * the node adapter with dynalite metering. Every JSON answer is validated against the OpenAPI document.
 */
import { CHANGE_CSV_COLUMNS } from '../../../../data-contracts/csv';
import type { ChangeEntry, ChangeListResponse } from '../../../../data-contracts/types';
import { type ApiTestEnv, bearer, startApiTestEnv } from '../../../helpers/api-test-env';
import { buildChangesFixture, type ChangesFixture } from '../../../helpers/changes-fixture';
import { parseCsvTable } from '../../../helpers/csv-body';
import { OPENAPI_DOC_ID, openapiAjv, openapiValidator } from '../../../helpers/openapi-ajv';

const validateList = openapiValidator(`${OPENAPI_DOC_ID}#/components/schemas/ChangeListResponse`);
const validateError = openapiValidator(`${OPENAPI_DOC_ID}#/components/schemas/Error`);

/** What test/fixtures/changes/README.md says each step changes: kind, NPI or entity_id, field. */
const STEP_B = [
  ['npi_deactivated', '1962105056', null],
  ['npi_deactivated', '1023909249', null],
  ['npi_deactivated', '1639924889', null],
  ['name_changed', '1366380503', 'name'],
  ['state_changed', '1578098257', 'state'],
  ['primary_taxonomy_changed', '1437957537', 'primary_taxonomy'],
  ['npi_enumerated', '1679576722', null],
  ['oig_excluded', '1750216602', null],
  ['oig_excluded', '1922933878', null],
  ['oig_excluded', '1730014689', null],
  // The demo's fictional OIG case (tools/demo/oig): a reinstatement and a possible match.
  ['oig_removed', '1999999901', null],
  ['oig_candidate_added', '1999999919', null],
  ['verified_removed', 'glp1-000002', null],
  ['verified_added', 'glp1-000031', null],
  ['signal_changed', 'glp1-000004', 'certification'],
  ['signal_changed', 'glp1-000004', 'price'],
] as const;
const STEP_C = [
  ['npi_reactivated', '1023909249', null],
  ['oig_removed', '1922933878', null],
] as const;

type Key = readonly [string, string, string | null];
const keyOf = (e: ChangeEntry): Key => [
  e.kind,
  e.npi !== null && e.entity_id === null ? e.npi : String(e.entity_id),
  e.field,
];
const sorted = (keys: readonly Key[]) => [...keys].map((k) => k.join('|')).sort();

describe('GET /changes over three snapshots of the real samples', () => {
  let env: ApiTestEnv;
  let fixture: ChangesFixture;
  let a: string;
  let b: string;
  let c: string;

  beforeAll(async () => {
    env = await startApiTestEnv({
      storage: 'folder',
      publish: async (folder) => {
        fixture = await buildChangesFixture(folder, { through: 'c' });
      },
    });
    a = fixture.a.snapshot_id;
    b = fixture.b.snapshot_id;
    c = (fixture.c as NonNullable<ChangesFixture['c']>).snapshot_id;
  }, 240_000);

  afterAll(() => env?.close());

  async function list(query: string, key = env.keys.enterprise): Promise<ChangeListResponse> {
    const response = await env.get(`/api/v1/changes?${query}`, bearer(key));
    const body = (await response.json()) as ChangeListResponse;
    expect({ query, status: response.status }).toEqual({ query, status: 200 });
    if (!validateList(body)) throw new Error(`${query}: ${openapiAjv.errorsText(validateList.errors)}`);
    return body;
  }

  async function refused(query: string, status: number, key = env.keys.enterprise) {
    const response = await env.get(`/api/v1/changes?${query}`, bearer(key));
    const body = (await response.json()) as { code: string; error: string; hint?: string };
    expect({ query, status: response.status }).toEqual({ query, status });
    expect(validateError(body)).toBe(true);
    return body;
  }

  it('lists exactly the changes of both steps since A, step by step, and states the span', async () => {
    const body = await list(`since=${a}&limit=1000`);
    expect(body.span).toEqual({
      since: a,
      from_snapshot: a,
      from_as_of: fixture.a.created_at,
      to_snapshot: c,
      to_as_of: fixture.c?.created_at,
      oldest_snapshot: a,
      oldest_as_of: fixture.a.created_at,
      retention_months: 13,
    });
    expect(body.snapshot_id).toBe(c);
    const ofB = body.data.filter((e) => e.to_snapshot === b);
    const ofC = body.data.filter((e) => e.to_snapshot === c);
    expect(sorted(ofB.map(keyOf))).toEqual(sorted(STEP_B));
    expect(sorted(ofC.map(keyOf))).toEqual(sorted(STEP_C));
    expect(body.pagination).toEqual({ total: 18, limit: 1000, offset: 0, returned: 18 });
    // Oldest step first; each entry names its step.
    expect(body.data.map((e) => e.to_snapshot)).toEqual([...ofB.map(() => b), ...ofC.map(() => c)]);
    for (const e of ofB)
      expect([e.from_snapshot, e.from_as_of, e.to_as_of]).toEqual([a, fixture.a.created_at, fixture.b.created_at]);
    for (const e of ofC) expect(e.from_snapshot).toBe(b);
  });

  it('carries the old and new values of each kind', async () => {
    const { data } = await list(`since=${a}&limit=1000`);
    const one = (kind: string, id: string, field: string | null = null) => {
      const found = data.filter((e) => keyOf(e).join('|') === [kind, id, field].join('|'));
      expect(found).toHaveLength(1);
      return found[0] as ChangeEntry;
    };
    expect(one('npi_deactivated', '1962105056')).toMatchObject({ old: null, new: { deactivation_date: '2026-11-02' } });
    expect(one('npi_reactivated', '1023909249')).toMatchObject({ old: { deactivation_date: '2026-11-02' }, new: null });
    const renamed = one('name_changed', '1366380503', 'name');
    expect(String(renamed.old)).toContain('CROWLEY');
    expect(String(renamed.new)).toContain('CROWLEY-BANKS');
    expect(one('state_changed', '1578098257', 'state')).toMatchObject({ old: 'WA', new: 'OR' });
    expect(one('primary_taxonomy_changed', '1437957537', 'primary_taxonomy')).toMatchObject({
      old: '175T00000X',
      new: '172V00000X',
    });
    expect(one('npi_enumerated', '1679576722')).toMatchObject({
      old: null,
      new: { name: expect.stringContaining('WIEBE') },
    });
    const excluded = one('oig_excluded', '1922933878');
    expect(excluded).toMatchObject({ old: null, new: { type: '1128b4', date: '1992-09-03' } });
    expect(excluded.note).toContain('NPI only');
    const removed = one('oig_removed', '1922933878');
    // No supplement reinstated it: it is no longer listed under this NPI, which is never a clearance.
    expect(removed).toMatchObject({ old: { type: '1128b4', date: '1992-09-03' }, new: { reason: 'not_listed' } });
    expect(removed.note).toContain('not a clearance');
    expect(one('signal_changed', 'glp1-000004', 'certification')).toMatchObject({
      vertical: 'glp1',
      old: 'verified',
      new: 'flagged',
    });
    expect(one('verified_removed', 'glp1-000002')).toMatchObject({ vertical: 'glp1', new: null });
    expect(one('verified_added', 'glp1-000031')).toMatchObject({ vertical: 'glp1', old: null });
  });

  it('answers a roster with its NPIs only, and since B with the last step only', async () => {
    const roster = await list(`since=${a}&npi=1962105056,1366380503,1922933878,1003633876`);
    expect(sorted(roster.data.map(keyOf))).toEqual(
      sorted([
        ['npi_deactivated', '1962105056', null],
        ['name_changed', '1366380503', 'name'],
        ['oig_excluded', '1922933878', null],
        ['oig_removed', '1922933878', null],
      ]),
    );
    expect(roster.filters).toEqual({
      kind: null,
      npi: ['1962105056', '1366380503', '1922933878', '1003633876'],
      vertical: null,
    });
    const sinceB = await list(`since=${b}`);
    expect(sinceB.span).toMatchObject({ from_snapshot: b, to_snapshot: c });
    expect(sorted(sinceB.data.map(keyOf))).toEqual(sorted(STEP_C));
    // A date between B and C starts from B; the current snapshot itself has nothing after it.
    const byDate = await list(`since=${fixture.b.created_at.slice(0, 10)}T23:59:59Z`);
    expect(byDate.span.from_snapshot).toBe(b);
    expect(byDate.pagination.total).toBe(2);
    expect((await list(`since=${c}`)).pagination.total).toBe(0);
  });

  it('filters by kind (repeated and comma lists) and by vertical', async () => {
    const oig = await list(`since=${a}&kind=oig_excluded&kind=oig_removed`);
    expect(oig.data.every((e) => e.kind.startsWith('oig_'))).toBe(true);
    expect(oig.pagination.total).toBe(5);
    expect((await list(`since=${a}&kind=npi_deactivated,npi_reactivated`)).pagination.total).toBe(4);
    const glp1 = await list(`since=${a}&vertical=glp1`);
    expect(sorted(glp1.data.map(keyOf))).toEqual(
      sorted(STEP_B.filter(([kind]) => ['verified_added', 'verified_removed', 'signal_changed'].includes(kind))),
    );
    expect((await list(`since=${a}&vertical=dental`)).pagination.total).toBe(0);
  });

  it('locks paid values for a free key and keeps a bound key in its vertical', async () => {
    const free = await list(`since=${a}&kind=signal_changed`, env.keys.free);
    expect(free.tier).toBe('free');
    expect(free.data).toHaveLength(2);
    for (const e of free.data) {
      expect(e.old).toMatchObject({ locked: true });
      expect(e.new).toMatchObject({ locked: true });
    }
    const freeIdentity = await list(`since=${a}&kind=state_changed`, env.keys.free);
    expect(freeIdentity.data[0]).toMatchObject({ old: 'WA', new: 'OR' });
    // builder is bound to glp1: identity changes and glp1's, never another vertical.
    const builder = await list(`since=${a}&limit=1000`, env.keys.builder);
    expect(builder.pagination.total).toBe(18);
    expect(builder.usage?.used).toBeGreaterThan(0);
    const forbidden = await refused(`since=${a}&vertical=dental`, 403, env.keys.builder);
    expect(forbidden.code).toBe('vertical_not_permitted');
  });

  it('refuses a since older than kept, naming the oldest, and every other bad input with a clear 400', async () => {
    const old = await refused('since=2020-01-01', 400);
    expect(old.code).toBe('since_too_old');
    expect(old.error).toContain(a);
    expect(old.hint).toContain(a);
    expect((await refused('since=20200101T000000Z-abcdef', 400)).code).toBe('since_too_old');
    expect((await refused('since=20261120T000000Z-abcdef', 400)).code).toBe('invalid_parameter');
    expect((await refused('', 400)).code).toBe('invalid_parameter');
    expect((await refused('since=last-week', 400)).code).toBe('invalid_parameter');
    const kind = await refused(`since=${a}&kind=oig_exclusion`, 400);
    expect(kind.hint).toContain('oig_excluded');
    expect((await refused(`since=${a}&npi=1234567890`, 400)).code).toBe('invalid_npi');
    expect((await refused(`since=${a}&vertical=glp1&kind=oig_excluded`, 400)).code).toBe('invalid_parameter');
    expect((await refused(`since=${a}&offset=19`, 400)).code).toBe('invalid_offset');
    expect((await refused(`since=${a}&snce=1`, 400)).code).toBe('invalid_parameter');
  });

  it('pages in a stable order and answers CSV with the same rows', async () => {
    const all = await list(`since=${a}&limit=1000`);
    const pages: ChangeEntry[] = [];
    for (let offset = 0; offset < 18; offset += 5)
      pages.push(...(await list(`since=${a}&limit=5&offset=${offset}`)).data);
    expect(pages).toEqual(all.data);
    const response = await env.get(`/api/v1/changes?since=${a}&format=csv&limit=1000`, bearer(env.keys.developer));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('x-snapshot-id')).toBe(c);
    const { header, rows } = parseCsvTable(await response.text());
    expect(header).toEqual([...CHANGE_CSV_COLUMNS]);
    expect(rows).toHaveLength(18);
    const at = (name: string) => header.indexOf(name);
    const deactivated = rows.find((r) => r[at('kind')] === 'npi_deactivated' && r[at('npi')] === '1962105056');
    expect(deactivated?.[at('new')]).toBe('{"deactivation_date":"2026-11-02"}');
    const free = await env.get(`/api/v1/changes?since=${a}&format=csv&kind=signal_changed`, bearer(env.keys.free));
    const freeRows = parseCsvTable(await free.text()).rows;
    expect(freeRows.map((r) => [r[at('old')], r[at('new')]])).toEqual([
      ['locked', 'locked'],
      ['locked', 'locked'],
    ]);
  });

  it('ties the answer to its data version: ETag, 304 not counted', async () => {
    const first = await env.get(`/api/v1/changes?since=${a}`, bearer(env.keys.enterprise));
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await env.get(`/api/v1/changes?since=${a}`, {
      ...bearer(env.keys.enterprise),
      'if-none-match': String(etag),
    });
    expect(again.status).toBe(304);
  });

  it('gives a repeated kind its own tag: a tag of one kind never answers 304 for two', async () => {
    const auth = bearer(env.keys.enterprise);
    const one = await env.get(`/api/v1/changes?since=${a}&kind=oig_excluded`, auth);
    const oneTag = String(one.headers.get('etag'));
    const oneTotal = ((await one.json()) as { pagination: { total: number } }).pagination.total;
    const twoPath = `/api/v1/changes?since=${a}&kind=oig_excluded&kind=npi_deactivated`;
    const two = await env.get(twoPath, { ...auth, 'if-none-match': oneTag });
    expect(two.status).toBe(200);
    expect(two.headers.get('etag')).not.toBe(oneTag);
    expect(((await two.json()) as { pagination: { total: number } }).pagination.total).toBeGreaterThan(oneTotal);
    const again = await env.get(twoPath, { ...auth, 'if-none-match': String(two.headers.get('etag')) });
    expect(again.status).toBe(304);
  });
});
