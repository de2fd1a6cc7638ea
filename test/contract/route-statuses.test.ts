/**
 * The statuses each route can answer, checked against the OpenAPI document both ways: every scenario below is run
 * through the real app (over in-memory dependencies), on the path and on its trailing-slash form when the route
 * serves one, and must answer its status, listed by the route's operation with the error code inside that
 * response's code enum; the scenarios of a route cover exactly the statuses its operation documents (but 431,
 * which only the HTTP server answers: node-adapter.test.ts); and random requests to every route only ever answer
 * a documented status.
 */

import fc from 'fast-check';
import type { Hono } from 'hono';
import { ERROR_STATUS, TRANSPORT_ERROR_CODES } from '../../data-contracts/constants';
import type { NpiLookupLine } from '../../data-contracts/layout';
import { npiRecordOf } from '../../data-contracts/npi-record';
import { openApiDocument } from '../../data-contracts/openapi';
import { type OperationId, ROUTES } from '../../data-contracts/routes';
import { generateApiKey } from '../../lambdas/access/api-key';
import { CachedKeyLookup } from '../../lambdas/access/cached-key-lookup';
import type { CoreDeps } from '../../lambdas/core/ports';
import { createApp } from '../../lambdas/http/app';
import type { ProviderData } from '../../lambdas/query/types';
import { IntegrityError } from '../../platform/ranged/block-digests';
import { FAKE_KEYS, FAKE_VERTICAL_ROWS, type FakeOptions, fakeDeps } from '../helpers/api-fake-deps';

const BASE = '/api/v1';
const ACTIVE_NPI: NpiLookupLine = {
  npi: '1003633876',
  status: 'active',
  entity_type: 'individual',
  name: 'KYLEE FAWCETT',
  organization_name: null,
  last_name: 'FAWCETT',
  first_name: 'KYLEE',
  taxonomies: [],
  city: 'PROVO',
  state: 'UT',
  postal_code: '84604',
  enumeration_date: '2010-01-01',
  last_update_date: '2020-01-01',
  oig_excluded: false,
  oig_type: null,
  oig_date: null,
  oig_checked_at: null,
};
const DEACTIVATED_NPI: NpiLookupLine = {
  npi: '1114636115',
  status: 'deactivated',
  deactivation_date: '2026-06-15',
  oig_excluded: false,
  oig_type: null,
  oig_date: null,
  oig_checked_at: null,
};
/** The fake rows plus one provider of another vertical (a builder key bound to glp1 gets 403 on it). */
const ROWS = [
  ...FAKE_VERTICAL_ROWS,
  { ...(FAKE_VERTICAL_ROWS[0] as (typeof FAKE_VERTICAL_ROWS)[number]), entity_id: 'dental-0001', slug: 'smile' },
].map((row) => (row.entity_id === 'dental-0001' ? { ...row, vertical: 'dental' as const } : row));

/**
 * Options of {@link depsOf}: every snapshot read fails (`broken`), or fails its integrity check (`tampered`), the
 * keys table is down (`keysDown`).
 */
type DepsOptions = FakeOptions & { broken?: boolean; tampered?: boolean; keysDown?: boolean };

/** The fake dependencies with NPI records, and optionally every snapshot read or the keys table failing. */
function depsOf(options: DepsOptions = {}): CoreDeps {
  const deps = fakeDeps({ verticalRows: ROWS, keys: FAKE_KEYS, ...options });
  const lines = new Map([ACTIVE_NPI, DEACTIVATED_NPI].map((line) => [line.npi, line]));
  const down = {
    findByKey: async () => {
      throw new Error('connect ECONNREFUSED');
    },
  };
  // The cache refuses a malformed key without asking the table: the fake keys' names stand for well-formed keys.
  const cached = new CachedKeyLookup(down);
  const keysDown = { findByKey: (key: string) => cached.findByKey(WELL_FORMED[key] ?? key) };
  return {
    ...deps,
    ...(options.keysDown ? { keys: keysDown } : {}),
    snapshots: {
      withSnapshot: (work) =>
        deps.snapshots.withSnapshot((data: ProviderData) => {
          if (options.broken) throw new Error('the snapshot store is down');
          if (options.tampered) throw new IntegrityError('static/coverage.json', 'its bytes do not match the manifest');
          return work({
            ...data,
            findNpis: async (npis) =>
              npis.map((npi) => {
                const line = lines.get(npi);
                return line === undefined ? null : npiRecordOf(line);
              }),
          });
        }),
    },
  };
}

const WELL_FORMED: Record<string, string> = Object.fromEntries(
  Object.keys(FAKE_KEYS).map((k) => [k, generateApiKey()]),
);

const exceeded: FakeOptions = {
  meter: () => ({ outcome: 'exceeded', used: 5000, quota: 5000, resetSeconds: 60 }),
};

interface Scenario {
  status: number;
  path: string;
  key?: keyof typeof FAKE_KEYS;
  deps?: DepsOptions;
  /** Ask again with the first answer's ETag in If-None-Match. */
  conditional?: boolean;
  /** The deployment's origin secret (the call comes without it: 403 `cdn_required`). */
  originSecret?: string;
}

/** Every route, called past the CDN where the deployment requires it. */
const bypass = (path: string): Scenario => ({ status: 403, path, originSecret: 'a-deployment-secret-of-32-chars!' });

const keyedBasics = (path: string, bad: string): Scenario[] => [
  { status: 200, path, key: 'developer' },
  { status: 304, path, key: 'developer', conditional: true },
  { status: 400, path: bad, key: 'developer' },
  { status: 401, path },
  { status: 429, path, key: 'builder', deps: exceeded },
  { status: 500, path, key: 'developer', deps: { broken: true } },
  { status: 503, path, key: 'developer', deps: { keysDown: true } },
  { ...bypass(path), key: 'developer' },
];

const SCENARIOS: Record<OperationId, Scenario[]> = {
  listProviders: [
    ...keyedBasics('/providers?vertical=glp1', '/providers?vertical=nope'),
    { status: 403, path: '/providers?vertical=dental', key: 'builder' },
    { status: 200, path: `/providers?npi=${ACTIVE_NPI.npi}&receipt=true&format=csv`, key: 'developer' },
    { status: 400, path: '/providers?vertical=glp1&receipt=true', key: 'developer' },
    // The fakes' snapshot has no ZIP table: a radius query is 503 radius_unavailable.
    { status: 503, path: '/providers?taxonomy=363L00000X&near=10001', key: 'developer' },
  ],
  getProvider: [
    ...keyedBasics('/providers/glp1-0001', '/providers/glp1-0001?include=everything'),
    { status: 403, path: '/providers/dental-0001', key: 'builder' },
    { status: 404, path: '/providers/nope', key: 'developer' },
  ],
  getNpi: [
    ...keyedBasics(`/npi/${ACTIVE_NPI.npi}`, '/npi/1234567890'),
    { status: 404, path: '/npi/1234567893', key: 'developer' },
    { status: 400, path: `/npi/${ACTIVE_NPI.npi}?receipt=true`, key: 'developer' },
    { status: 410, path: `/npi/${DEACTIVATED_NPI.npi}`, key: 'developer' },
  ],
  listNpis: [
    ...keyedBasics(`/npi?numbers=${ACTIVE_NPI.npi},1234567893`, '/npi'),
    // A receipt: 200 (never 304), its bad value and a CSV without it 400, a key that cannot be loaded 500.
    { status: 200, path: `/npi?numbers=${ACTIVE_NPI.npi},${DEACTIVATED_NPI.npi}&receipt=true`, key: 'developer' },
    { status: 200, path: `/npi?numbers=${ACTIVE_NPI.npi}&receipt=true`, key: 'developer', conditional: true },
    { status: 400, path: `/npi?numbers=${ACTIVE_NPI.npi}&receipt=yes`, key: 'developer' },
    { status: 400, path: `/npi?numbers=${ACTIVE_NPI.npi}&format=csv`, key: 'developer' },
    {
      status: 500,
      path: `/npi?numbers=${ACTIVE_NPI.npi}&receipt=true`,
      key: 'developer',
      deps: { receiptsDown: true },
    },
  ],
  listChanges: [
    ...keyedBasics('/changes?since=2026-06-15', '/changes?since=2026-06-14'),
    { status: 403, path: '/changes?since=2026-06-15&vertical=dental', key: 'builder' },
    { status: 200, path: `/changes?since=2026-06-15&npi=${ACTIVE_NPI.npi}&receipt=true`, key: 'developer' },
    { status: 400, path: '/changes?since=2026-06-15&receipt=true', key: 'developer' },
  ],
  getCoverage: [
    { status: 200, path: '/coverage' },
    bypass('/coverage'),
    { status: 400, path: '/coverage?zip=1' },
    { status: 500, path: '/coverage', deps: { broken: true } },
    { status: 503, path: '/coverage', deps: { tampered: true } },
  ],
  getSample: [
    { status: 200, path: '/sample' },
    bypass('/sample'),
    { status: 400, path: '/sample?format=xml' },
    { status: 500, path: '/sample', deps: { broken: true } },
    { status: 503, path: '/sample', deps: { tampered: true } },
  ],
  getOpenApi: [
    { status: 200, path: '/openapi.json' },
    bypass('/openapi.json'),
    { status: 400, path: '/openapi.json?zip=1' },
  ],
  getDocs: [
    { status: 200, path: '/docs' },
    bypass('/docs'),
    { status: 304, path: '/docs', conditional: true },
    { status: 400, path: '/docs?zip=1' },
  ],
  getReceiptPublicKey: [
    { status: 200, path: '/receipts/public-key' },
    bypass('/receipts/public-key'),
    { status: 400, path: '/receipts/public-key?receipt=true' },
    { status: 500, path: '/receipts/public-key', deps: { receiptsDown: true } },
  ],
  getDocsScript: [
    { status: 200, path: '/docs/redoc.standalone.js' },
    bypass('/docs/redoc.standalone.js'),
    { status: 304, path: '/docs/redoc.standalone.js', conditional: true },
    { status: 400, path: '/docs/redoc.standalone.js?v=2' },
  ],
};

/**
 * Statuses only the HTTP server answers, before any route (node-adapter.ts), such as 431: every code of the status
 * is a transport code. Every operation documents them; no route produces them.
 */
const TRANSPORT_STATUSES = new Set<number>(
  TRANSPORT_ERROR_CODES.map((code) => ERROR_STATUS[code]).filter((status) =>
    Object.entries(ERROR_STATUS).every(
      ([code, s]) => s !== status || (TRANSPORT_ERROR_CODES as readonly string[]).includes(code),
    ),
  ),
);

type Responses = Record<string, { $ref?: string; content?: unknown }>;

/** The operation object of the document for an operationId. */
function operationOf(operationId: string): { responses: Responses } {
  for (const item of Object.values(openApiDocument.paths) as Record<string, { operationId?: string }>[]) {
    for (const operation of Object.values(item)) {
      if (operation.operationId === operationId) return operation as unknown as { responses: Responses };
    }
  }
  throw new Error(`no operation ${operationId} in the document`);
}

/** The error codes a documented response allows (its `code` enum), or null when it is not an error response. */
function codesOf(response: { $ref?: string }): string[] | null {
  const name = response.$ref?.replace('#/components/responses/', '');
  if (!name) return null;
  const component = (openApiDocument.components.responses as Record<string, unknown>)[name] as {
    content?: { 'application/json': { schema: { allOf: [unknown, { properties: { code: { enum: string[] } } }] } } };
  };
  return component.content?.['application/json'].schema.allOf[1].properties.code.enum ?? null;
}

function documentedStatuses(operationId: string): number[] {
  return Object.keys(operationOf(operationId).responses)
    .map(Number)
    .sort((a, b) => a - b);
}

/** `/providers/x?y=1` -> `/providers/x/?y=1`. */
function slashFormOf(path: string): string {
  const [pathname, query] = path.split('?');
  return query === undefined ? `${pathname}/` : `${pathname}/?${query}`;
}

async function run(app: Hono, scenario: Scenario): Promise<Response> {
  const headers: Record<string, string> = scenario.key ? { 'x-api-key': scenario.key } : {};
  const first = await app.request(`${BASE}${scenario.path}`, { headers });
  if (!scenario.conditional) return first;
  return app.request(`${BASE}${scenario.path}`, {
    headers: { ...headers, 'if-none-match': first.headers.get('etag') ?? '' },
  });
}

describe('the statuses of every route', () => {
  for (const route of ROUTES) {
    const operationId = route.operation;

    it(`${route.operation}: the app answers each status its scenarios expect, each listed by the document`, async () => {
      for (const scenario of SCENARIOS[route.operation]) {
        // The trailing-slash form is the same operation: same status, same documented response.
        const forms = [scenario, ...(route.slashForm ? [{ ...scenario, path: slashFormOf(scenario.path) }] : [])];
        for (const form of forms) {
          const app = createApp(depsOf(form.deps), form.originSecret ? { originSecret: form.originSecret } : {});
          const res = await run(app, form);
          expect({ path: form.path, key: form.key, status: res.status }).toEqual({
            path: form.path,
            key: form.key,
            status: form.status,
          });
          const documented = operationOf(operationId).responses[String(res.status)];
          expect({ operationId, status: res.status, documented: documented !== undefined }).toEqual({
            operationId,
            status: res.status,
            documented: true,
          });
          const codes = codesOf(documented ?? {});
          if (codes !== null) expect(codes).toContain(((await res.clone().json()) as { code: string }).code);
        }
      }
    });

    it(`${route.operation}: the document lists exactly the statuses the scenarios produce, and the transport's`, () => {
      const produced = [...new Set(SCENARIOS[route.operation].map((s) => s.status))].sort((a, b) => a - b);
      const documented = documentedStatuses(operationId);
      // A status whose only code is the web ACL's block is answered by CloudFront, never by the app.
      const fromTheApp = documented.filter((status) => {
        const codes = codesOf(operationOf(operationId).responses[String(status)] ?? {});
        return !TRANSPORT_STATUSES.has(status) && !codes?.every((c) => c === 'rate_limited');
      });
      expect(fromTheApp).toEqual(produced);
      expect(documented).toEqual(expect.arrayContaining([...TRANSPORT_STATUSES]));
    });

    it(`${route.operation}: documents the edge's answers, 403 cdn_required and 429 rate_limited`, () => {
      const responses = operationOf(operationId).responses;
      expect(codesOf(responses['403'] ?? {})).toContain('cdn_required');
      expect(codesOf(responses['429'] ?? {})).toContain('rate_limited');
    });
  }

  it('answers random requests on every route only with statuses the route documents', async () => {
    const segment = fc.constantFrom('glp1-0001', 'dental-0001', 'smile', 'nope', '1003633876', '1114636115', '12345');
    const param = fc.constantFrom(
      'vertical=glp1',
      'vertical=dental',
      'vertical=nope',
      'limit=0',
      'limit=5',
      'offset=999',
      'format=csv',
      'format=xml',
      'include=tracked',
      'taxonomy=101Y00000X',
      'name=smi',
      'state=TX',
      'numbers=1003633876,1114636115',
      'numbers=',
      'zip=1',
      'key=free',
      'key=nope',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        segment,
        fc.array(param, { maxLength: 4 }),
        fc.constantFrom(undefined, ...Object.keys(FAKE_KEYS), 'unknown-key'),
        fc.constantFrom<DepsOptions>({}, exceeded, { broken: true }, { keysDown: true }),
        async (route, id, params, key, deps) => {
          const path = route.path.replace(/\{[a-z]+\}/, id);
          const res = await createApp(depsOf(deps)).request(`${BASE}${path}?${params.join('&')}`, {
            headers: key ? { 'x-api-key': key } : {},
          });
          expect(documentedStatuses(route.operation)).toContain(res.status);
        },
      ),
      { numRuns: 300 },
    );
  });
});
