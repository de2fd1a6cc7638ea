/**
 * Every response of every route, tier and error, validated against the published OpenAPI document
 * (data-contracts/openapi.json) with Ajv (JSON Schema 2020-12): the JSON body against the operation's schema for
 * the status, and the documented headers of metered and 429 responses.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import openapi from '../../data-contracts/openapi.json';
import { type ApiTestEnv, bearer, setMonthlyUsage, startApiTestEnv } from '../helpers/api-test-env';

const DOC_ID = 'https://providerfacts.example.com/openapi.json';
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...(openapi as object), $id: DOC_ID });

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked by path strings.
type Doc = Record<string, any>;
const doc = openapi as Doc;

const pointer = (parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The JSON Pointer (inside the document) of the JSON schema of `path`'s GET response for `status`. */
function responseSchemaRef(path: string, status: number): string {
  let response = doc.paths[path].get.responses[String(status)];
  let base = ['paths', path, 'get', 'responses', String(status)];
  expect(response).toBeDefined();
  if (response.$ref) {
    const name = String(response.$ref).split('/').pop() as string;
    response = doc.components.responses[name];
    base = ['components', 'responses', name];
  }
  expect(response.content?.['application/json']).toBeDefined();
  return `${DOC_ID}#/${pointer([...base, 'content', 'application/json', 'schema'])}`;
}

function expectValid(path: string, status: number, body: unknown): void {
  const validate =
    ajv.getSchema(responseSchemaRef(path, status)) ?? ajv.compile({ $ref: responseSchemaRef(path, status) });
  const ok = validate(body);
  if (!ok)
    throw new Error(`${path} ${status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
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
  });

  it('gets details that match ProviderDetailResponse', async () => {
    await check('/providers/{id}', `/providers/${verified.entity_id}`, 200, h());
    await check('/providers/{id}/', `/providers/${verified.slug}/`, 200, h());
  });

  it('gets errors that match the error responses', async () => {
    await check('/providers', '/providers?vertical=nope', 400, h());
    await check('/providers', '/providers?vertical=glp1&offset=9999', 400, h());
    await check('/providers/{id}', '/providers/nope', 404, h());
  });

  it('carries the documented headers when metered', async () => {
    const { res, body } = await check('/providers', '/providers?vertical=glp1&limit=1', 200, h());
    const metered = plan === 'builder' || plan === 'developer';
    expect(res.headers.get('x-ratelimit-limit') !== null).toBe(metered);
    expect(body.usage !== undefined).toBe(metered);
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

  it('match the contract for every 400 code', async () => {
    const k = bearer(env.keys.developer);
    for (const q of [
      'vertical=x',
      'vertical=glp1&business_mode=x',
      'vertical=glp1&limit=x',
      'vertical=glp1&offset=x',
      'state=TX',
    ]) {
      await check('/providers', `/providers?${q}`, 400, k);
    }
    await check('/providers/{id}', `/providers/${verified.slug}?include=x`, 400, k);
  });

  it('match the contract for coverage, the sample and the document', async () => {
    await check('/coverage', '/coverage', 200);
    await check('/coverage/', '/coverage/', 200);
    await check('/sample', '/sample', 200);
    await check('/sample/', '/sample/', 200);
    await check('/sample', '/sample?format=xml', 400);
    await check('/openapi.json', '/openapi.json', 200);
  });

  it('match the contract for a 429, with every rate-limit header and Retry-After', async () => {
    const key = (await env.keyStore.create({ plan: 'builder', vertical: 'glp1' })).key;
    await setMonthlyUsage(env, key, 5000);
    const { res } = await check('/providers', '/providers?vertical=glp1', 429, bearer(key));
    for (const h of [
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-used',
      'x-ratelimit-reset',
      'retry-after',
    ]) {
      expect(Number.isInteger(Number(res.headers.get(h)))).toBe(true);
    }
  });

  it('match the contract for an unknown route (404 error body)', async () => {
    const res = await env.get('/api/v1/nope');
    const body: unknown = await res.json();
    const validate = ajv.compile({ $ref: `${DOC_ID}#/components/schemas/Error` });
    expect(validate(body)).toBe(true);
  });
});
