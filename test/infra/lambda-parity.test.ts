/**
 * The deployed Lambda entry (`lambdas/handlers/api.ts`, configured by the environment variables infra sets) and
 * the local node:http server answer the same request with the same status, headers and body. Both serve the real
 * ETL's snapshot of the sample files from s3rver, with keys and usage in dynalite, through the real SDK clients.
 * The Lambda side is given recorded API Gateway HTTP API (payload 2.0) events (test/fixtures/apigw).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ENV } from '../../data-contracts/env';
import { LOCAL_BUDGET_MB, planMemory } from '../../data-contracts/memory-budget';
import { createDynamoClient, ensureTables } from '../../lambdas/access/dynamo';
import { KeyStore } from '../../lambdas/access/key-store';
import { type ApiRuntime, createApiRuntime } from '../../lambdas/handlers/runtime';
import { type NodeServer, serveNode } from '../../lambdas/http/node-adapter';
import { silentLogger } from '../../platform/logger';
import { S3ObjectStore } from '../../platform/s3-store';
import { publishEtlSnapshot } from '../helpers/api-test-env';
import { type DynaliteHandle, startDynalite } from '../helpers/dynalite';
import { lambdaBodyText } from '../helpers/lambda-body';
import { type S3rverHandle, startS3rver } from '../helpers/s3rver';

type LambdaResult = { statusCode: number; headers?: Record<string, string>; body: string; isBase64Encoded?: boolean };
type Handler = (event: unknown, context: unknown) => Promise<LambdaResult>;

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'apigw');
const PREFIX = 'pf';
const KEYS = 'pf-keys-parity';
const USAGE = 'pf-usage-parity';
// Connection-level headers that only a socket server sets; the app's own headers are compared one by one.
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

let s3: S3rverHandle;
let dynalite: DynaliteHandle;
let work: string;
let handler: Handler;
let runtime: ApiRuntime;
let server: NodeServer;
/** Two developer keys with the same history, one per side, so the rate-limit headers must agree too. */
let lambdaKey: string;
let localKey: string;
let entityId: string;
const savedEnv = { ...process.env };

function recordedEvent(name: string, key: string): { event: Record<string, unknown>; url: string; headers: Headers } {
  const text = readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')
    .replaceAll('{{API_KEY}}', key)
    .replaceAll('{{ENTITY_ID}}', entityId);
  const event = JSON.parse(text) as {
    rawPath: string;
    rawQueryString: string;
    headers: Record<string, string>;
    requestContext: { requestId: string };
  };
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers)) {
    if (!['host', 'content-length'].includes(name)) headers.set(name, value);
  }
  // The local side gets the request id the Lambda takes from API Gateway, so that both answers carry the same one.
  headers.set('x-request-id', event.requestContext.requestId);
  const query = event.rawQueryString === '' ? '' : `?${event.rawQueryString}`;
  return { event: event as unknown as Record<string, unknown>, url: `${server.url}${event.rawPath}${query}`, headers };
}

function appHeaders(entries: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (!TRANSPORT_HEADERS.has(name.toLowerCase())) out[name.toLowerCase()] = value;
  }
  return out;
}

beforeAll(async () => {
  s3 = await startS3rver();
  const store = new S3ObjectStore(s3.client, s3.bucket, PREFIX);
  await publishEtlSnapshot(store, new Date('2026-10-15T00:00:00Z'));
  dynalite = await startDynalite();
  const client = createDynamoClient({ endpoint: dynalite.endpoint });
  await ensureTables(client, { keysTable: KEYS, usageTable: USAGE });
  const keyStore = new KeyStore({ client, tableName: KEYS });
  lambdaKey = (await keyStore.create({ plan: 'developer' })).key;
  localKey = (await keyStore.create({ plan: 'developer' })).key;
  client.destroy();
  work = await mkdtemp(path.join(tmpdir(), 'pf-parity-'));

  // The Lambda side: the real entry module, configured only through the environment, like infra does.
  Object.assign(process.env, {
    [ENV.dataBucket]: s3.bucket,
    [ENV.dataPrefix]: PREFIX,
    [ENV.s3Endpoint]: s3.endpoint,
    [ENV.keysTable]: KEYS,
    [ENV.usageTable]: USAGE,
    [ENV.dynamoEndpoint]: dynalite.endpoint,
    [ENV.cacheDir]: path.join(work, 'lambda-cache'),
    [ENV.logLevel]: 'error',
    // A deployed function needs its receipts' key: here a seed (no Secrets Manager).
    [ENV.receiptSeed]: 'the tests\u2019 receipts',
  });
  jest.isolateModules(() => {
    handler = require('../../lambdas/handlers/api').handler as Handler;
  });

  // The local side: the node:http adapter over the same store and tables.
  runtime = await createApiRuntime({
    store: { kind: 's3', bucket: s3.bucket, prefix: PREFIX, endpoint: s3.endpoint },
    cacheDir: path.join(work, 'local-cache'),
    pointerTtlSeconds: 60,
    tables: { keysTable: KEYS, usageTable: USAGE, endpoint: dynalite.endpoint },
    meterTimeoutMs: 1000,
    keyCacheSeconds: 5,
    memory: planMemory(LOCAL_BUDGET_MB),
    logger: silentLogger,
  });
  server = await serveNode(runtime.app, { port: 0 });

  const list = await handler(recordedEvent('list', lambdaKey).event, {});
  entityId = (JSON.parse(lambdaBodyText(list)) as { data: { entity_id: string }[] }).data[0]?.entity_id ?? '';
  // Bring the local key to the same count (the list call above used one call of the Lambda key).
  await fetch(recordedEvent('list', localKey).url, { headers: recordedEvent('list', localKey).headers });
});

afterAll(async () => {
  process.env = savedEnv;
  await server?.close();
  await runtime?.close();
  await dynalite?.stop();
  await s3?.stop();
  await rm(work, { recursive: true, force: true });
});

describe('the Lambda handler and the local server', () => {
  it.each(['list', 'detail', 'error', 'csv'])(
    'return the same status, headers and body for the recorded %s event',
    async (name) => {
      const lambda = await handler(recordedEvent(name, lambdaKey).event, {});
      const local = recordedEvent(name, localKey);
      const res = await fetch(local.url, { headers: local.headers });
      const localBody = await res.text();

      expect(lambda.statusCode).toBe(res.status);
      // The recorded events ask for gzip, deflate and br: a body of 1 KB or more comes back br, base64-encoded.
      expect(lambda.isBase64Encoded ?? false).toBe(res.headers.get('content-encoding') !== null);
      expect(lambdaBodyText(lambda)).toBe(localBody);
      const fromLambda = appHeaders(Object.entries(lambda.headers ?? {}));
      const fromLocal = appHeaders(res.headers.entries());
      // Seconds until the monthly reset are read from each side's clock; they may straddle a second.
      const resetDiff = Math.abs(
        Number(fromLambda['x-ratelimit-reset'] ?? 0) - Number(fromLocal['x-ratelimit-reset'] ?? 0),
      );
      expect(resetDiff).toBeLessThanOrEqual(1);
      delete fromLambda['x-ratelimit-reset'];
      delete fromLocal['x-ratelimit-reset'];
      // The same seconds are the `t` of the RateLimit field.
      const resetOf = (field: string | undefined) => Number(/;t=(\d+)/.exec(field ?? '')?.[1] ?? 0);
      expect(Math.abs(resetOf(fromLambda.ratelimit) - resetOf(fromLocal.ratelimit))).toBeLessThanOrEqual(1);
      for (const side of [fromLambda, fromLocal])
        if (side.ratelimit) side.ratelimit = side.ratelimit.replace(/;t=\d+/, '');
      expect(fromLambda).toEqual(fromLocal);
    },
  );

  it('answers each recorded event as the contract says', async () => {
    const list = await handler(recordedEvent('list', lambdaKey).event, {});
    expect(list.statusCode).toBe(200);
    expect(JSON.parse(lambdaBodyText(list))).toMatchObject({
      tier: 'paid',
      plan: 'developer',
      publish_boundary: 'verified',
    });
    expect(list.headers?.['x-ratelimit-limit']).toBe('25000');

    const detail = await handler(recordedEvent('detail', lambdaKey).event, {});
    expect(detail.statusCode).toBe(200);
    expect(JSON.parse(lambdaBodyText(detail)).data.entity_id).toBe(entityId);

    const error = await handler(recordedEvent('error', lambdaKey).event, {});
    expect(error.statusCode).toBe(400);
    expect(JSON.parse(lambdaBodyText(error)).code).toBe('invalid_vertical');

    const csv = await handler(recordedEvent('csv', lambdaKey).event, {});
    expect(csv.statusCode).toBe(200);
    expect(csv.headers?.['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers?.['content-disposition']).toMatch(/^attachment; filename="/);
    expect(lambdaBodyText(csv).split('\r\n')[0]).toMatch(/^npi,name,taxonomy_code,/);
  });
});
