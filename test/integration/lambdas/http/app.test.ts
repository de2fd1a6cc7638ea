/**
 * The API end to end on two snapshots that the real ETL builds from committed inputs: `demo` (the real public
 * samples and the demo glp1 feed) and `edge` (test/fixtures/api-edge: internal_only records, formula-like text, an
 * FDA-flagged and an OIG-excluded record, a state-less online provider, an NPI with two codes of one classification,
 * a code unknown to NUCC). Served from a folder store: real DuckDB over Parquet, dynalite through the real SDK
 * clients, the node:http adapter (fetch) and the Lambda adapter. Expectations come from the data itself (full pages
 * read with an enterprise key); the edge snapshot's known rows are also checked by value.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PLAN_RULES, PRICING_URL } from '../../../../data-contracts/constants';
import {
  FREE_PROVIDER_CSV_COLUMNS,
  IDENTITY_CSV_COLUMNS,
  PAID_PROVIDER_CSV_COLUMNS,
} from '../../../../data-contracts/csv';
import {
  type ApiTestEnv,
  bearer,
  publishEtlSnapshot,
  SNAPSHOTS,
  type SnapshotName,
  setMonthlyUsage,
  startApiTestEnv,
  withExtraProvider,
} from '../../../helpers/api-test-env';
import { apiGatewayEvent } from '../../../helpers/apigw-event';
import { parseCsvTable } from '../../../helpers/csv-body';
import type { LambdaAnswer } from '../../../helpers/raw-answers';

const BASE = '/api/v1';
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field by the assertions.
type Json = Record<string, any>;
const json = async (res: Response): Promise<Json> => (await res.json()) as Json;
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface SnapshotCase {
  name: SnapshotName;
  /** Records in the verified and tracked sets. */
  verified: number;
  tracked: number;
  /** A classification of the identity layer with several NPIs, and its attachment-name form. */
  classification: string;
  classificationFile: string;
}

const CASES: SnapshotCase[] = [
  { name: 'demo', verified: 200, tracked: 340, classification: 'Counselor', classificationFile: 'counselor' },
  {
    name: 'edge',
    verified: 6,
    tracked: 8,
    classification: 'Nurse Practitioner',
    classificationFile: 'nurse-practitioner',
  },
];

describe.each(CASES)('the API on the $name snapshot', (snap) => {
  let env: ApiTestEnv;
  let verified: Json[];
  let tracked: Json[];
  let trackedOnly: Json;
  let identity: Json[];

  beforeAll(async () => {
    // A generous metering timeout: fifty parallel conditional writes on dynalite can take longer than 250 ms.
    env = await startApiTestEnv({ storage: 'folder', snapshot: snap.name, meterTimeoutMs: 3000 });
    const all = (url: string, key: string) => env.get(`${BASE}/providers?${url}&limit=1000`, bearer(key));
    verified = (await json(await all('vertical=glp1', env.keys.enterprise))).data;
    tracked = (await json(await all('vertical=glp1&include=tracked', env.keys.free))).data;
    trackedOnly = tracked.find((p) => p.publish_tier === 'internal_only') as Json;
    identity = (await json(await all(`taxonomy=${encodeURIComponent(snap.classification)}`, env.keys.enterprise))).data;
  });
  afterAll(async () => {
    await env?.close();
  });

  describe('the data', () => {
    it('holds the verified and tracked sets of the feed and identity rows', () => {
      expect(verified.length).toBe(snap.verified);
      expect(tracked.length).toBe(snap.tracked);
      expect(trackedOnly).toBeDefined();
      expect(identity.length).toBeGreaterThan(1);
    });
  });

  describe('authentication', () => {
    it('returns 401 key_required without a key, whatever the parameters', async () => {
      for (const query of ['vertical=glp1', 'vertical=x']) {
        const res = await env.get(`${BASE}/providers?${query}`);
        expect(res.status).toBe(401);
        expect((await json(res)).code).toBe('key_required');
      }
    });

    it('returns 401 invalid_key for an unknown key, on a list and on a detail', async () => {
      const res = await env.get(
        `${BASE}/providers?vertical=glp1`,
        bearer('pf_unknownunknownunknownunknownunknownunknown1'),
      );
      expect(res.status).toBe(401);
      expect((await json(res)).code).toBe('invalid_key');
      expect((await json(await env.get(`${BASE}/providers/x`, { 'x-api-key': 'nope' }))).code).toBe('invalid_key');
    });

    it('accepts the key as Bearer, as x-api-key and as key=', async () => {
      const k = env.keys.free;
      for (const [url, headers] of [
        [`${BASE}/providers?vertical=glp1&limit=1`, bearer(k)],
        [`${BASE}/providers?vertical=glp1&limit=1`, { 'x-api-key': k }],
        [`${BASE}/providers?vertical=glp1&limit=1&key=${k}`, {}],
      ] as const) {
        const res = await env.get(url, headers);
        expect(res.status).toBe(200);
        expect((await json(res)).plan).toBe('free');
      }
    });

    it('lets Bearer win over x-api-key and x-api-key win over key=', async () => {
      const { free, developer, enterprise } = env.keys;
      const bad = 'pf_badbadbadbadbadbadbadbadbadbadbadbadbadbadbad';
      const url = `${BASE}/providers?vertical=glp1&limit=1`;
      const plan = async (u: string, headers: Record<string, string>) => (await json(await env.get(u, headers))).plan;
      expect(await plan(`${url}&key=${enterprise}`, { ...bearer(free), 'x-api-key': developer })).toBe('free');
      expect(await plan(`${url}&key=${enterprise}`, { 'x-api-key': developer })).toBe('developer');
      expect(await plan(`${url}&key=${bad}`, { ...bearer(free), 'x-api-key': bad })).toBe('free');
      expect((await env.get(url, { ...bearer(bad), 'x-api-key': free })).status).toBe(401);
      expect(await plan(`${url}&key=${bad}`, { 'x-api-key': enterprise })).toBe('enterprise');
    });

    it('refuses revoked and rotated keys with 401 invalid_key', async () => {
      const revoked = (await env.keyStore.create({ plan: 'developer' })).key;
      await env.keyStore.revoke(revoked);
      const rotated = (await env.keyStore.create({ plan: 'developer' })).key;
      const replacement = (await env.keyStore.rotate(rotated)).key;
      for (const key of [revoked, rotated]) {
        const res = await env.get(`${BASE}/providers?vertical=glp1`, bearer(key));
        expect(res.status).toBe(401);
        expect((await json(res)).code).toBe('invalid_key');
      }
      expect((await env.get(`${BASE}/providers?vertical=glp1`, bearer(replacement))).status).toBe(200);
    });
  });

  describe('vertical list', () => {
    it('serves a free key the verified layer with locked paid fields, no usage and no rate-limit headers', async () => {
      const res = await env.get(`${BASE}/providers?vertical=glp1`, bearer(env.keys.free));
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body).toMatchObject({ tier: 'free', plan: 'free', publish_boundary: 'verified' });
      const returned = Math.min(50, verified.length);
      expect(body.pagination).toEqual({ total: verified.length, limit: 50, offset: 0, returned });
      expect(body.data.map((p: Json) => p.entity_id)).toEqual(verified.slice(0, 50).map((p) => p.entity_id));
      for (const p of body.data) {
        for (const f of ['certification', 'license', 'fda', 'price'])
          expect(p[f]).toEqual({ locked: true, unlock: expect.stringContaining(PRICING_URL) });
        expect(p.oig).toBeDefined();
        expect(p.publish_tier).toBeUndefined();
      }
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
      expect(body.usage).toBeUndefined();
    });

    it.each(['builder', 'developer'] as const)(
      'serves %s keys paid fields with usage and X-RateLimit headers',
      async (plan) => {
        const quota = PLAN_RULES[plan].monthlyQuota;
        const res = await env.get(`${BASE}/providers?vertical=glp1&limit=5`, bearer(env.keys[plan]));
        const body = await json(res);
        expect(res.status).toBe(200);
        expect(body.tier).toBe('paid');
        expect(body.data[0].certification.status).toEqual(expect.any(String));
        expect(body.usage).toEqual({ used: expect.any(Number), quota });
        expect(res.headers.get('x-ratelimit-limit')).toBe(String(quota));
        expect(res.headers.get('x-ratelimit-used')).toBe(String(body.usage.used));
        expect(res.headers.get('x-ratelimit-remaining')).toBe(String(quota - body.usage.used));
        expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
      },
    );

    it('serves enterprise keys paid fields unmetered: no usage, no rate-limit headers', async () => {
      const res = await env.get(`${BASE}/providers?vertical=glp1&limit=5`, bearer(env.keys.enterprise));
      const body = await json(res);
      expect(body.tier).toBe('paid');
      expect(body.usage).toBeUndefined();
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    });

    it('orders rows by name then entity_id', () => {
      const keys = verified.map((p) => [p.name, p.entity_id]);
      const sorted = [...keys].sort((a, b) => byName(a[0], b[0]) || byName(a[1], b[1]));
      expect(keys).toEqual(sorted);
    });

    it('matches state and city case-insensitively and echoes the filters', async () => {
      const probe = verified.find((p) => p.city && p.state) as Json;
      const expected = verified.filter(
        (p) => p.state === probe.state && String(p.city).toLowerCase() === String(probe.city).toLowerCase(),
      );
      const city = String(probe.city).toUpperCase();
      const res = await env.get(
        `${BASE}/providers?vertical=glp1&state=${String(probe.state).toLowerCase()}&city=${encodeURIComponent(city)}`,
        bearer(env.keys.enterprise),
      );
      const body = await json(res);
      expect(body.pagination.total).toBe(expected.length);
      expect(body.data.map((p: Json) => p.entity_id)).toEqual(expected.map((p) => p.entity_id));
      expect(body.filters).toEqual({ vertical: 'glp1', taxonomy: null, state: probe.state, city, business_mode: null });
    });

    it('filters by business_mode and pages with limit and offset', async () => {
      for (const mode of ['online', 'physical', 'both']) {
        const body = await json(
          await env.get(
            `${BASE}/providers?vertical=glp1&business_mode=${mode}&limit=1000`,
            bearer(env.keys.enterprise),
          ),
        );
        expect(body.pagination.total).toBe(verified.filter((p) => p.business_mode === mode).length);
        expect(body.data.every((p: Json) => p.business_mode === mode)).toBe(true);
      }
      const third = Math.floor(verified.length / 3);
      for (const [limit, offset] of [
        [2, 2],
        [7, third],
      ] as const) {
        const page = await json(
          await env.get(`${BASE}/providers?vertical=glp1&limit=${limit}&offset=${offset}`, bearer(env.keys.enterprise)),
        );
        expect(page.data.map((p: Json) => p.entity_id)).toEqual(
          verified.slice(offset, offset + limit).map((p) => p.entity_id),
        );
      }
    });

    it('accepts offset equal to total and refuses offset beyond it with 400 invalid_offset', async () => {
      const n = verified.length;
      const at = await env.get(`${BASE}/providers?vertical=glp1&offset=${n}`, bearer(env.keys.enterprise));
      expect(at.status).toBe(200);
      expect((await json(at)).data).toEqual([]);
      const beyond = await env.get(`${BASE}/providers?vertical=glp1&offset=${n + 1}`, bearer(env.keys.enterprise));
      expect(beyond.status).toBe(400);
      expect((await json(beyond)).code).toBe('invalid_offset');
      const empty = await env.get(
        `${BASE}/providers?vertical=glp1&state=WY&city=Nowhere&offset=0`,
        bearer(env.keys.enterprise),
      );
      expect(empty.status).toBe(200);
      expect((await json(empty)).pagination.total).toBe(0);
    });

    it('returns no data for a vertical that is not live, with a notice', async () => {
      for (const vertical of ['medspa', 'pet_health']) {
        const res = await env.get(`${BASE}/providers?vertical=${vertical}`, bearer(env.keys.developer));
        const body = await json(res);
        expect(res.status).toBe(200);
        expect(body.data).toEqual([]);
        expect(body.pagination.total).toBe(0);
        expect(body.notice).toContain(vertical);
      }
    });

    it('honours include=tracked for a free key in JSON: tracked boundary and publish_tier on every row', async () => {
      const body = await json(await env.get(`${BASE}/providers?vertical=glp1&include=tracked`, bearer(env.keys.free)));
      expect(body.publish_boundary).toBe('tracked');
      expect(body.pagination.total).toBe(tracked.length);
      expect(tracked.every((p) => p.publish_tier === 'verified' || p.publish_tier === 'internal_only')).toBe(true);
      expect(tracked.some((p) => p.publish_tier === 'internal_only')).toBe(true);
    });

    it('ignores include=tracked for paid keys and CSV (verified only)', async () => {
      const paid = await json(
        await env.get(`${BASE}/providers?vertical=glp1&include=tracked&limit=1000`, bearer(env.keys.developer)),
      );
      expect(paid.publish_boundary).toBe('verified');
      expect(paid.pagination.total).toBe(verified.length);
      expect(paid.data.some((p: Json) => p.entity_id === trackedOnly.entity_id)).toBe(false);
      expect(paid.data[0].publish_tier).toBeUndefined();
      const text = await (
        await env.get(`${BASE}/providers?vertical=glp1&include=tracked&format=csv&limit=1000`, bearer(env.keys.free))
      ).text();
      expect(text).not.toContain(trackedOnly.entity_id);
      const csv = parseCsvTable(text);
      expect(csv.header).toEqual([...FREE_PROVIDER_CSV_COLUMNS]);
      expect(csv.rows).toHaveLength(verified.length);
    });

    it('refuses a builder key outside its vertical with 403 vertical_not_permitted and an upgrade text', async () => {
      for (const vertical of ['medspa', 'dental']) {
        const res = await env.get(`${BASE}/providers?vertical=${vertical}`, bearer(env.keys.builder));
        expect(res.status).toBe(403);
        const body = await json(res);
        expect(body).toMatchObject({ code: 'vertical_not_permitted', plan: 'builder' });
        expect(body.upgrade).toContain(PRICING_URL);
      }
    });

    it.each([
      ['/providers?vertical=nope', 400, 'invalid_vertical'],
      ['/providers?vertical=x', 400, 'invalid_vertical'],
      ['/providers?vertical=glp1&business_mode=mobile', 400, 'invalid_business_mode'],
      ['/providers?vertical=glp1&limit=0', 400, 'invalid_limit'],
      ['/providers?vertical=glp1&limit=1001', 400, 'invalid_limit'],
      ['/providers?vertical=glp1&limit=1.5', 400, 'invalid_limit'],
      ['/providers?vertical=glp1&limit=01', 400, 'invalid_limit'],
      ['/providers?vertical=glp1&offset=-1', 400, 'invalid_offset'],
      ['/providers?vertical=glp1&offset=abc', 400, 'invalid_offset'],
      ['/providers?vertical=glp1&offset=1.5', 400, 'invalid_offset'],
      ['/providers?vertical=glp1&format=xml', 400, 'invalid_parameter'],
      ['/providers?vertical=glp1&format=pdf', 400, 'invalid_parameter'],
      ['/providers?vertical=glp1&include=all', 400, 'invalid_parameter'],
      ['/providers?vertical=glp1&state=Texas', 400, 'invalid_parameter'],
      ['/providers?state=TX', 400, 'invalid_parameter'],
      ['/providers/does-not-exist', 404, 'not_found'],
      ['/nothing-here', 404, 'not_found'],
    ])('answers %s with %i %s', async (url, status, code) => {
      const res = await env.get(`${BASE}${url}`, bearer(env.keys.developer));
      expect(res.status).toBe(status);
      expect((await json(res)).code).toBe(code);
    });
  });

  describe('unknown query parameters', () => {
    it.each([
      ['/providers?vertical=glp1&limt=5', 'limt', 'limit'],
      ['/providers?vertical=glp1&LIMIT=5', 'LIMIT', 'limit'],
      ['/providers?vertical=glp1&verticle=glp1', 'verticle', 'vertical'],
      ['/providers?vertical=glp1&zip=77001', 'zip', null],
      ['/providers?taxonomy=Counselor&businessmode=online', 'businessmode', 'business_mode'],
      ['/providers/x?inclde=tracked', 'inclde', 'include'],
      ['/sample?formt=csv', 'formt', 'format'],
      ['/coverage?state=TX', 'state', null],
      ['/coverage/?kye=1', 'kye', 'key'],
      ['/openapi.json?format=yaml', 'format', null],
    ])('refuse %s with 400 invalid_parameter naming %s, hinting %s', async (url, name, meant) => {
      const res = await env.get(`${BASE}${url}`, bearer(env.keys.developer));
      expect(res.status).toBe(400);
      const body = await json(res);
      expect(body).toMatchObject({ code: 'invalid_parameter', error: `Unknown query parameter \`${name}\`.` });
      if (meant === null) expect(body.hint).not.toContain('Did you mean');
      else expect(body.hint).toMatch(new RegExp(`^Did you mean \`${meant}\`\\? This route takes: `));
      expect(res.headers.get('etag')).toBeNull();
    });

    it('check the key first (401), are not metered, and let key= and a repeated parameter through', async () => {
      const key = (await env.keyStore.create({ plan: 'developer' })).key;
      expect((await env.get(`${BASE}/providers?vertical=glp1&limt=5`)).status).toBe(401);
      expect((await env.get(`${BASE}/providers?vertical=glp1&limt=5`, bearer(key))).status).toBe(400);
      const repeated = await env.get(`${BASE}/providers?vertical=glp1&limit=2&limit=7&key=${key}`);
      expect(repeated.status).toBe(200);
      expect((await json(repeated)).pagination.limit).toBe(2);
      expect(repeated.headers.get('x-ratelimit-used')).toBe('1');
      for (const url of ['/coverage?key=x', '/sample?format=csv&key=x', '/openapi.json?key=x']) {
        expect((await env.get(`${BASE}${url}`)).status).toBe(200);
      }
    });
  });

  describe('data versions', () => {
    const tagOf = async (url: string, key: string, headers: Record<string, string> = {}) => {
      const res = await env.get(`${BASE}${url}`, { ...bearer(key), ...headers });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      return res.headers.get('etag') as string;
    };

    it('name the snapshot and its as-of time (the coverage generated_at) in every keyed answer', async () => {
      const id = env.runtime.snapshots.currentId;
      const asOf = (await json(await env.get(`${BASE}/coverage`))).generated_at;
      expect(asOf).toBe(SNAPSHOTS[snap.name].time.toISOString().replace('.000Z', 'Z'));
      const taxonomy = encodeURIComponent(snap.classification);
      for (const url of [
        '/providers?vertical=glp1&limit=2',
        `/providers?taxonomy=${taxonomy}&limit=2`,
        `/providers/${verified[0]?.slug}`,
        '/providers?vertical=glp1&format=csv&limit=2',
        `/providers?taxonomy=${taxonomy}&format=csv&limit=2`,
      ]) {
        const res = await env.get(`${BASE}${url}`, bearer(env.keys.free));
        expect(res.status).toBe(200);
        expect(res.headers.get('x-snapshot-id')).toBe(id);
        expect(res.headers.get('x-data-as-of')).toBe(asOf);
        expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
        if (url.includes('format=csv')) expect(await res.text()).not.toContain(String(id));
        else expect(await json(res)).toMatchObject({ snapshot_id: id, as_of: asOf });
      }
      for (const url of ['/coverage', '/sample', '/openapi.json']) {
        expect((await env.get(`${BASE}${url}`)).headers.get('x-snapshot-id')).toBeNull();
      }
    });

    it('give one ETag to the same request across calls, key forms and keys of the same plan', async () => {
      const other = (await env.keyStore.create({ plan: 'developer' })).key;
      const url = '/providers?vertical=glp1&state=TX&limit=3';
      const tag = await tagOf(url, env.keys.developer);
      expect(tag).toMatch(/^W\/"/);
      expect(await tagOf(url, env.keys.developer)).toBe(tag);
      expect(await tagOf(url, other)).toBe(tag);
      expect(await tagOf('/providers/?limit=3&state=TX&vertical=glp1', other)).toBe(tag);
      const byParam = await env.get(`${BASE}${url}&key=${other}`);
      expect(byParam.headers.get('etag')).toBe(tag);
      const enterprise = await tagOf(url, env.keys.enterprise);
      expect(enterprise).toMatch(/^"/);
      expect(await tagOf(url, env.keys.enterprise)).toBe(enterprise);
    });

    it('change the ETag with the query, the format and the plan', async () => {
      const tags = [
        await tagOf('/providers?vertical=glp1&limit=3', env.keys.enterprise),
        await tagOf('/providers?vertical=glp1&limit=4', env.keys.enterprise),
        await tagOf('/providers?vertical=glp1&limit=3&offset=1', env.keys.enterprise),
        await tagOf('/providers?vertical=glp1&limit=3&format=csv', env.keys.enterprise),
        await tagOf('/providers?vertical=glp1&limit=3', env.keys.free),
        await tagOf(`/providers/${verified[0]?.slug}`, env.keys.enterprise),
        await tagOf(`/providers/${verified[1]?.slug}`, env.keys.enterprise),
      ];
      expect(new Set(tags).size).toBe(tags.length);
    });

    it('answer a current If-None-Match with 304, no body and the headers, unmetered', async () => {
      const key = (await env.keyStore.create({ plan: 'developer' })).key;
      for (const [i, url] of [
        '/providers?vertical=glp1&limit=3',
        `/providers/${verified[0]?.slug}`,
        '/providers?vertical=glp1&format=csv&limit=3',
      ].entries()) {
        const first = await env.get(`${BASE}${url}`, bearer(key));
        await first.arrayBuffer();
        expect(first.headers.get('x-ratelimit-used')).toBe(String(i + 1));
        const etag = first.headers.get('etag') as string;
        const cached = await env.get(`${BASE}${url}`, { ...bearer(key), 'if-none-match': `"other", ${etag}` });
        expect(cached.status).toBe(304);
        expect(await cached.text()).toBe('');
        expect(cached.headers.get('etag')).toBe(etag);
        expect(cached.headers.get('x-snapshot-id')).toBe(first.headers.get('x-snapshot-id'));
        expect(cached.headers.get('x-data-as-of')).toBe(first.headers.get('x-data-as-of'));
        expect(cached.headers.get('x-ratelimit-used')).toBeNull();
        expect((await env.get(`${BASE}${url}`, { 'if-none-match': etag })).status).toBe(401);
      }
      const after = await env.get(`${BASE}/providers?vertical=glp1&limit=1`, bearer(key));
      expect(after.headers.get('x-ratelimit-used')).toBe('4');
    });

    it('serve a 304 to a key over its quota, and a 429 to anything that would serve data', async () => {
      const key = (await env.keyStore.create({ plan: 'free' })).key;
      const url = `${BASE}/providers?vertical=glp1&limit=3`;
      const etag = await tagOf('/providers?vertical=glp1&limit=3', env.keys.free);
      await setMonthlyUsage(env, key, PLAN_RULES.free.monthlyQuota as number);
      expect((await env.get(url, { ...bearer(key), 'if-none-match': etag })).status).toBe(304);
      expect((await env.get(url, bearer(key))).status).toBe(429);
      expect((await env.get(url, { ...bearer(key), 'if-none-match': '*' })).status).toBe(429);
    });
  });

  describe('CSV', () => {
    it('returns an attachment with the free column set for a free key, paged like JSON', async () => {
      for (const [limit, offset] of [
        [3, 1],
        [10, 5],
      ] as const) {
        const res = await env.get(
          `${BASE}/providers?vertical=glp1&format=csv&limit=${limit}&offset=${offset}`,
          bearer(env.keys.free),
        );
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
        expect(res.headers.get('content-disposition')).toBe(`attachment; filename="providers-glp1-${offset}.csv"`);
        const csv = parseCsvTable(await res.text());
        expect(csv.header).toEqual([...FREE_PROVIDER_CSV_COLUMNS]);
        const page = verified.slice(offset, offset + limit);
        expect(csv.rows).toHaveLength(page.length);
        expect(csv.rows.map((r) => r[0])).toEqual(page.map((p) => p.entity_id));
      }
    });

    it('returns every signal flattened for a paid key, metered', async () => {
      const res = await env.get(`${BASE}/providers?vertical=glp1&format=csv`, bearer(env.keys.developer));
      const csv = parseCsvTable(await res.text());
      expect(csv.header).toEqual([...PAID_PROVIDER_CSV_COLUMNS]);
      expect(csv.rows).toHaveLength(Math.min(50, verified.length));
      const status = csv.header.indexOf('certification_status');
      expect(csv.rows.map((r) => r[status])).toEqual(
        verified.slice(0, 50).map(() => expect.stringMatching(/^[a-z_]+$/)),
      );
      expect(res.headers.get('x-ratelimit-limit')).toBe(String(PLAN_RULES.developer.monthlyQuota));
    });

    it('returns identity rows with the identity column set', async () => {
      const res = await env.get(
        `${BASE}/providers?taxonomy=${encodeURIComponent(snap.classification)}&format=csv&offset=1`,
        bearer(env.keys.developer),
      );
      expect(res.headers.get('content-disposition')).toBe(
        `attachment; filename="providers-${snap.classificationFile}-1.csv"`,
      );
      const csv = parseCsvTable(await res.text());
      expect(csv.header).toEqual([...IDENTITY_CSV_COLUMNS]);
      expect(csv.rows).toHaveLength(Math.min(50, identity.length - 1));
    });
  });

  describe('identity list', () => {
    it('lists by a taxonomy code, lower case accepted, ordered by NPI, identity rows always locked', async () => {
      const code = identity[0]?.taxonomy_code as string;
      for (const key of [env.keys.enterprise, env.keys.builder]) {
        const res = await env.get(`${BASE}/providers?taxonomy=${code.toLowerCase()}&limit=1000`, bearer(key));
        const body = await json(res);
        expect(res.status).toBe(200);
        expect(body.layer).toBe('identity');
        expect(body.publish_boundary).toBeUndefined();
        expect(body.pagination.total).toBeGreaterThan(0);
        expect(body.data.every((p: Json) => p.taxonomy_code === code)).toBe(true);
        const npis = body.data.map((p: Json) => p.npi);
        expect(npis).toEqual([...npis].sort());
        for (const p of body.data) {
          expect(p).toMatchObject({ layer: 'identity', source: 'NPPES', price: { locked: true } });
        }
      }
    });

    it('lists by a classification name case-insensitively, one row per NPI, ordered by NPI', async () => {
      const mixed = [...snap.classification].map((c, i) => (i % 2 ? c.toLowerCase() : c.toUpperCase())).join('');
      const body = await json(
        await env.get(`${BASE}/providers?taxonomy=${encodeURIComponent(mixed)}&limit=1000`, bearer(env.keys.free)),
      );
      const npis = body.data.map((p: Json) => p.npi);
      expect(npis).toEqual([...npis].sort());
      expect(new Set(npis).size).toBe(npis.length);
      expect(npis).toEqual(identity.map((p) => p.npi));
      expect(body.data.every((p: Json) => p.layer === 'identity' && p.source === 'NPPES' && p.price.locked)).toBe(true);
    });

    it('combines state and city (case-insensitive) with limit and offset', async () => {
      const probe = identity.find((p) => p.city && p.state) as Json;
      const expected = identity.filter(
        (p) => p.state === probe.state && String(p.city).toLowerCase() === String(probe.city).toLowerCase(),
      );
      const body = await json(
        await env.get(
          `${BASE}/providers?taxonomy=${encodeURIComponent(snap.classification)}&state=${String(probe.state).toLowerCase()}&city=${encodeURIComponent(String(probe.city).toLowerCase())}&limit=1&offset=0`,
          bearer(env.keys.free),
        ),
      );
      expect(body.pagination).toEqual({ total: expected.length, limit: 1, offset: 0, returned: 1 });
      expect(body.data[0].npi).toBe(expected[0]?.npi);
    });

    it('answers an unknown classification name with an empty page', async () => {
      const res = await env.get(`${BASE}/providers?taxonomy=Astronaut`, bearer(env.keys.free));
      expect(res.status).toBe(200);
      expect((await json(res)).pagination.total).toBe(0);
    });

    it('refuses an offset beyond the identity result with 400 invalid_offset', async () => {
      const res = await env.get(
        `${BASE}/providers?taxonomy=${encodeURIComponent(snap.classification)}&offset=${identity.length + 1}`,
        bearer(env.keys.free),
      );
      expect(res.status).toBe(400);
      expect((await json(res)).code).toBe('invalid_offset');
    });
  });

  describe('detail', () => {
    it('finds a provider by entity_id and by slug, with and without a trailing slash', async () => {
      const p = verified[0] as Json;
      for (const key of [env.keys.builder, env.keys.developer]) {
        for (const id of [p.entity_id, p.slug, `${p.slug}/`]) {
          const res = await env.get(`${BASE}/providers/${id}`, bearer(key));
          expect(res.status).toBe(200);
          expect((await json(res)).data.entity_id).toBe(p.entity_id);
        }
      }
    });

    it('returns 404 not_found for an unknown id and for a tracked-only record without include=tracked', async () => {
      for (const id of ['nope', trackedOnly.slug]) {
        const res = await env.get(`${BASE}/providers/${id}`, bearer(env.keys.free));
        expect(res.status).toBe(404);
        expect((await json(res)).code).toBe('not_found');
      }
    });

    it('shows a tracked-only record to a free key with include=tracked only, with publish_tier', async () => {
      const body = await json(
        await env.get(`${BASE}/providers/${trackedOnly.slug}?include=tracked`, bearer(env.keys.free)),
      );
      expect(body.publish_boundary).toBe('tracked');
      expect(body.data.publish_tier).toBe('internal_only');
      for (const key of [env.keys.developer, env.keys.enterprise]) {
        expect((await env.get(`${BASE}/providers/${trackedOnly.slug}?include=tracked`, bearer(key))).status).toBe(404);
      }
    });
  });

  describe('public endpoints', () => {
    it('serves coverage and the verified-only sample without a key, with a Cache-Control', async () => {
      for (const p of ['/coverage', '/coverage/', '/sample', '/sample/']) {
        const res = await env.get(`${BASE}${p}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('cache-control')).toBe('public, max-age=60');
      }
      const coverage = await json(await env.get(`${BASE}/coverage/`));
      expect(coverage.verified.total).toBe(verified.length);
      expect(coverage.tracked.total).toBe(tracked.length);
      const sample = await json(await env.get(`${BASE}/sample`));
      expect(sample.publish_boundary).toBe('verified');
      expect(sample.size).toBe(Math.min(50, verified.length));
      const internal = new Set(tracked.filter((p) => p.publish_tier === 'internal_only').map((p) => p.entity_id));
      expect(sample.data.some((p: Json) => internal.has(p.entity_id))).toBe(false);
    });

    it('serves the sample as CSV: the paid columns, the sample rows, no tracked-only record', async () => {
      const res = await env.get(`${BASE}/sample?format=csv`);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const csv = parseCsvTable(await res.text());
      expect(csv.header).toEqual([...PAID_PROVIDER_CSV_COLUMNS]);
      const sample = await json(await env.get(`${BASE}/sample`));
      expect(csv.rows.map((r) => r[0])).toEqual(sample.data.map((p: Json) => p.entity_id));
      const internal = new Set(tracked.filter((p) => p.publish_tier === 'internal_only').map((p) => p.entity_id));
      expect(csv.rows.some((r) => internal.has(r[0]))).toBe(false);
    });

    it('serves the coverage page of the pinned snapshot with the figures of its coverage.json, through both adapters', async () => {
      const coverage = await json(await env.get(`${BASE}/coverage`));
      const res = await env.get(`${BASE}/coverage.html`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
      const page = await res.text();
      expect(page).toContain(`data-figure="verified.total">${coverage.verified.total.toLocaleString('en-US')}<`);
      expect(page).toContain(`<time datetime="${coverage.generated_at}"`);
      expect(page).toContain(`<code data-figure="snapshot_id">${coverage.snapshot_id}</code>`);
      const viaLambda = (await env.lambda(apiGatewayEvent(`${BASE}/coverage.html`, '') as never, {} as never)) as Json;
      expect(viaLambda.statusCode).toBe(200);
      expect(viaLambda.isBase64Encoded ? Buffer.from(viaLambda.body, 'base64').toString('utf8') : viaLambda.body).toBe(
        page,
      );
    });

    it('serves the OpenAPI document', async () => {
      const res = await env.get(`${BASE}/openapi.json`);
      expect(res.status).toBe(200);
      expect((await json(res)).openapi).toBe('3.1.0');
    });

    it('answers an unknown route and a wrong method with a JSON 404', async () => {
      const a = await env.get('/api/v1/nothing');
      expect(a.status).toBe(404);
      expect((await json(a)).code).toBe('not_found');
      const b = await fetch(`${env.server.url}${BASE}/providers`, { method: 'POST' });
      expect(b.status).toBe(404);
      expect((await json(b)).code).toBe('not_found');
    });
  });

  describe('lambda and node adapters', () => {
    it('give the same status, headers and body for a list, a detail, an error and a CSV', async () => {
      const key = env.keys.enterprise;
      const cases: [string, string][] = [
        [`${BASE}/providers`, 'vertical=glp1&limit=3'],
        [`${BASE}/providers/${verified[0]?.slug}`, ''],
        [`${BASE}/providers`, 'vertical=nope'],
        [`${BASE}/providers`, 'vertical=glp1&format=csv'],
        [`${BASE}/sample`, 'format=csv'],
      ];
      // Uncompressed, with one request id: compression and ids through both adapters are in web-headers.test.ts.
      const headers = { ...bearer(key), 'accept-encoding': 'identity', 'x-request-id': 'parity-check' };
      for (const [p, q] of cases) {
        const node = await env.get(`${p}${q ? `?${q}` : ''}`, headers);
        const nodeBody = await node.text();
        const lambda = (await env.lambda(apiGatewayEvent(p, q, headers) as never, {} as never)) as LambdaAnswer;
        expect(lambda.statusCode).toBe(node.status);
        expect(lambda.isBase64Encoded).toBe(false);
        expect(lambda.body).toBe(nodeBody);
        const nodeHeaders = Object.fromEntries(
          [...node.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)),
        );
        expect(Object.fromEntries(Object.entries(lambda.headers).map(([k, v]) => [k.toLowerCase(), v]))).toEqual(
          nodeHeaders,
        );
      }
    });

    it('give the same identity pages when many are written at once into pooled memory on the node server', async () => {
      // The node server writes identity pages into reused blocks (body-pool.ts); the Lambda adapter does not. Forty
      // pages of different sizes in flight together, gzipped off the event loop (so the others run meanwhile), must
      // each equal the Lambda's page for the same request.
      const headers = { ...bearer(env.keys.enterprise), 'accept-encoding': 'identity' };
      const gzipped = { ...headers, 'accept-encoding': 'gzip' };
      const taxonomy = encodeURIComponent(snap.classification);
      const queries = Array.from(
        { length: 40 },
        (_, i) => `taxonomy=${taxonomy}&limit=${1 + ((i * 37) % 1000)}&offset=${i % 3}`,
      );
      const nodeBodies = await Promise.all(
        queries.map(async (q) => (await env.get(`${BASE}/providers?${q}`, gzipped)).text()),
      );
      for (const [i, q] of queries.entries()) {
        const lambda = (await env.lambda(
          apiGatewayEvent(`${BASE}/providers`, q, headers) as never,
          {} as never,
        )) as LambdaAnswer;
        expect(lambda.statusCode).toBe(200);
        expect(nodeBodies[i]).toBe(lambda.body);
      }
      expect(JSON.parse(nodeBodies[39] as string).data.length).toBeGreaterThan(0);
    });

    it('give the same 304 for a current If-None-Match', async () => {
      const headers = bearer(env.keys.enterprise);
      const first = await env.get(`${BASE}/providers?vertical=glp1&limit=3`, headers);
      const conditional = { ...headers, 'if-none-match': first.headers.get('etag') as string };
      const node = await env.get(`${BASE}/providers?vertical=glp1&limit=3`, conditional);
      const lambda = (await env.lambda(
        apiGatewayEvent(`${BASE}/providers`, 'vertical=glp1&limit=3', conditional) as never,
        {} as never,
      )) as LambdaAnswer;
      expect([node.status, lambda.statusCode]).toEqual([304, 304]);
      expect([await node.text(), lambda.body]).toEqual(['', '']);
      expect(lambda.headers.etag ?? lambda.headers.ETag).toBe(node.headers.get('etag'));
    });
  });

  if (snap.name === 'edge') {
    describe('edge cases of the edge inputs', () => {
      const row = (entityId: string) => verified.find((p) => p.entity_id === entityId) as Json;

      it('neutralises formula-like names in CSV cells', async () => {
        const text = await (
          await env.get(`${BASE}/providers?vertical=glp1&format=csv`, bearer(env.keys.developer))
        ).text();
        expect(text).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
        const csv = parseCsvTable(text);
        const name = csv.header.indexOf('name');
        expect(csv.rows.map((r) => r[name])).toContain(`'=HYPERLINK("http://evil.example")`);
        const identityCsv = await (
          await env.get(`${BASE}/providers?taxonomy=Nurse%20Practitioner&format=csv`, bearer(env.keys.free))
        ).text();
        expect(identityCsv).toContain("'@SUM(1+1)");
      });

      it('matches Austin and AUSTIN in TX, and lists the state-less online provider', async () => {
        const body = await json(
          await env.get(`${BASE}/providers?vertical=glp1&state=tx&city=aUsTiN`, bearer(env.keys.enterprise)),
        );
        expect(body.data.map((p: Json) => p.entity_id).sort()).toEqual(['glp1-0001', 'glp1-0002']);
        expect(row('glp1-0004')).toMatchObject({ state: null, city: null, business_mode: 'online' });
      });

      it('carries the OIG exclusion, the FDA flag and the latest observation of the feed', async () => {
        expect(row('glp1-0003').oig).toMatchObject({ excluded: true, type: '1128a1', date: '2019-04-18' });
        expect(row('glp1-0008').fda.status).toBe('flagged');
        expect(row('glp1-0001').fda.status).toBe('clear');
        expect(row('glp1-0005').certification.status).toBe('reported');
        expect(
          tracked
            .filter((p) => p.publish_tier === 'internal_only')
            .map((p) => p.entity_id)
            .sort(),
        ).toEqual(['glp1-0006', 'glp1-0007']);
      });

      it('lists every NPI of a classification once, across its codes, and skips deactivated NPIs', () => {
        expect(identity.map((p) => p.npi)).toEqual([
          '1500000009',
          '1500000017',
          '1500000025',
          '1500000033',
          '1500000041',
        ]);
        expect(identity.find((p) => p.npi === '1500000017')?.oig).toMatchObject({ excluded: true, type: '1128b4' });
      });

      it('combines state and city with an offset past the first match', async () => {
        const body = await json(
          await env.get(
            `${BASE}/providers?taxonomy=Nurse%20Practitioner&state=tx&city=austin&limit=1&offset=1`,
            bearer(env.keys.free),
          ),
        );
        expect(body.pagination).toEqual({ total: 2, limit: 1, offset: 1, returned: 1 });
        expect(body.data[0].npi).toBe('1500000033');
      });

      it('reads a code unknown to NUCC from the unmapped partition', async () => {
        const unmapped = await json(await env.get(`${BASE}/providers?taxonomy=999Z00000X`, bearer(env.keys.free)));
        expect(unmapped.data.map((p: Json) => p.npi)).toEqual(['1700000007']);
      });
    });
  }

  describe('metering', () => {
    it('counts a free key without reporting usage, and returns 429 quota_exceeded on call 501', async () => {
      const key = (await env.keyStore.create({ plan: 'free' })).key;
      await setMonthlyUsage(env, key, 499);
      const url = `${BASE}/providers?vertical=glp1&limit=1`;
      const call500 = await env.get(url, bearer(key));
      expect(call500.status).toBe(200);
      expect(call500.headers.get('x-ratelimit-limit')).toBeNull();
      expect((await json(call500)).usage).toBeUndefined();
      const call501 = await env.get(url, bearer(key));
      expect(call501.status).toBe(429);
      expect(call501.headers.get('x-ratelimit-limit')).toBe('500');
      expect(call501.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(call501.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await json(call501)).toMatchObject({
        code: 'quota_exceeded',
        plan: 'free',
        usage: { used: 500, quota: 500 },
      });
    });

    it.each([
      ['free', 500],
      ['developer', 25000],
    ] as const)(
      'serves exactly twenty of fifty parallel calls on a %s key with twenty calls left, the rest 429',
      async (plan, quota) => {
        const key = (await env.keyStore.create({ plan })).key;
        await setMonthlyUsage(env, key, quota - 20);
        const responses = await Promise.all(
          Array.from({ length: 50 }, () => env.get(`${BASE}/providers?vertical=glp1&limit=1`, bearer(key))),
        );
        const statuses = responses.map((r) => r.status);
        expect(statuses.filter((s) => s === 200)).toHaveLength(20);
        expect(statuses.filter((s) => s === 429)).toHaveLength(30);
        const served = responses.filter((r) => r.status === 200);
        if (plan === 'free') {
          expect(served.every((r) => r.headers.get('x-ratelimit-limit') === null)).toBe(true);
        } else {
          const used = served.map((r) => Number(r.headers.get('x-ratelimit-used')));
          expect(used.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => quota - 19 + i));
        }
        const limited = responses.find((r) => r.status === 429) as Response;
        expect(limited.headers.get('x-ratelimit-limit')).toBe(String(quota));
        expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await json(limited)).toMatchObject({ code: 'quota_exceeded', plan, usage: { used: quota, quota } });
      },
    );

    it('does not count refused calls', async () => {
      const key = (await env.keyStore.create({ plan: 'developer' })).key;
      await env.get(`${BASE}/providers?vertical=glp1&limit=0`, bearer(key));
      await env.get(`${BASE}/providers/nope`, bearer(key));
      const res = await env.get(`${BASE}/providers?vertical=glp1`, bearer(key));
      expect(res.headers.get('x-ratelimit-used')).toBe('1');
    });
  });

  describe('logs', () => {
    it('have one line per request with method, redacted path, status and ms, and never a key', async () => {
      await env.get(`${BASE}/providers?vertical=glp1&key=${env.keys.free}`);
      await env.get(`${BASE}/providers?vertical=glp1`, { 'x-api-key': env.keys.builder });
      await env.get(`${BASE}/providers?vertical=glp1`, bearer(env.keys.developer));
      const all = env.logs.join('\n');
      for (const key of Object.values(env.keys)) expect(all).not.toContain(key);
      expect(all).toContain('"path":"/api/v1/providers?vertical=glp1&key=[redacted]"');
      const line = env.logs.map((l) => JSON.parse(l)).find((l) => String(l.path).includes('key=[redacted]'));
      expect(line).toMatchObject({ message: 'request', method: 'GET', status: 200, ms: expect.any(Number) });
    });
  });

  describe('snapshots', () => {
    it('picks up a new snapshot after the pointer TTL without a restart', async () => {
      const url = `${BASE}/providers?vertical=glp1`;
      const beforeRes = await env.get(url, bearer(env.keys.enterprise));
      const etagBefore = beforeRes.headers.get('etag') as string;
      const idBefore = beforeRes.headers.get('x-snapshot-id');
      const before = await json(beforeRes);
      expect(before.snapshot_id).toBe(idBefore);
      const conditional = { ...bearer(env.keys.enterprise), 'if-none-match': etagBefore };
      const coverageBefore = await json(await env.get(`${BASE}/coverage`));
      const work = await mkdtemp(path.join(tmpdir(), 'pf-next-'));
      let id: string;
      try {
        const next = await withExtraProvider(SNAPSHOTS[snap.name].inputs(), work, {
          entity_id: 'glp1-zz-new',
          slug: 'zz-new-clinic',
          name: 'Zz New Clinic',
        });
        id = await publishEtlSnapshot(env.store, new Date('2026-11-01T00:00:00Z'), next);
      } finally {
        await rm(work, { recursive: true, force: true });
      }
      const stillOld = await json(await env.get(url, bearer(env.keys.enterprise)));
      expect(stillOld.pagination.total).toBe(before.pagination.total);
      expect((await json(await env.get(`${BASE}/coverage`))).generated_at).toBe(coverageBefore.generated_at);
      expect((await env.get(url, conditional)).status).toBe(304);
      env.advanceClock(61_000);
      const afterRes = await env.get(url, conditional);
      expect(afterRes.status).toBe(200);
      expect(afterRes.headers.get('etag')).not.toBe(etagBefore);
      expect(afterRes.headers.get('x-snapshot-id')).toBe(id);
      expect(afterRes.headers.get('x-data-as-of')).toBe('2026-11-01T00:00:00Z');
      const after = await json(afterRes);
      expect(after).toMatchObject({ snapshot_id: id, as_of: '2026-11-01T00:00:00Z' });
      expect(after.pagination.total).toBe(before.pagination.total + 1);
      expect(
        (await env.get(url, { ...conditional, 'if-none-match': afterRes.headers.get('etag') as string })).status,
      ).toBe(304);
      expect((await json(await env.get(`${BASE}/coverage`))).generated_at).toBe('2026-11-01T00:00:00Z');
      expect(env.runtime.snapshots.currentId).toBe(id);
      expect((await env.get(`${BASE}/providers/zz-new-clinic`, bearer(env.keys.enterprise))).status).toBe(200);
    });
  });

  describe('metering fails open', () => {
    it('serves calls without rate-limit headers once the DynamoDB endpoint is stopped', async () => {
      const key = env.keys.developer;
      // Warm the key cache, then stop DynamoDB: the key stays known for the cache TTL, the meter cannot answer.
      const warm = await env.get(`${BASE}/providers?vertical=glp1`, bearer(key));
      expect(warm.headers.get('x-ratelimit-limit')).toBe(String(PLAN_RULES.developer.monthlyQuota));
      const stopped = env.dynalite.stop();
      env.dynalite.server.closeAllConnections();
      await stopped;
      const res = await env.get(`${BASE}/providers?vertical=glp1`, bearer(key));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
      expect((await json(res)).usage).toBeUndefined();
      expect(env.logs.some((l) => l.includes('metering_unavailable'))).toBe(true);
    });
  });
});
