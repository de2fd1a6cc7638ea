/**
 * The API integration harness: a snapshot in a folder store or in s3rver, dynalite with the real tables, the
 * real runtime (DuckDB, snapshot cache, KeyStore, DynamoMeter) and both adapters. Build once per file.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { PLANS, type Plan } from '../../data-contracts/constants';
import { LOCAL_BUDGET_MB, planMemory } from '../../data-contracts/memory-budget';
import { buildSnapshot } from '../../etl/build';
import { demoBuildInputs } from '../../etl/demo-inputs';
import { hashKey } from '../../lambdas/access/api-key';
import { createDynamoClient, ensureTables } from '../../lambdas/access/dynamo';
import { KeyStore } from '../../lambdas/access/key-store';
import { monthKey } from '../../lambdas/access/quota';
import { type ApiRuntime, createApiRuntime } from '../../lambdas/handlers/runtime';
import { createLambdaHandler, type LambdaHandler } from '../../lambdas/http/lambda-adapter';
import { type NodeServer, serveNode } from '../../lambdas/http/node-adapter';
import { createJsonLogger } from '../../platform/logger';
import { FolderObjectStore, type ObjectStore, S3ObjectStore } from '../../platform/object-store';
import { publishFixtureSnapshot } from './api-snapshot-fixture';
import { type DynaliteHandle, startDynalite } from './dynalite';
import { type S3rverHandle, startS3rver } from './s3rver';

export const KEYS_TABLE = 'pf-keys-test';
export const USAGE_TABLE = 'pf-usage-test';

/** Options of {@link startApiTestEnv}. */
export interface ApiTestEnvOptions {
  storage: 'folder' | 's3';
  /**
   * `etl`: the real ETL's output of the real sample files and the demo glp1 feed (default).
   * `fixture`: the small hand-made snapshot of api-snapshot-fixture.ts (edge cases).
   */
  snapshot?: 'etl' | 'fixture';
  /** Seconds a key lookup is cached. Default 5. */
  keyCacheSeconds?: number;
  /** Metering timeout. Default 250 ms. */
  meterTimeoutMs?: number;
  /** The process memory budget in MB. Default the local default (`LOCAL_BUDGET_MB`). */
  memoryBudgetMb?: number;
}

/** A running API for a test file. */
export interface ApiTestEnv {
  store: ObjectStore;
  runtime: ApiRuntime;
  server: NodeServer;
  lambda: LambdaHandler;
  dynalite: DynaliteHandle;
  keyStore: KeyStore;
  /** One active key per plan (builder bound to glp1). */
  keys: Record<Plan, string>;
  /** Every log line the runtime wrote. */
  logs: string[];
  /** Moves the pointer-TTL clock forward. */
  advanceClock(ms: number): void;
  /** Fetches through the node:http adapter. */
  get(pathAndQuery: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export async function startApiTestEnv(options: ApiTestEnvOptions): Promise<ApiTestEnv> {
  const work = await mkdtemp(path.join(tmpdir(), 'pf-api-'));
  let s3: S3rverHandle | undefined;
  let store: ObjectStore;
  if (options.storage === 's3') {
    s3 = await startS3rver();
    store = new S3ObjectStore(s3.client, s3.bucket, 'pf');
  } else {
    store = new FolderObjectStore(path.join(work, 'data'));
  }
  if (options.snapshot === 'fixture') await publishFixtureSnapshot({ store });
  else await publishEtlSnapshot(store, new Date('2026-10-15T00:00:00Z'));

  const dynalite = await startDynalite();
  const client = createDynamoClient({ endpoint: dynalite.endpoint });
  await ensureTables(client, { keysTable: KEYS_TABLE, usageTable: USAGE_TABLE });
  const keyStore = new KeyStore({ client, tableName: KEYS_TABLE });
  const keys = {} as Record<Plan, string>;
  for (const plan of PLANS) {
    keys[plan] = (await keyStore.create({ plan, vertical: plan === 'builder' ? 'glp1' : null })).key;
  }

  let offsetMs = 0;
  const logs: string[] = [];
  const runtime = await createApiRuntime({
    store,
    cacheDir: path.join(work, 'cache'),
    pointerTtlSeconds: 60,
    tables: { keysTable: KEYS_TABLE, usageTable: USAGE_TABLE, endpoint: dynalite.endpoint },
    meterTimeoutMs: options.meterTimeoutMs ?? 250,
    keyCacheSeconds: options.keyCacheSeconds ?? 5,
    logger: createJsonLogger({ level: 'debug', write: (line) => logs.push(line) }),
    memory: planMemory(options.memoryBudgetMb ?? LOCAL_BUDGET_MB),
    nowMs: () => Date.now() + offsetMs,
  });
  const server = await serveNode(runtime.app, { port: 0 });
  return {
    store,
    runtime,
    server,
    lambda: createLambdaHandler(runtime.app),
    dynalite,
    keyStore,
    keys,
    logs,
    advanceClock(ms) {
      offsetMs += ms;
    },
    get: (pathAndQuery, headers = {}) => fetch(`${server.url}${pathAndQuery}`, { headers }),
    async close() {
      await server.close();
      await runtime.close();
      client.destroy();
      await dynalite.stop().catch(() => undefined);
      await s3?.stop();
      await rm(work, { recursive: true, force: true });
    },
  };
}

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Builds and publishes a snapshot with the real ETL from the committed demo inputs. Returns its id. */
export async function publishEtlSnapshot(store: ObjectStore, snapshotTime: Date): Promise<string> {
  const summary = await buildSnapshot({
    store,
    inputs: demoBuildInputs(REPO_ROOT),
    snapshotTime,
    duckdb: { threads: 2 },
  });
  return summary.snapshot_id;
}

/** Sets a key's counter for the current UTC month to `used` calls, as if they had been served. */
export async function setMonthlyUsage(env: ApiTestEnv, key: string, used: number): Promise<void> {
  const client = createDynamoClient({ endpoint: env.dynalite.endpoint });
  try {
    await client.send(
      new PutItemCommand({
        TableName: USAGE_TABLE,
        Item: { key_hash: { S: hashKey(key) }, month: { S: monthKey(new Date()) }, used: { N: String(used) } },
      }),
    );
  } finally {
    client.destroy();
  }
}

/** Headers with a Bearer key. */
export const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });
