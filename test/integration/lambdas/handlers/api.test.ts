/**
 * The deployed entry (`lambdas/handlers/api.ts`) configured by environment variables exactly as infra sets them,
 * serving the real ETL's snapshot of the sample files from s3rver (S3ObjectStore through the real SDK) with keys and usage in dynalite.
 * Every example of docs/try-it.sh gets the status its comment names.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Plan } from '../../../../data-contracts/constants';
import { ENV } from '../../../../data-contracts/env';
import { DEMO_SNAPSHOT_TIMES, DEMO_SNAPSHOTS, demoChangedInputs } from '../../../../etl/cli/demo-inputs';
import { createDynamoClient, ensureTables } from '../../../../lambdas/access/dynamo';
import { KeyStore } from '../../../../lambdas/access/key-store';
import { S3ObjectStore } from '../../../../platform/s3-store';
import { publishEtlSnapshot } from '../../../helpers/api-test-env';
import { apiGatewayEvent } from '../../../helpers/apigw-event';
import { type DynaliteHandle, startDynalite } from '../../../helpers/dynalite';
import { assignedValue, expand, tryItExamples } from '../../../helpers/examples';
import { type S3rverHandle, startS3rver } from '../../../helpers/s3rver';

type LambdaResult = { statusCode: number; headers: Record<string, string>; body: string };
type Handler = (event: unknown, context: unknown) => Promise<LambdaResult>;

let s3: S3rverHandle;
let dynalite: DynaliteHandle;
let cacheDir: string;
let handler: Handler;
let developerKey: string;
/** A key of each plan for the examples' `$FREE`, `$BUILDER`, `$DEV` and `$ENT`, as `npm start` creates them. */
const exampleKeys: Record<string, string> = {};
const savedEnv = { ...process.env };

const event = apiGatewayEvent;
const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');

beforeAll(async () => {
  s3 = await startS3rver();
  // The demo's two snapshots, as npm start builds them: the examples' change feed has a step, and their lookups find
  // the fictional OIG case (tools/demo/oig).
  const data = new S3ObjectStore(s3.client, s3.bucket, 'pf');
  for (const snapshot of DEMO_SNAPSHOTS) {
    await publishEtlSnapshot(data, new Date(DEMO_SNAPSHOT_TIMES[snapshot]), demoChangedInputs(snapshot, REPO_ROOT));
  }
  dynalite = await startDynalite();
  const client = createDynamoClient({ endpoint: dynalite.endpoint });
  await ensureTables(client, { keysTable: 'keys', usageTable: 'usage' });
  const store = new KeyStore({ client, tableName: 'keys' });
  developerKey = (await store.create({ plan: 'developer' })).key;
  const plans: Record<string, { plan: Plan; vertical?: 'glp1' }> = {
    FREE: { plan: 'free' },
    BUILDER: { plan: 'builder', vertical: 'glp1' },
    DEV: { plan: 'developer' },
    ENT: { plan: 'enterprise' },
  };
  for (const [name, scope] of Object.entries(plans)) exampleKeys[name] = (await store.create(scope)).key;
  client.destroy();
  cacheDir = await mkdtemp(path.join(tmpdir(), 'pf-lambda-cache-'));
  Object.assign(process.env, {
    [ENV.dataBucket]: s3.bucket,
    [ENV.dataPrefix]: 'pf',
    [ENV.s3Endpoint]: s3.endpoint,
    [ENV.keysTable]: 'keys',
    [ENV.usageTable]: 'usage',
    [ENV.dynamoEndpoint]: dynalite.endpoint,
    [ENV.cacheDir]: cacheDir,
    [ENV.logLevel]: 'error',
    // A deployed function needs its receipts' key: here a seed (no Secrets Manager).
    [ENV.receiptSeed]: 'the tests\u2019 receipts',
  });
  // A fresh registry rather than an isolated one: the handler imports DuckDB lazily, on its first query, and a lazy
  // import after `isolateModules` returns resolves in the outer registry, whose DuckDB classes are not the ones the
  // handler's statically imported modules bind with (a list parameter then fails its `instanceof` check).
  jest.resetModules();
  handler = require('../../../../lambdas/handlers/api').handler as Handler;
  // Two demo builds into s3rver: on a busy 2-core machine they can take longer than jest's default minute.
}, 240_000);

afterAll(async () => {
  process.env = savedEnv;
  await dynalite?.stop();
  await s3?.stop();
  await rm(cacheDir, { recursive: true, force: true });
});

describe('the deployed handler over S3', () => {
  it('serves a vertical list from the S3 snapshot with the developer headers', async () => {
    const res = await handler(
      event('/api/v1/providers', 'vertical=glp1&limit=2', { authorization: `Bearer ${developerKey}` }),
      {},
    );
    expect(res.statusCode).toBe(200);
    const body = JSON.parse(res.body);
    // The demo feed has 200 verified records (tools/demo/README.md).
    expect(body.pagination.total).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe('25000');
  });

  it('serves identity rows, coverage and the sample CSV from S3', async () => {
    const identity = await handler(
      event('/api/v1/providers/', 'taxonomy=Counselor', { 'x-api-key': developerKey }),
      {},
    );
    const page = JSON.parse(identity.body);
    expect(page.layer).toBe('identity');
    expect(page.pagination.total).toBeGreaterThan(0);
    expect((await handler(event('/api/v1/coverage'), {})).statusCode).toBe(200);
    const sample = await handler(event('/api/v1/sample', 'format=csv'), {});
    expect(sample.headers['content-type']).toBe('text/csv; charset=utf-8');
  });

  it('answers an unknown route with a JSON 404, and the favicon with 204', async () => {
    const res = await handler(event('/robots.txt'), {});
    expect(res.statusCode).toBe(404);
    expect(JSON.parse(res.body).code).toBe('not_found');
    const icon = await handler(event('/favicon.ico'), {});
    expect(icon.statusCode).toBe(204);
    expect(icon.headers['cache-control']).toBe('public, max-age=86400');
  });
});

describe('the examples of docs/try-it.sh', () => {
  it('answers each with the status its comment names (200 otherwise, 304 for a tag held)', async () => {
    const repoRoot = REPO_ROOT;
    const values: Record<string, string> = { ...exampleKeys };
    const got: string[] = [];
    const want: string[] = [];
    for (const example of tryItExamples(repoRoot)) {
      const headers: Record<string, string> = {};
      for (const header of example.headers) {
        const [name, ...rest] = expand(header, values).split(':');
        headers[(name as string).trim().toLowerCase()] = rest.join(':').trim();
      }
      const [rawPath, query = ''] = expand(example.target, values).split('?') as [string, string?];
      const res = await handler(event(`/api/v1${rawPath}`, query, headers), {});
      got.push(`${res.statusCode} ${example.line}`);
      want.push(`${example.status ?? ('if-none-match' in headers ? 304 : 200)} ${example.line}`);
      if (example.assigns !== null) values[example.assigns] = assignedValue(example.assigns, res.headers, res.body);
    }
    expect(got).toEqual(want);
  });
});

describe('the deployed handler configuration', () => {
  it('fails fast, naming the variable, when the keys table is not configured', () => {
    const keysTable = process.env[ENV.keysTable];
    delete process.env[ENV.keysTable];
    try {
      expect(() => jest.isolateModules(() => require('../../../../lambdas/handlers/api'))).toThrow(ENV.keysTable);
    } finally {
      process.env[ENV.keysTable] = keysTable;
    }
  });
});
