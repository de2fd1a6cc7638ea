/**
 * The API end to end over a folder store: real DuckDB over Parquet, dynalite through the real SDK clients,
 * the node:http adapter (fetch) and the Lambda adapter.
 */
import { PRICING_URL } from '../../../../data-contracts/constants';
import {
  FREE_PROVIDER_CSV_COLUMNS,
  IDENTITY_CSV_COLUMNS,
  PAID_PROVIDER_CSV_COLUMNS,
} from '../../../../data-contracts/csv';
import { FIXTURE_VERTICAL_ROWS, publishFixtureSnapshot } from '../../../helpers/api-snapshot-fixture';
import { type ApiTestEnv, bearer, setMonthlyUsage, startApiTestEnv } from '../../../helpers/api-test-env';
import { apiGatewayEvent } from '../../../helpers/apigw-event';

const BASE = '/api/v1';
let env: ApiTestEnv;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field by the assertions.
type Json = Record<string, any>;
const json = async (res: Response): Promise<Json> => (await res.json()) as Json;

beforeAll(async () => {
  // A generous metering timeout: fifty parallel conditional writes on dynalite can take longer than 250 ms.
  env = await startApiTestEnv({ storage: 'folder', snapshot: 'fixture', meterTimeoutMs: 3000 });
});
afterAll(async () => {
  await env?.close();
});

const verifiedRows = FIXTURE_VERTICAL_ROWS.filter((r) => r.publish_tier === 'verified');
const trackedOnly = FIXTURE_VERTICAL_ROWS.find((r) => r.publish_tier === 'internal_only');

describe('authentication', () => {
  it('returns 401 key_required without a key', async () => {
    const res = await env.get(`${BASE}/providers?vertical=glp1`);
    expect(res.status).toBe(401);
    expect((await json(res)).code).toBe('key_required');
  });

  it('returns 401 invalid_key for an unknown key', async () => {
    const res = await env.get(
      `${BASE}/providers?vertical=glp1`,
      bearer('pf_unknownunknownunknownunknownunknownunknown1'),
    );
    expect(res.status).toBe(401);
    expect((await json(res)).code).toBe('invalid_key');
  });

  it('accepts the key as Bearer, as x-api-key and as key=', async () => {
    const k = env.keys.developer;
    for (const [url, headers] of [
      [`${BASE}/providers?vertical=glp1`, bearer(k)],
      [`${BASE}/providers?vertical=glp1`, { 'x-api-key': k }],
      [`${BASE}/providers?vertical=glp1&key=${k}`, {}],
    ] as const) {
      const res = await env.get(url, headers);
      expect(res.status).toBe(200);
    }
  });

  it('lets Bearer win over x-api-key and x-api-key win over key=', async () => {
    const bad = 'pf_badbadbadbadbadbadbadbadbadbadbadbadbadbadbad';
    const a = await env.get(`${BASE}/providers?vertical=glp1&key=${bad}`, {
      ...bearer(env.keys.free),
      'x-api-key': bad,
    });
    expect(a.status).toBe(200);
    expect((await json(a)).plan).toBe('free');
    const b = await env.get(`${BASE}/providers?vertical=glp1`, { ...bearer(bad), 'x-api-key': env.keys.free });
    expect(b.status).toBe(401);
    const c = await env.get(`${BASE}/providers?vertical=glp1&key=${bad}`, { 'x-api-key': env.keys.enterprise });
    expect((await json(c)).plan).toBe('enterprise');
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
  it('returns the verified layer ordered by name then entity_id, with locked paid fields for a free key', async () => {
    const res = await env.get(`${BASE}/providers?vertical=glp1`, bearer(env.keys.free));
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ tier: 'free', plan: 'free', publish_boundary: 'verified' });
    expect(body.pagination).toEqual({
      total: verifiedRows.length,
      limit: 50,
      offset: 0,
      returned: verifiedRows.length,
    });
    const names = body.data.map((p: Json) => p.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const p of body.data) {
      for (const f of ['certification', 'license', 'fda', 'price'])
        expect(p[f]).toEqual({ locked: true, unlock: expect.stringContaining(PRICING_URL) });
      expect(p.oig).toBeDefined();
      expect(p.publish_tier).toBeUndefined();
    }
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    expect(body.usage).toBeUndefined();
  });

  it('returns paid fields, usage and X-RateLimit headers for builder and developer keys', async () => {
    for (const plan of ['builder', 'developer'] as const) {
      const res = await env.get(`${BASE}/providers?vertical=glp1&limit=2`, bearer(env.keys[plan]));
      const body = await json(res);
      expect(res.status).toBe(200);
      expect(body.tier).toBe('paid');
      expect(body.data[0].certification.status).toBeDefined();
      expect(body.usage.quota).toBe(plan === 'builder' ? 5000 : 25000);
      expect(res.headers.get('x-ratelimit-limit')).toBe(String(body.usage.quota));
      expect(res.headers.get('x-ratelimit-used')).toBe(String(body.usage.used));
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBe(body.usage.quota - body.usage.used);
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
    }
  });

  it('serves enterprise unmetered: paid fields without usage or rate-limit headers', async () => {
    const res = await env.get(`${BASE}/providers?vertical=glp1`, bearer(env.keys.enterprise));
    const body = await json(res);
    expect(body.tier).toBe('paid');
    expect(body.usage).toBeUndefined();
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('matches state and city case-insensitively', async () => {
    const res = await env.get(`${BASE}/providers?vertical=glp1&state=tx&city=aUsTiN`, bearer(env.keys.enterprise));
    const body = await json(res);
    const expected = verifiedRows.filter((r) => r.state === 'TX' && String(r.city).toLowerCase() === 'austin');
    expect(body.pagination.total).toBe(expected.length);
    expect(body.filters).toEqual({
      vertical: 'glp1',
      taxonomy: null,
      state: 'TX',
      city: 'aUsTiN',
      business_mode: null,
    });
  });

  it('filters by business_mode and pages with limit and offset', async () => {
    const all = await json(await env.get(`${BASE}/providers?vertical=glp1`, bearer(env.keys.enterprise)));
    const page = await json(
      await env.get(`${BASE}/providers?vertical=glp1&limit=2&offset=2`, bearer(env.keys.enterprise)),
    );
    expect(page.data.map((p: Json) => p.entity_id)).toEqual(all.data.slice(2, 4).map((p: Json) => p.entity_id));
    const physical = await json(
      await env.get(`${BASE}/providers?vertical=glp1&business_mode=physical`, bearer(env.keys.enterprise)),
    );
    expect(physical.data.every((p: Json) => p.business_mode === 'physical')).toBe(true);
  });

  it('accepts offset equal to total and refuses offset beyond it with 400 invalid_offset', async () => {
    const n = verifiedRows.length;
    const at = await env.get(`${BASE}/providers?vertical=glp1&offset=${n}`, bearer(env.keys.enterprise));
    expect(at.status).toBe(200);
    expect((await json(at)).data).toEqual([]);
    const beyond = await env.get(`${BASE}/providers?vertical=glp1&offset=${n + 1}`, bearer(env.keys.enterprise));
    expect(beyond.status).toBe(400);
    expect((await json(beyond)).code).toBe('invalid_offset');
    const empty = await env.get(`${BASE}/providers?vertical=glp1&state=WY&offset=0`, bearer(env.keys.enterprise));
    expect(empty.status).toBe(200);
  });

  it('returns no data for a vertical that is not live, with a notice', async () => {
    const res = await env.get(`${BASE}/providers?vertical=medspa`, bearer(env.keys.developer));
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(body.data).toEqual([]);
    expect(body.notice).toContain('medspa');
  });

  it('honours include=tracked for a free key in JSON: tracked boundary and publish_tier on every row', async () => {
    const res = await env.get(`${BASE}/providers?vertical=glp1&include=tracked`, bearer(env.keys.free));
    const body = await json(res);
    expect(body.publish_boundary).toBe('tracked');
    expect(body.pagination.total).toBe(FIXTURE_VERTICAL_ROWS.length);
    expect(body.data.every((p: Json) => p.publish_tier === 'verified' || p.publish_tier === 'internal_only')).toBe(
      true,
    );
    expect(body.data.some((p: Json) => p.publish_tier === 'internal_only')).toBe(true);
  });

  it('ignores include=tracked for paid keys and CSV (verified only)', async () => {
    const paid = await json(
      await env.get(`${BASE}/providers?vertical=glp1&include=tracked`, bearer(env.keys.developer)),
    );
    expect(paid.publish_boundary).toBe('verified');
    expect(paid.data.some((p: Json) => p.entity_id === trackedOnly?.entity_id)).toBe(false);
    expect(paid.data[0].publish_tier).toBeUndefined();
    const csv = await (
      await env.get(`${BASE}/providers?vertical=glp1&include=tracked&format=csv`, bearer(env.keys.free))
    ).text();
    expect(csv).not.toContain(String(trackedOnly?.entity_id));
  });

  it('refuses a builder key outside its vertical with 403 vertical_not_permitted and an upgrade text', async () => {
    const res = await env.get(`${BASE}/providers?vertical=medspa`, bearer(env.keys.builder));
    expect(res.status).toBe(403);
    const body = await json(res);
    expect(body).toMatchObject({ code: 'vertical_not_permitted', plan: 'builder' });
    expect(body.upgrade).toContain(PRICING_URL);
  });

  it.each([
    ['vertical=nope', 'invalid_vertical'],
    ['vertical=glp1&business_mode=mobile', 'invalid_business_mode'],
    ['vertical=glp1&limit=0', 'invalid_limit'],
    ['vertical=glp1&limit=1001', 'invalid_limit'],
    ['vertical=glp1&limit=1.5', 'invalid_limit'],
    ['vertical=glp1&offset=-1', 'invalid_offset'],
    ['vertical=glp1&offset=abc', 'invalid_offset'],
    ['vertical=glp1&format=xml', 'invalid_parameter'],
    ['vertical=glp1&include=all', 'invalid_parameter'],
    ['vertical=glp1&state=Texas', 'invalid_parameter'],
    ['state=TX', 'invalid_parameter'],
  ])('returns 400 for %s (%s)', async (query, code) => {
    const res = await env.get(`${BASE}/providers?${query}`, bearer(env.keys.developer));
    expect(res.status).toBe(400);
    expect((await json(res)).code).toBe(code);
  });
});

describe('CSV', () => {
  it('returns an attachment with the free column set for a free key', async () => {
    const res = await env.get(`${BASE}/providers?vertical=glp1&format=csv&limit=3&offset=1`, bearer(env.keys.free));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="providers-glp1-1.csv"');
    const lines = (await res.text()).split('\r\n');
    expect(lines[0]).toBe(FREE_PROVIDER_CSV_COLUMNS.join(','));
    expect(lines.filter((l) => l !== '')).toHaveLength(4);
  });

  it('returns every signal flattened for a paid key, with formula cells neutralised', async () => {
    const res = await env.get(`${BASE}/providers?vertical=glp1&format=csv`, bearer(env.keys.developer));
    const text = await res.text();
    expect(text.split('\r\n')[0]).toBe(PAID_PROVIDER_CSV_COLUMNS.join(','));
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(res.headers.get('x-ratelimit-limit')).toBe('25000');
  });

  it('returns identity rows with the identity column set', async () => {
    const res = await env.get(`${BASE}/providers?taxonomy=Nurse%20Practitioner&format=csv`, bearer(env.keys.free));
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="providers-nurse-practitioner-0.csv"');
    const text = await res.text();
    expect(text.split('\r\n')[0]).toBe(IDENTITY_CSV_COLUMNS.join(','));
    expect(text).toContain("'@SUM(1+1)");
  });
});

describe('identity list', () => {
  it('lists by a taxonomy code, ordered by NPI, identity rows always locked', async () => {
    const res = await env.get(`${BASE}/providers?taxonomy=363l00000x`, bearer(env.keys.enterprise));
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(body.layer).toBe('identity');
    expect(body.publish_boundary).toBeUndefined();
    expect(body.data.every((p: Json) => p.taxonomy_code === '363L00000X')).toBe(true);
    const npis = body.data.map((p: Json) => p.npi);
    expect(npis).toEqual([...npis].sort());
    for (const p of body.data) {
      expect(p).toMatchObject({ layer: 'identity', source: 'NPPES', price: { locked: true } });
    }
  });

  it('lists by a classification name case-insensitively, one row per NPI', async () => {
    const body = await json(await env.get(`${BASE}/providers?taxonomy=nurse%20PRACTITIONER`, bearer(env.keys.free)));
    const npis = body.data.map((p: Json) => p.npi);
    expect(new Set(npis).size).toBe(npis.length);
    expect(npis).toContain('1500000029');
    expect(body.pagination.total).toBe(5);
  });

  it('combines state and city (case-insensitive) with limit and offset', async () => {
    const body = await json(
      await env.get(
        `${BASE}/providers?taxonomy=Nurse%20Practitioner&state=tx&city=austin&limit=1&offset=1`,
        bearer(env.keys.free),
      ),
    );
    expect(body.pagination).toEqual({ total: 2, limit: 1, offset: 1, returned: 1 });
    expect(body.data[0].npi).toBe('1500000037');
  });

  it('reads a code unknown to NUCC from the unmapped partition, and an unknown name as an empty page', async () => {
    const unmapped = await json(await env.get(`${BASE}/providers?taxonomy=999Z00000X`, bearer(env.keys.free)));
    expect(unmapped.data.map((p: Json) => p.npi)).toEqual(['1700000009']);
    const unknown = await env.get(`${BASE}/providers?taxonomy=Astronaut`, bearer(env.keys.free));
    expect(unknown.status).toBe(200);
    expect((await json(unknown)).pagination.total).toBe(0);
  });

  it('lets a builder key use the identity path', async () => {
    expect((await env.get(`${BASE}/providers?taxonomy=101Y00000X`, bearer(env.keys.builder))).status).toBe(200);
  });

  it('refuses an offset beyond the identity result', async () => {
    const res = await env.get(`${BASE}/providers?taxonomy=101Y00000X&offset=2`, bearer(env.keys.free));
    expect(res.status).toBe(400);
    expect((await json(res)).code).toBe('invalid_offset');
  });
});

describe('detail', () => {
  it('finds a provider by entity_id and by slug, through both trailing-slash forms', async () => {
    const row = verifiedRows[0];
    for (const id of [row?.entity_id, `${row?.slug}/`]) {
      const res = await env.get(`${BASE}/providers/${id}`, bearer(env.keys.developer));
      expect(res.status).toBe(200);
      expect((await json(res)).data.entity_id).toBe(row?.entity_id);
    }
  });

  it('returns 404 not_found for an unknown id and for a tracked-only record without include=tracked', async () => {
    for (const id of ['nope', trackedOnly?.slug]) {
      const res = await env.get(`${BASE}/providers/${id}`, bearer(env.keys.free));
      expect(res.status).toBe(404);
      expect((await json(res)).code).toBe('not_found');
    }
  });

  it('shows a tracked-only record to a free key with include=tracked, with publish_tier', async () => {
    const res = await env.get(`${BASE}/providers/${trackedOnly?.slug}?include=tracked`, bearer(env.keys.free));
    const body = await json(res);
    expect(body.publish_boundary).toBe('tracked');
    expect(body.data.publish_tier).toBe('internal_only');
    const paid = await env.get(`${BASE}/providers/${trackedOnly?.slug}?include=tracked`, bearer(env.keys.developer));
    expect(paid.status).toBe(404);
  });
});

describe('public endpoints', () => {
  it('serves coverage and the sample without a key, with a Cache-Control', async () => {
    for (const p of ['/coverage', '/coverage/', '/sample', '/sample/']) {
      const res = await env.get(`${BASE}${p}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    }
    const sample = await json(await env.get(`${BASE}/sample`));
    expect(sample.publish_boundary).toBe('verified');
    const trackedIds = new Set(
      FIXTURE_VERTICAL_ROWS.filter((r) => r.publish_tier !== 'verified').map((r) => r.entity_id),
    );
    expect(sample.data.some((p: Json) => trackedIds.has(p.entity_id))).toBe(false);
  });

  it('serves the sample as CSV', async () => {
    const res = await env.get(`${BASE}/sample?format=csv`);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect((await res.text()).split('\r\n')[0]).toBe(PAID_PROVIDER_CSV_COLUMNS.join(','));
  });

  it('serves the OpenAPI document', async () => {
    const res = await env.get(`${BASE}/openapi.json`);
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

describe('metering', () => {
  it('serves exactly twenty of fifty parallel calls on a key with twenty calls left, the rest 429', async () => {
    const key = (await env.keyStore.create({ plan: 'free' })).key;
    await setMonthlyUsage(env, key, 480);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => env.get(`${BASE}/providers?vertical=glp1&limit=1`, bearer(key))),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    const limited = responses.find((r) => r.status === 429) as Response;
    expect(limited.headers.get('x-ratelimit-limit')).toBe('500');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = await json(limited);
    expect(body).toMatchObject({ code: 'quota_exceeded', usage: { used: 500, quota: 500 }, plan: 'free' });
    const ok = responses.find((r) => r.status === 200) as Response;
    expect(ok.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('does not count refused calls', async () => {
    const key = (await env.keyStore.create({ plan: 'developer' })).key;
    await env.get(`${BASE}/providers?vertical=glp1&limit=0`, bearer(key));
    await env.get(`${BASE}/providers/nope`, bearer(key));
    const res = await env.get(`${BASE}/providers?vertical=glp1`, bearer(key));
    expect(res.headers.get('x-ratelimit-used')).toBe('1');
  });
});

describe('lambda and node adapters', () => {
  const event = apiGatewayEvent;

  it('give the same status, headers and body for a list, a detail, an error and a CSV', async () => {
    const key = env.keys.enterprise;
    const cases: [string, string][] = [
      [`${BASE}/providers`, 'vertical=glp1&limit=3'],
      [`${BASE}/providers/${verifiedRows[0]?.slug}`, ''],
      [`${BASE}/providers`, 'vertical=nope'],
      [`${BASE}/providers`, 'vertical=glp1&format=csv'],
      [`${BASE}/sample`, 'format=csv'],
    ];
    for (const [p, q] of cases) {
      const node = await env.get(`${p}${q ? `?${q}` : ''}`, bearer(key));
      const nodeBody = await node.text();
      const lambda = (await env.lambda(event(p, q, bearer(key)) as never, {} as never)) as {
        statusCode: number;
        headers: Record<string, string>;
        body: string;
        isBase64Encoded: boolean;
      };
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
});

describe('logs', () => {
  it('never contain a key, not even one sent as key=', async () => {
    await env.get(`${BASE}/providers?vertical=glp1&key=${env.keys.free}`);
    await env.get(`${BASE}/providers?vertical=glp1`, bearer(env.keys.developer));
    const all = env.logs.join('\n');
    for (const key of Object.values(env.keys)) expect(all).not.toContain(key);
    expect(all).toContain('"path":"/api/v1/providers?vertical=glp1&key=[redacted]"');
  });
});

describe('snapshots', () => {
  it('picks up a new snapshot after the pointer TTL without a restart', async () => {
    const before = await json(await env.get(`${BASE}/providers?vertical=glp1`, bearer(env.keys.enterprise)));
    const extra = { ...FIXTURE_VERTICAL_ROWS[0], entity_id: 'glp1-0999', slug: 'zz-new-clinic', name: 'Zz New Clinic' };
    await publishFixtureSnapshot({
      store: env.store,
      snapshotTime: new Date('2026-07-01T00:00:00Z'),
      tag: 'second',
      verticalRows: [...FIXTURE_VERTICAL_ROWS, extra as (typeof FIXTURE_VERTICAL_ROWS)[number]],
    });
    const stillOld = await json(await env.get(`${BASE}/providers?vertical=glp1`, bearer(env.keys.enterprise)));
    expect(stillOld.pagination.total).toBe(before.pagination.total);
    env.advanceClock(61_000);
    const after = await json(await env.get(`${BASE}/providers?vertical=glp1`, bearer(env.keys.enterprise)));
    expect(after.pagination.total).toBe(before.pagination.total + 1);
    expect(env.runtime.snapshots.currentId).toBe('20260701T000000Z-second');
  });
});

describe('metering fails open', () => {
  it('serves calls without rate-limit headers once the DynamoDB endpoint is stopped', async () => {
    const key = env.keys.developer;
    // Warm the key cache, then stop DynamoDB: the key stays known for the cache TTL, the meter cannot answer.
    expect((await env.get(`${BASE}/providers?vertical=glp1`, bearer(key))).headers.get('x-ratelimit-limit')).toBe(
      '25000',
    );
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
