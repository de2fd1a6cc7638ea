import type { VerticalRow } from '../../../../data-contracts/rows';
import { INTERNAL_ERROR_MESSAGE } from '../../../../lambdas/core/api-error';
import { listProviders } from '../../../../lambdas/core/list-providers';
import type { KeyRecord } from '../../../../lambdas/core/ports';
import { createApp } from '../../../../lambdas/http/app';
import { ListBodyCache, listBody, listJson } from '../../../../lambdas/http/list-formats';
import { csvFilename } from '../../../../lambdas/http/responses';
import { createJsonLogger } from '../../../../platform/logger';
import { FAKE_KEYS, FAKE_VERSION, FAKE_VERTICAL_ROWS, fakeDeps } from '../../../helpers/api-fake-deps';

const rows: VerticalRow[] = FAKE_VERTICAL_ROWS;

describe('error mapping', () => {
  it('turns an unexpected error into 500 internal_error with a fixed message and logs the cause', async () => {
    const lines: string[] = [];
    const deps = {
      ...fakeDeps({ verticalRows: rows, keys: FAKE_KEYS, failWith: new Error('disk /secret/path exploded') }),
      logger: createJsonLogger({ write: (l) => lines.push(l) }),
    };
    const res = await createApp(deps).request('/api/v1/providers?vertical=glp1', { headers: { 'x-api-key': 'free' } });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      error: INTERNAL_ERROR_MESSAGE,
      code: 'internal_error',
      request_id: res.headers.get('x-request-id'),
    });
    expect(text).not.toContain('secret');
    expect(lines.some((l) => l.includes('disk /secret/path exploded'))).toBe(true);
  });

  it('answers an unknown route and a wrong method with a JSON 404 not_found', async () => {
    const app = createApp(fakeDeps());
    for (const [path, method] of [
      ['/api/v2/providers', 'GET'],
      ['/api/v1/providers', 'DELETE'],
    ] as const) {
      const res = await app.request(path, { method });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(((await res.json()) as { code: string }).code).toBe('not_found');
    }
  });

  it('checks the key before the parameters (401 before 400)', async () => {
    const res = await createApp(fakeDeps()).request('/api/v1/providers?vertical=nope');
    expect(res.status).toBe(401);
  });

  it('maps a 429 to the rate-limit headers and Retry-After', async () => {
    const deps = fakeDeps({
      verticalRows: rows,
      keys: FAKE_KEYS,
      meter: () => ({ outcome: 'exceeded', used: 5000, quota: 5000, resetSeconds: 3600 }),
    });
    const res = await createApp(deps).request('/api/v1/providers?vertical=glp1', {
      headers: { 'x-api-key': 'builder' },
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3600');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await res.json()).toMatchObject({ code: 'quota_exceeded', usage: { used: 5000, quota: 5000 } });
  });

  it('looks a key up once per request, for the guard and the use case together', async () => {
    const deps = fakeDeps({ verticalRows: rows, keys: FAKE_KEYS });
    const lookups: string[] = [];
    const keys = deps.keys;
    const counted = {
      ...deps,
      keys: {
        findByKey: (k: string) => {
          lookups.push(k);
          return keys.findByKey(k);
        },
      },
    };
    for (const path of ['/api/v1/providers?vertical=glp1', '/api/v1/npi/1234567893']) {
      lookups.length = 0;
      const res = await createApp(counted).request(path, { headers: { 'x-api-key': 'developer' } });
      expect(res.status).not.toBe(500);
      expect(lookups).toEqual(['developer']);
    }
  });
});

describe('CSV responses', () => {
  it('name the attachment after the vertical or a sanitised taxonomy and the offset', () => {
    expect(csvFilename('glp1', 0)).toBe('providers-glp1-0.csv');
    expect(csvFilename('Nurse Practitioner', 100)).toBe('providers-nurse-practitioner-100.csv');
    expect(csvFilename('"; evil\r\n', 5)).toBe('providers-evil-5.csv');
    expect(csvFilename('***', 5)).toBe('providers-providers-5.csv');
  });

  it('carry the free column set for a free key and quote formula-like cells', async () => {
    const res = await createApp(fakeDeps({ verticalRows: rows, keys: FAKE_KEYS })).request(
      '/api/v1/providers?vertical=glp1&format=csv',
      { headers: { 'x-api-key': 'free' } },
    );
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="providers-glp1-0.csv"');
    const text = await res.text();
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(text).not.toContain('certification_status');
  });
});

describe('list bodies', () => {
  it('serialise to exactly JSON.stringify of the envelope, first and repeated (memoised) calls alike', async () => {
    const frozen = rows.map((r) => Object.freeze({ ...r }));
    const bodies = new ListBodyCache();
    for (const plan of ['free', 'developer'] as const) {
      for (const include of [undefined, 'tracked']) {
        const deps = fakeDeps({ verticalRows: frozen, keys: FAKE_KEYS });
        const input = { credentials: { keyParam: plan }, query: { vertical: 'glp1', include } };
        const first = await listProviders(input, deps);
        const again = await listProviders(input, deps);
        expect(listJson(first, bodies, FAKE_VERSION)).toBe(JSON.stringify(listBody(first, FAKE_VERSION)));
        expect(listJson(again, bodies, FAKE_VERSION)).toBe(listJson(first, bodies, FAKE_VERSION));
      }
    }
  });
});

describe('the route guard', () => {
  const counting = () => {
    const calls: string[] = [];
    const deps = fakeDeps({
      verticalRows: rows,
      keys: FAKE_KEYS,
      meter: () => {
        calls.push('consume');
        return { outcome: 'counted', used: calls.length, quota: 25_000, resetSeconds: 60 };
      },
    });
    return { calls, app: createApp(deps) };
  };
  const developer = { 'x-api-key': 'developer' };

  it('checks the key before unknown parameters (401 before 400), then refuses them unmetered', async () => {
    const { calls, app } = counting();
    expect((await app.request('/api/v1/providers?vertical=glp1&limt=5')).status).toBe(401);
    const res = await app.request('/api/v1/providers?vertical=glp1&limt=5', { headers: developer });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_parameter', hint: expect.stringContaining('`limit`') });
    expect(calls).toEqual([]);
  });

  it('refuses unknown parameters on the public routes too', async () => {
    const app = createApp(fakeDeps());
    for (const url of ['/api/v1/coverage?x=1', '/api/v1/sample?formt=csv', '/api/v1/openapi.json?v=2']) {
      const res = await app.request(url);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('invalid_parameter');
    }
    expect((await app.request('/api/v1/sample?format=json&key=whatever')).status).toBe(200);
  });

  it('answers a current If-None-Match with 304, no body, the tag and snapshot headers, and does not meter it', async () => {
    const { calls, app } = counting();
    const url = '/api/v1/providers?vertical=glp1&limit=2';
    const first = await app.request(url, { headers: developer });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^W\//);
    expect(first.headers.get('x-snapshot-id')).toBe(FAKE_VERSION.snapshotId);
    expect(first.headers.get('x-data-as-of')).toBe(FAKE_VERSION.asOf);
    expect(await first.json()).toMatchObject({ snapshot_id: FAKE_VERSION.snapshotId, as_of: FAKE_VERSION.asOf });
    expect(calls).toHaveLength(1);

    const again = await app.request(url, { headers: { ...developer, 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('x-snapshot-id')).toBe(FAKE_VERSION.snapshotId);
    expect(again.headers.get('x-data-as-of')).toBe(FAKE_VERSION.asOf);
    expect(again.headers.get('x-ratelimit-used')).toBeNull();
    expect(calls).toHaveLength(1);

    expect((await app.request(url, { headers: { 'if-none-match': etag } })).status).toBe(401);
    const other = await app.request(`${url}&offset=1`, { headers: { ...developer, 'if-none-match': etag } });
    expect(other.status).toBe(200);
    expect(calls).toHaveLength(2);
  });

  it('puts no data-version headers on an error', async () => {
    const res = await createApp(fakeDeps({ keys: FAKE_KEYS })).request('/api/v1/providers/nope', {
      headers: developer,
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('etag')).toBeNull();
    expect(res.headers.get('x-snapshot-id')).toBeNull();
  });
});

describe('the request log', () => {
  it('authenticates a percent-encoded `%6Bey=` parameter and logs its name decoded, its value redacted', async () => {
    const key = `pf_${'Q'.repeat(43)}`;
    const lines: string[] = [];
    const deps = {
      ...fakeDeps({ verticalRows: rows, keys: { ...FAKE_KEYS, [key]: FAKE_KEYS.developer as KeyRecord } }),
      logger: createJsonLogger({ write: (l) => lines.push(l) }),
    };
    const encoded = [...key].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    const res = await createApp(deps).request(`/api/v1/providers?vertical=glp1&limit=1&%6Bey=${encoded}`);
    expect(res.status).toBe(200);
    const line = JSON.parse(lines.find((l) => l.includes('"message":"request"')) as string);
    expect(line.path).toBe('/api/v1/providers?vertical=glp1&limit=1&key=[redacted]');
    const all = lines.join('\n');
    expect(all).not.toContain(encoded);
    expect(all).not.toContain(key);
    expect(all).not.toContain('QQQQQQQQ');
  });
});

describe('the coverage page', () => {
  it('answers 404 not_found with a hint on a snapshot built before the ETL wrote the page', async () => {
    const deps = fakeDeps();
    const data = await deps.snapshots.withSnapshot(async (d) => d);
    const old = {
      ...deps,
      snapshots: {
        withSnapshot: <T>(work: (d: typeof data) => Promise<T>) => work({ ...data, hasStatic: () => false }),
      },
    };
    const res = await createApp(old).request('/api/v1/coverage.html');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      code: 'not_found',
      hint: expect.stringContaining('build a new snapshot'),
    });
  });

  it('serves the page as HTML, public and cacheable, whatever the query', async () => {
    const deps = fakeDeps();
    const data = await deps.snapshots.withSnapshot(async (d) => d);
    const page = Buffer.from('<!doctype html><title>x</title>');
    const withPage = {
      ...deps,
      snapshots: {
        withSnapshot: <T>(work: (d: typeof data) => Promise<T>) =>
          work({ ...data, readStatic: async (name) => (name === 'coveragePage' ? page : Buffer.from('{}')) }),
      },
    };
    const res = await createApp(withPage).request('/api/v1/coverage.html?utm_source=mail');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(page);
  });
});
