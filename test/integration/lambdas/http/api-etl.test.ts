/**
 * The API end to end on the real ETL's output of the real sample files (and the demo glp1 feed), served from a
 * folder store: real DuckDB over Parquet, dynalite through the real SDK clients, node:http and Lambda adapters.
 * Expectations are derived from the data itself (full pages read with an enterprise key), not hard-coded.
 */
import { PRICING_URL } from '../../../../data-contracts/constants';
import {
  FREE_PROVIDER_CSV_COLUMNS,
  IDENTITY_CSV_COLUMNS,
  PAID_PROVIDER_CSV_COLUMNS,
} from '../../../../data-contracts/csv';
import {
  type ApiTestEnv,
  bearer,
  publishEtlSnapshot,
  setMonthlyUsage,
  startApiTestEnv,
} from '../../../helpers/api-test-env';

const BASE = '/api/v1';
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field by the assertions.
type Json = Record<string, any>;
const json = async (res: Response): Promise<Json> => (await res.json()) as Json;

let env: ApiTestEnv;
let verified: Json[];
let tracked: Json[];
let trackedOnly: Json;
let counselors: Json[];

beforeAll(async () => {
  // A generous metering timeout: fifty parallel conditional writes on dynalite can take longer than 250 ms.
  env = await startApiTestEnv({ storage: 'folder', meterTimeoutMs: 3000 });
  verified = (await json(await env.get(`${BASE}/providers?vertical=glp1&limit=1000`, bearer(env.keys.enterprise))))
    .data;
  tracked = (
    await json(await env.get(`${BASE}/providers?vertical=glp1&limit=1000&include=tracked`, bearer(env.keys.free)))
  ).data;
  trackedOnly = tracked.find((p) => p.publish_tier === 'internal_only') as Json;
  counselors = (
    await json(await env.get(`${BASE}/providers?taxonomy=Counselor&limit=1000`, bearer(env.keys.enterprise)))
  ).data;
});
afterAll(async () => {
  await env?.close();
});

describe('the data', () => {
  it('holds the verified and tracked sets of the demo feed and identity rows', () => {
    expect(verified.length).toBe(200);
    expect(tracked.length).toBe(340);
    expect(trackedOnly).toBeDefined();
    expect(counselors.length).toBeGreaterThan(1);
  });
});

describe('every plan on the vertical path', () => {
  it('serves free keys identity fields with locked paid fields, no usage, no rate-limit headers', async () => {
    const res = await env.get(`${BASE}/providers?vertical=glp1&limit=5`, bearer(env.keys.free));
    const body = await json(res);
    expect(body).toMatchObject({ tier: 'free', plan: 'free', publish_boundary: 'verified' });
    for (const p of body.data) {
      for (const f of ['certification', 'license', 'fda', 'price']) expect(p[f].locked).toBe(true);
      expect(p.oig).toBeDefined();
    }
    expect(body.usage).toBeUndefined();
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it.each([
    ['builder', 5000],
    ['developer', 25000],
  ] as const)('serves %s keys paid fields with usage and X-RateLimit headers', async (plan, quota) => {
    const res = await env.get(`${BASE}/providers?vertical=glp1&limit=5`, bearer(env.keys[plan]));
    const body = await json(res);
    expect(body.tier).toBe('paid');
    expect(body.data[0].certification.status).toEqual(expect.any(String));
    expect(body.usage).toEqual({ used: expect.any(Number), quota });
    expect(res.headers.get('x-ratelimit-limit')).toBe(String(quota));
    expect(res.headers.get('x-ratelimit-used')).toBe(String(body.usage.used));
  });

  it('serves enterprise keys paid fields unmetered', async () => {
    const res = await env.get(`${BASE}/providers?vertical=glp1&limit=5`, bearer(env.keys.enterprise));
    expect((await json(res)).usage).toBeUndefined();
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('orders rows by name then entity_id', () => {
    const keys = verified.map((p) => [p.name, p.entity_id]);
    const sorted = [...keys].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1));
    expect(keys).toEqual(sorted);
  });

  it('matches state and city case-insensitively', async () => {
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
  });

  it('filters by business_mode and pages consistently', async () => {
    const online = await json(
      await env.get(`${BASE}/providers?vertical=glp1&business_mode=online&limit=1000`, bearer(env.keys.enterprise)),
    );
    expect(online.pagination.total).toBe(verified.filter((p) => p.business_mode === 'online').length);
    const page = await json(
      await env.get(`${BASE}/providers?vertical=glp1&limit=7&offset=13`, bearer(env.keys.enterprise)),
    );
    expect(page.data.map((p: Json) => p.entity_id)).toEqual(verified.slice(13, 20).map((p) => p.entity_id));
  });

  it('accepts offset = total and refuses offset > total with 400 invalid_offset', async () => {
    const at = await env.get(`${BASE}/providers?vertical=glp1&offset=200`, bearer(env.keys.enterprise));
    expect(at.status).toBe(200);
    const beyond = await env.get(`${BASE}/providers?vertical=glp1&offset=201`, bearer(env.keys.enterprise));
    expect(beyond.status).toBe(400);
    expect((await json(beyond)).code).toBe('invalid_offset');
  });

  it('honours include=tracked for a free key in JSON only', async () => {
    expect(tracked.every((p) => p.publish_tier === 'verified' || p.publish_tier === 'internal_only')).toBe(true);
    const paid = await json(
      await env.get(`${BASE}/providers?vertical=glp1&include=tracked&limit=1000`, bearer(env.keys.developer)),
    );
    expect(paid.publish_boundary).toBe('verified');
    expect(paid.pagination.total).toBe(200);
    expect(paid.data.some((p: Json) => p.entity_id === trackedOnly.entity_id)).toBe(false);
    const csv = await (
      await env.get(`${BASE}/providers?vertical=glp1&include=tracked&format=csv&limit=1000`, bearer(env.keys.free))
    ).text();
    expect(csv).not.toContain(trackedOnly.entity_id);
    expect(csv.split('\r\n').filter((l) => l !== '')).toHaveLength(201);
  });

  it('refuses a builder key outside its vertical with 403 and an upgrade text, on list and detail', async () => {
    const res = await env.get(`${BASE}/providers?vertical=dental`, bearer(env.keys.builder));
    expect(res.status).toBe(403);
    const body = await json(res);
    expect(body).toMatchObject({ code: 'vertical_not_permitted', plan: 'builder' });
    expect(body.upgrade).toContain(PRICING_URL);
  });

  it('returns no data for a vertical that is not live', async () => {
    const body = await json(await env.get(`${BASE}/providers?vertical=pet_health`, bearer(env.keys.developer)));
    expect(body.data).toEqual([]);
    expect(body.pagination.total).toBe(0);
  });
});

describe('identity path', () => {
  it('lists a classification name case-insensitively, one row per NPI, ordered by NPI', async () => {
    const body = await json(await env.get(`${BASE}/providers?taxonomy=cOuNsElOr&limit=1000`, bearer(env.keys.free)));
    const npis = body.data.map((p: Json) => p.npi);
    expect(npis).toEqual([...npis].sort());
    expect(new Set(npis).size).toBe(npis.length);
    expect(body.data.every((p: Json) => p.layer === 'identity' && p.source === 'NPPES' && p.price.locked)).toBe(true);
  });

  it('lists a 10-character code, lower case accepted', async () => {
    const code = counselors[0]?.taxonomy_code as string;
    const body = await json(
      await env.get(`${BASE}/providers?taxonomy=${code.toLowerCase()}&limit=1000`, bearer(env.keys.builder)),
    );
    expect(body.pagination.total).toBeGreaterThan(0);
    expect(body.data.every((p: Json) => p.taxonomy_code === code)).toBe(true);
  });

  it('combines state and city case-insensitively with limit and offset', async () => {
    const probe = counselors.find((p) => p.city && p.state) as Json;
    const expected = counselors.filter(
      (p) => p.state === probe.state && String(p.city).toLowerCase() === String(probe.city).toLowerCase(),
    );
    const body = await json(
      await env.get(
        `${BASE}/providers?taxonomy=Counselor&state=${String(probe.state).toLowerCase()}&city=${encodeURIComponent(String(probe.city).toLowerCase())}&limit=1&offset=0`,
        bearer(env.keys.free),
      ),
    );
    expect(body.pagination).toEqual({ total: expected.length, limit: 1, offset: 0, returned: 1 });
    expect(body.data[0].npi).toBe(expected[0]?.npi);
  });

  it('refuses offset > total on the identity path', async () => {
    const res = await env.get(
      `${BASE}/providers?taxonomy=Counselor&offset=${counselors.length + 1}`,
      bearer(env.keys.free),
    );
    expect(res.status).toBe(400);
    expect((await json(res)).code).toBe('invalid_offset');
  });

  it('returns identity CSV with the identity columns', async () => {
    const res = await env.get(`${BASE}/providers?taxonomy=Counselor&format=csv&offset=1`, bearer(env.keys.developer));
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="providers-counselor-1.csv"');
    expect((await res.text()).split('\r\n')[0]).toBe(IDENTITY_CSV_COLUMNS.join(','));
  });
});

describe('detail, CSV and public endpoints', () => {
  it('finds a provider by entity_id and by slug with and without a trailing slash', async () => {
    const p = verified[0] as Json;
    for (const id of [p.entity_id, p.slug, `${p.slug}/`]) {
      const res = await env.get(`${BASE}/providers/${id}`, bearer(env.keys.builder));
      expect(res.status).toBe(200);
      expect((await json(res)).data.entity_id).toBe(p.entity_id);
    }
  });

  it('hides a tracked-only record unless a free key asks include=tracked', async () => {
    expect((await env.get(`${BASE}/providers/${trackedOnly.slug}`, bearer(env.keys.free))).status).toBe(404);
    const body = await json(
      await env.get(`${BASE}/providers/${trackedOnly.slug}?include=tracked`, bearer(env.keys.free)),
    );
    expect(body.data.publish_tier).toBe('internal_only');
    expect(
      (await env.get(`${BASE}/providers/${trackedOnly.slug}?include=tracked`, bearer(env.keys.enterprise))).status,
    ).toBe(404);
  });

  it('serves CSV pages in the tier column set with the same paging as JSON', async () => {
    const free = await env.get(`${BASE}/providers?vertical=glp1&format=csv&limit=10&offset=5`, bearer(env.keys.free));
    expect(free.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(free.headers.get('content-disposition')).toBe('attachment; filename="providers-glp1-5.csv"');
    const freeLines = (await free.text()).split('\r\n').filter((l) => l !== '');
    expect(freeLines[0]).toBe(FREE_PROVIDER_CSV_COLUMNS.join(','));
    expect(freeLines.slice(1).map((l) => l.split(',')[0])).toEqual(verified.slice(5, 15).map((p) => p.entity_id));
    const paid = await (await env.get(`${BASE}/providers?vertical=glp1&format=csv`, bearer(env.keys.developer))).text();
    expect(paid.split('\r\n')[0]).toBe(PAID_PROVIDER_CSV_COLUMNS.join(','));
  });

  it('serves coverage, the verified-only sample (JSON and CSV) and the document without a key', async () => {
    const coverage = await json(await env.get(`${BASE}/coverage/`));
    expect(coverage.verified.total).toBe(200);
    const sample = await json(await env.get(`${BASE}/sample/`));
    expect(sample.size).toBe(50);
    const internal = new Set(tracked.filter((p) => p.publish_tier === 'internal_only').map((p) => p.entity_id));
    expect(sample.data.some((p: Json) => internal.has(p.entity_id))).toBe(false);
    const csv = await (await env.get(`${BASE}/sample?format=csv`)).text();
    for (const id of internal) expect(csv).not.toContain(`${id},`);
    expect((await env.get(`${BASE}/openapi.json`)).status).toBe(200);
  });

  it.each([
    ['/providers?vertical=x', 400, 'invalid_vertical'],
    ['/providers?vertical=glp1&business_mode=x', 400, 'invalid_business_mode'],
    ['/providers?vertical=glp1&limit=01', 400, 'invalid_limit'],
    ['/providers?vertical=glp1&offset=1.5', 400, 'invalid_offset'],
    ['/providers?vertical=glp1&format=pdf', 400, 'invalid_parameter'],
    ['/providers/does-not-exist', 404, 'not_found'],
    ['/nothing-here', 404, 'not_found'],
  ])('answers %s with %i %s', async (url, status, code) => {
    const res = await env.get(`${BASE}${url}`, bearer(env.keys.developer));
    expect(res.status).toBe(status);
    expect((await json(res)).code).toBe(code);
  });

  it('answers 401 key_required and invalid_key, whatever the parameters', async () => {
    expect((await json(await env.get(`${BASE}/providers?vertical=x`))).code).toBe('key_required');
    expect((await json(await env.get(`${BASE}/providers/x`, { 'x-api-key': 'nope' }))).code).toBe('invalid_key');
  });
});

describe('auth methods', () => {
  it('accepts Bearer, x-api-key and key=, and lets Bearer win, then the header', async () => {
    const { free, developer, enterprise } = env.keys;
    const plan = async (url: string, headers: Record<string, string>) => (await json(await env.get(url, headers))).plan;
    const url = `${BASE}/providers?vertical=glp1&limit=1`;
    expect(await plan(url, bearer(free))).toBe('free');
    expect(await plan(url, { 'x-api-key': free })).toBe('free');
    expect(await plan(`${url}&key=${free}`, {})).toBe('free');
    expect(await plan(`${url}&key=${enterprise}`, { ...bearer(free), 'x-api-key': developer })).toBe('free');
    expect(await plan(`${url}&key=${enterprise}`, { 'x-api-key': developer })).toBe('developer');
  });
});

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

  it('serves exactly twenty of fifty parallel calls on a key with twenty calls left; the rest get 429', async () => {
    const key = (await env.keyStore.create({ plan: 'developer' })).key;
    await setMonthlyUsage(env, key, 25000 - 20);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => env.get(`${BASE}/providers?vertical=glp1&limit=1`, bearer(key))),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    const used = responses.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-ratelimit-used')));
    expect(used.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => 24981 + i));
    const limited = responses.find((r) => r.status === 429) as Response;
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await json(limited)).toMatchObject({ code: 'quota_exceeded', usage: { used: 25000, quota: 25000 } });
  });
});

describe('logs', () => {
  it('have one line per request with method, redacted path, status and ms, and never a key', async () => {
    await env.get(`${BASE}/providers?vertical=glp1&key=${env.keys.free}`);
    await env.get(`${BASE}/providers?vertical=glp1`, { 'x-api-key': env.keys.builder });
    const all = env.logs.join('\n');
    for (const key of Object.values(env.keys)) expect(all).not.toContain(key);
    const line = env.logs.map((l) => JSON.parse(l)).find((l) => String(l.path).includes('key=[redacted]'));
    expect(line).toMatchObject({ message: 'request', method: 'GET', status: 200, ms: expect.any(Number) });
  });
});

describe('snapshots', () => {
  it('pick up a new snapshot after the pointer TTL, without a restart', async () => {
    const before = await json(await env.get(`${BASE}/coverage`));
    const id = await publishEtlSnapshot(env.store, new Date('2026-11-01T00:00:00Z'));
    expect((await json(await env.get(`${BASE}/coverage`))).generated_at).toBe(before.generated_at);
    env.advanceClock(61_000);
    expect((await json(await env.get(`${BASE}/coverage`))).generated_at).toBe('2026-11-01T00:00:00Z');
    expect(env.runtime.snapshots.currentId).toBe(id);
    expect((await env.get(`${BASE}/providers?vertical=glp1`, bearer(env.keys.enterprise))).status).toBe(200);
  });
});

describe('metering fails open', () => {
  it('serves calls without rate-limit headers after the DynamoDB endpoint is stopped mid-test', async () => {
    const key = env.keys.developer;
    const warm = await env.get(`${BASE}/providers?vertical=glp1`, bearer(key));
    expect(warm.headers.get('x-ratelimit-limit')).toBe('25000');
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
