/**
 * Every response of every route, tier and error, validated against the published OpenAPI document
 * (data-contracts/openapi.json) with Ajv (JSON Schema 2020-12): the JSON body against the operation's schema for
 * the status, and the documented headers of metered and 429 responses.
 */
import { ERROR_STATUS, type ErrorCode, PLAN_RULES, TRANSPORT_ERROR_CODES } from '../../data-contracts/constants';
import { FREE_PROVIDER_CSV_COLUMNS, IDENTITY_CSV_COLUMNS, PAID_PROVIDER_CSV_COLUMNS } from '../../data-contracts/csv';
import { type ApiTestEnv, bearer, setMonthlyUsage, startApiTestEnv } from '../helpers/api-test-env';
import { parseCsvTable } from '../helpers/csv-body';
import {
  type Doc,
  jsonPointer,
  OPENAPI_DOC_ID,
  openapiAjv,
  openapiDoc,
  openapiValidator,
} from '../helpers/openapi-ajv';

/**
 * The document's path for a path as a client writes it: itself, or for a trailing-slash form (`/providers/`) the
 * path it is served as, which the document marks `x-trailing-slash: true`.
 */
function documentPath(path: string): string {
  if (openapiDoc.paths[path] !== undefined) return path;
  const canonical = path.replace(/\/$/, '');
  expect({ path, marked: openapiDoc.paths[canonical]?.['x-trailing-slash'] }).toEqual({ path, marked: true });
  return canonical;
}

/** The JSON Pointer (inside the document) of the JSON schema of `path`'s GET response for `status`. */
function responseSchemaRef(path: string, status: number): string {
  const own = documentPath(path);
  let response = openapiDoc.paths[own].get.responses[String(status)];
  let base = ['paths', own, 'get', 'responses', String(status)];
  expect(response).toBeDefined();
  if (response.$ref) {
    const name = String(response.$ref).split('/').pop() as string;
    response = openapiDoc.components.responses[name];
    base = ['components', 'responses', name];
  }
  expect(response.content?.['application/json']).toBeDefined();
  return `${OPENAPI_DOC_ID}#/${jsonPointer([...base, 'content', 'application/json', 'schema'])}`;
}

/** Seconds from `ms` (epoch milliseconds, floored to the second) to 00:00 UTC on the 1st of the next month. */
function secondsToNextMonth(ms: number): number {
  const now = new Date(ms);
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, (next - Math.floor(ms / 1000) * 1000) / 1000);
}

/** An integer header: present, digits only, as a number. */
function intHeader(res: Response, name: string): number {
  const value = res.headers.get(name);
  expect({ name, value }).toEqual({ name, value: expect.stringMatching(/^[0-9]+$/) });
  return Number(value);
}

/**
 * The `X-RateLimit-*` headers of a metered response, exactly: the plan's quota, `used` calls, the remainder and
 * the seconds to the next UTC month as of some moment between `sentAt` and `receivedAt`.
 */
function expectRateLimit(res: Response, quota: number, used: number, sentAt: number, receivedAt: number): void {
  expect(intHeader(res, 'x-ratelimit-limit')).toBe(quota);
  expect(intHeader(res, 'x-ratelimit-used')).toBe(used);
  expect(intHeader(res, 'x-ratelimit-remaining')).toBe(Math.max(0, quota - used));
  const reset = intHeader(res, 'x-ratelimit-reset');
  expect(reset).toBeGreaterThanOrEqual(secondsToNextMonth(receivedAt));
  expect(reset).toBeLessThanOrEqual(secondsToNextMonth(sentAt));
}

function expectValid(path: string, status: number, body: unknown): void {
  const validate = openapiValidator(responseSchemaRef(path, status));
  const ok = validate(body);
  if (!ok)
    throw new Error(
      `${path} ${status}: ${openapiAjv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
    );
}

let env: ApiTestEnv;
/** Ids and a code taken from the ETL's output, so the checks follow whatever the demo data holds. */
const verified = { entity_id: '', slug: '' };
const tracked = { slug: '' };
let code = '';
beforeAll(async () => {
  env = await startApiTestEnv({ storage: 'folder' });
  const key = bearer(env.keys.free);
  const list = (await (await env.get('/api/v1/providers?vertical=glp1&limit=1', key)).json()) as {
    data: { entity_id: string; slug: string }[];
  };
  Object.assign(verified, list.data[0]);
  const all = (await (await env.get('/api/v1/providers?vertical=glp1&include=tracked&limit=1000', key)).json()) as {
    data: { slug: string; publish_tier: string }[];
  };
  tracked.slug = all.data.find((p) => p.publish_tier === 'internal_only')?.slug ?? '';
  const identity = (await (await env.get('/api/v1/providers?taxonomy=Counselor&limit=1', key)).json()) as {
    data: { taxonomy_code: string }[];
  };
  code = identity.data[0]?.taxonomy_code ?? '';
  expect(verified.slug && tracked.slug && code).toBeTruthy();
});
afterAll(async () => {
  await env?.close();
});

const PLANS = ['free', 'builder', 'developer', 'enterprise'] as const;

async function check(docPath: string, url: string, expectedStatus: number, headers: Record<string, string> = {}) {
  const res = await env.get(`/api/v1${url}`, headers);
  expect(res.status).toBe(expectedStatus);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const body = (await res.json()) as Record<string, unknown>;
  expectValid(docPath, expectedStatus, body);
  return { res, body };
}

describe.each(PLANS)('the %s tier', (plan) => {
  const h = () => bearer(env.keys[plan]);

  it('gets vertical lists that match ProviderListResponse', async () => {
    await check('/providers', '/providers?vertical=glp1', 200, h());
    await check('/providers/', '/providers/?vertical=glp1&state=TX&limit=2&offset=1', 200, h());
    await check('/providers', '/providers?vertical=glp1&include=tracked', 200, h());
  });

  it('gets identity lists that match IdentityListResponse', async () => {
    await check('/providers', `/providers?taxonomy=${code}`, 200, h());
    await check('/providers', '/providers?taxonomy=counselor&state=TX', 200, h());
    // The identity searches: name, postal code, entity type, roster (their filters echo the search fields).
    await check('/providers', '/providers?name=sm&state=TX', 200, h());
    await check('/providers', '/providers?postal_code=77030&state=TX&entity_type=individual', 200, h());
    await check('/providers', '/providers?npi=1003633876,1114636115&taxonomy=counselor', 200, h());
    expect((await check('/providers', '/providers?name=smith', 400, h())).body.code).toBe('invalid_parameter');
  });

  it('gets details that match ProviderDetailResponse', async () => {
    await check('/providers/{id}', `/providers/${verified.entity_id}`, 200, h());
    await check('/providers/{id}/', `/providers/${verified.slug}/`, 200, h());
  });

  it("gets CSV pages with the contract's column set for the tier and one row per record", async () => {
    const columns = plan === 'free' ? FREE_PROVIDER_CSV_COLUMNS : PAID_PROVIDER_CSV_COLUMNS;
    const res = await env.get('/api/v1/providers?vertical=glp1&format=csv&limit=7&offset=2', h());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const csv = parseCsvTable(await res.text());
    expect(csv.header).toEqual([...columns]);
    expect(csv.rows).toHaveLength(7);
    const identity = parseCsvTable(await (await env.get(`/api/v1/providers?taxonomy=${code}&format=csv`, h())).text());
    expect(identity.header).toEqual([...IDENTITY_CSV_COLUMNS]);
    const listed = (await (await env.get(`/api/v1/providers?taxonomy=${code}`, h())).json()) as {
      pagination: { returned: number };
    };
    expect(identity.rows).toHaveLength(listed.pagination.returned);
  });

  it('gets errors that match the error responses', async () => {
    await check('/providers', '/providers?vertical=nope', 400, h());
    await check('/providers', '/providers?vertical=glp1&offset=9999', 400, h());
    await check('/providers/{id}', '/providers/nope', 404, h());
  });

  it('carries the documented headers when metered, with the exact limit, used, remaining and reset', async () => {
    const key = bearer((await env.keyStore.create({ plan, vertical: plan === 'builder' ? 'glp1' : null })).key);
    const quota = PLAN_RULES[plan].monthlyQuota;
    for (const call of [1, 2, 3]) {
      const sentAt = Date.now();
      const { res, body } = await check('/providers', '/providers?vertical=glp1&limit=1', 200, key);
      const receivedAt = Date.now();
      if (PLAN_RULES[plan].reportsUsage && quota !== null) {
        expectRateLimit(res, quota, call, sentAt, receivedAt);
        expect(body.usage).toEqual({ used: call, quota });
      } else {
        for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-used', 'x-ratelimit-reset'])
          expect({ name, value: res.headers.get(name) }).toEqual({ name, value: null });
        expect(body.usage).toBeUndefined();
      }
    }
  });
});

describe('NPI lookups (real NPIs of nppes_sample.csv)', () => {
  it.each(PLANS)('match NpiResponse (200) and NpiDeactivatedResponse (410) for the %s tier', async (plan) => {
    const k = bearer(env.keys[plan]);
    const { body } = await check('/npi/{npi}', '/npi/1003633876', 200, k);
    expect(body.data).toMatchObject({ npi: '1003633876', status: 'active', certification: { locked: true } });
    await check('/npi/{npi}/', '/npi/1003633876/', 200, k);
    const gone = await check('/npi/{npi}', '/npi/1114636115', 410, k);
    expect(gone.body.data).toMatchObject({ status: 'deactivated', deactivation_date: '2026-06-15' });
  });

  it('match the contract for 404, 400 invalid_npi, 401 and the batch', async () => {
    const k = bearer(env.keys.developer);
    expect((await check('/npi/{npi}', '/npi/1234567893', 404, k)).body.code).toBe('not_found');
    expect((await check('/npi/{npi}', '/npi/12345', 400, k)).body.code).toBe('invalid_npi');
    await check('/npi/{npi}', '/npi/1003633876', 401);
    const { body } = await check('/npi', '/npi?numbers=1003633876,1114636115,1234567893,12345', 200, k);
    expect((body.data as { status: string }[]).map((e) => e.status)).toEqual([
      'active',
      'deactivated',
      'not_found',
      'invalid',
    ]);
    await check('/npi/', '/npi/?numbers=1003633876', 200, k);
    const tooMany = Array.from({ length: 101 }, () => '1003633876').join(',');
    expect((await check('/npi', `/npi?numbers=${tooMany}`, 400, k)).body.code).toBe('invalid_parameter');
  });
});

describe('tier-specific and keyless responses', () => {
  it('match the contract for a free key with include=tracked', async () => {
    const { body } = await check('/providers', '/providers?vertical=glp1&include=tracked', 200, bearer(env.keys.free));
    expect(body.publish_boundary).toBe('tracked');
    await check('/providers/{id}', `/providers/${tracked.slug}?include=tracked`, 200, bearer(env.keys.free));
  });

  it('match the contract for 401 and 403', async () => {
    await check('/providers', '/providers?vertical=glp1', 401);
    await check('/providers', '/providers?vertical=glp1', 401, bearer('pf_nope'));
    await check('/providers/{id}', '/providers/x', 401);
    await check('/providers', '/providers?vertical=dental', 403, bearer(env.keys.builder));
  });

  it('match the contract for every 400 code, each case with its own code', async () => {
    const k = bearer(env.keys.developer);
    const cases: [string, string, ErrorCode][] = [
      ['/providers', '/providers?vertical=x', 'invalid_vertical'],
      ['/providers', '/providers?vertical=glp1&business_mode=x', 'invalid_business_mode'],
      ['/providers', '/providers?vertical=glp1&limit=x', 'invalid_limit'],
      ['/providers', '/providers?vertical=glp1&offset=x', 'invalid_offset'],
      ['/providers', '/providers?state=TX', 'invalid_parameter'],
      ['/providers/{id}', `/providers/${verified.slug}?include=x`, 'invalid_parameter'],
      ['/npi/{npi}', '/npi/1234567890', 'invalid_npi'],
      ['/changes', '/changes?since=2000-01-01', 'since_too_old'],
      ['/changes', '/changes?since=2026-02-30', 'invalid_parameter'],
      ['/providers', '/providers?vertical=glp1&limt=5', 'invalid_parameter'],
      ['/providers/{id}/', `/providers/${verified.slug}/?inclde=tracked`, 'invalid_parameter'],
      ['/providers', '/providers?taxonomy=363L00000X&near=51.5,-0.12', 'invalid_near'],
      ['/providers', '/providers?taxonomy=363L00000X&near=99999', 'unknown_zip'],
      ['/providers', '/providers?taxonomy=363L00000X&near=10001&radius_miles=0.5', 'invalid_radius'],
      ['/providers', '/providers?taxonomy=363L00000X&near=10001&state=NY', 'near_conflict'],
    ];
    for (const [docPath, url, code] of cases) {
      const { body } = await check(docPath, url, 400, k);
      expect({ url, code: body.code }).toEqual({ url, code });
    }
    // The transport's codes (malformed_request) come from the HTTP server, not a route: node-adapter.test.ts.
    const codes400 = Object.entries(ERROR_STATUS)
      .filter(([code, status]) => status === 400 && !(TRANSPORT_ERROR_CODES as readonly string[]).includes(code))
      .map(([code]) => code);
    expect([...new Set(cases.map(([, , code]) => code))].sort()).toEqual(codes400.sort());
  });

  it('match the contract for coverage, the sample and the document', async () => {
    await check('/coverage', '/coverage', 200);
    await check('/coverage/', '/coverage/', 200);
    await check('/sample', '/sample', 200);
    await check('/sample/', '/sample/', 200);
    const { body } = await check('/sample', '/sample?format=xml', 400);
    expect(body.code).toBe('invalid_parameter');
    const unknown = await check('/sample', '/sample?formt=csv', 400);
    expect(unknown.body.hint).toContain('Did you mean `format`?');
    await check('/coverage', '/coverage?x=1', 400);
    await check('/openapi.json', '/openapi.json', 200);
    const sample = parseCsvTable(await (await env.get('/api/v1/sample?format=csv')).text());
    expect(sample.header).toEqual([...PAID_PROVIDER_CSV_COLUMNS]);
    const sampleJson = (await (await env.get('/api/v1/sample')).json()) as { size: number };
    expect(sample.rows).toHaveLength(sampleJson.size);
  });

  it('match the contract for a 429, with every rate-limit header and Retry-After', async () => {
    const key = (await env.keyStore.create({ plan: 'builder', vertical: 'glp1' })).key;
    const quota = PLAN_RULES.builder.monthlyQuota;
    await setMonthlyUsage(env, key, quota);
    const sentAt = Date.now();
    const { res, body } = await check('/providers', '/providers?vertical=glp1', 429, bearer(key));
    const receivedAt = Date.now();
    expect(body).toMatchObject({ code: 'quota_exceeded', usage: { used: quota, quota } });
    expectRateLimit(res, quota, quota, sentAt, receivedAt);
    expect(intHeader(res, 'retry-after')).toBe(intHeader(res, 'x-ratelimit-reset'));
  });

  it('match the contract for an unknown route (404 error body)', async () => {
    const res = await env.get('/api/v1/nope');
    const body: unknown = await res.json();
    const validate = openapiAjv.compile({ $ref: `${OPENAPI_DOC_ID}#/components/schemas/Error` });
    expect(validate(body)).toBe(true);
  });
});

/** The response object of `path`'s GET for `status`, its `$ref` resolved. */
function responseOf(path: string, status: number): Doc | undefined {
  const response = openapiDoc.paths[path]?.get?.responses?.[String(status)];
  if (response?.$ref) return openapiDoc.components.responses[String(response.$ref).split('/').pop() as string];
  return response;
}

/** A header object of the document, its `$ref` resolved. */
function headerOf(header: Doc): Doc {
  return header.$ref ? openapiDoc.components.headers[String(header.$ref).split('/').pop() as string] : header;
}

const DATA_VERSION_HEADERS = ['ETag', 'X-Snapshot-Id', 'X-Data-As-Of'];
const keyedPaths = Object.keys(openapiDoc.paths).filter((p) => openapiDoc.paths[p].get.security === undefined);

describe('data versions in the document and on the wire', () => {
  it('are documented on every keyed operation: the headers of 200 and 304, If-None-Match, a 304 without body', () => {
    expect(keyedPaths.sort()).toEqual(['/changes', '/npi', '/npi/{npi}', '/providers', '/providers/{id}']);
    for (const path of keyedPaths) {
      const operation = openapiDoc.paths[path].get;
      for (const status of [200, 304]) {
        expect({ path, status, headers: Object.keys(responseOf(path, status)?.headers ?? {}) }).toEqual({
          path,
          status,
          headers: expect.arrayContaining(DATA_VERSION_HEADERS),
        });
      }
      expect(responseOf(path, 304)?.content).toBeUndefined();
      const names = operation.parameters.map((p: Doc) => p.$ref ?? p.name);
      expect(names).toContain('#/components/parameters/If-None-Match');
    }
    // The public data answers have no 304; the reference page and its script are tagged by their bytes instead.
    for (const path of Object.keys(openapiDoc.paths).filter((p) => !keyedPaths.includes(p) && !p.startsWith('/docs'))) {
      expect({ path, has304: responseOf(path, 304) !== undefined }).toEqual({ path, has304: false });
    }
  });

  it('send the documented headers, valid against their schemas, on a 200 of every format and on a 304', async () => {
    const schemaOf = (name: string) =>
      openapiAjv.compile(headerOf(responseOf('/providers', 200)?.headers[name]).schema);
    const key = bearer(env.keys.developer);
    for (const url of [
      '/providers?vertical=glp1&limit=2',
      '/providers?vertical=glp1&limit=2&format=csv',
      `/providers/${verified.slug}`,
    ]) {
      const res = await env.get(`/api/v1${url}`, key);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      const conditional = await env.get(`/api/v1${url}`, { ...key, 'if-none-match': res.headers.get('etag') ?? '' });
      expect(conditional.status).toBe(304);
      for (const answer of [res, conditional]) {
        for (const name of DATA_VERSION_HEADERS) {
          const value = answer.headers.get(name);
          expect({ url, name, valid: value !== null && schemaOf(name)(value) }).toEqual({ url, name, valid: true });
        }
      }
    }
  });
});

describe('web headers in the document and on the wire', () => {
  /** Every response object of the document, `$ref`s resolved, with where it is. */
  const everyResponse = (): [string, Doc][] => [
    ...Object.entries(openapiDoc.paths).flatMap(([path, item]) =>
      Object.keys((item as Doc).get.responses).map(
        (status) => [`${path} ${status}`, responseOf(path, Number(status))] as [string, Doc],
      ),
    ),
    ...Object.entries(openapiDoc.components.responses).map(([name, response]) => [name, response] as [string, Doc]),
  ];
  const schemaOf = (name: string) => openapiAjv.compile(openapiDoc.components.headers[name].schema);

  it('documents X-Request-Id on every response, RateLimit fields beside X-RateLimit-*, and the 401 challenge', () => {
    for (const [where, response] of everyResponse()) {
      expect({ where, headers: Object.keys(response.headers ?? {}) }).toEqual({
        where,
        headers: expect.arrayContaining(['X-Request-Id']),
      });
      if ('X-RateLimit-Limit' in (response.headers ?? {}))
        expect({ where, headers: Object.keys(response.headers) }).toEqual({
          where,
          headers: expect.arrayContaining(['RateLimit', 'RateLimit-Policy']),
        });
    }
    expect(Object.keys(openapiDoc.components.responses.Unauthorized.headers)).toContain('WWW-Authenticate');
    expect(openapiDoc.components.schemas.Error.properties.request_id).toEqual(
      expect.objectContaining({ type: 'string' }),
    );
  });

  it('sends those headers valid against their schemas, and error bodies with their request_id', async () => {
    const key = bearer((await env.keyStore.create({ plan: 'builder', vertical: 'glp1' })).key);
    const metered = await env.get('/api/v1/providers?vertical=glp1&limit=1', key);
    await metered.arrayBuffer();
    for (const name of ['RateLimit', 'RateLimit-Policy', 'X-Request-Id'])
      expect({ name, valid: schemaOf(name)(metered.headers.get(name)) }).toEqual({ name, valid: true });
    const { res, body } = await check('/providers', '/providers?vertical=glp1', 401);
    expect(schemaOf('WWW-Authenticate')(res.headers.get('www-authenticate'))).toBe(true);
    expect(body.request_id).toBe(res.headers.get('x-request-id'));
  });
});
