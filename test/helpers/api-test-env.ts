/**
 * The API integration harness: a snapshot that the real ETL builds (etl/build.ts) into a folder store or s3rver,
 * dynalite with the real tables, the real runtime (DuckDB, snapshot cache, KeyStore, DynamoMeter) and both
 * adapters. Start one per describe block, in beforeAll: the snapshot is built once for it, into its temp folder.
 */
import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { PLANS, type Plan } from '../../data-contracts/constants';
import { LOCAL_BUDGET_MB, planMemory } from '../../data-contracts/memory-budget';
import { type BuildInputs, buildSnapshot } from '../../etl/build';
import { DEMO_LEIE_AS_OF, demoBuildInputs } from '../../etl/cli/demo-inputs';
import { FEED_FILES } from '../../etl/sources/feed';
import { hashKey } from '../../lambdas/access/api-key';
import { createDynamoClient, ensureTables } from '../../lambdas/access/dynamo';
import { KeyStore } from '../../lambdas/access/key-store';
import { monthKey } from '../../lambdas/access/quota';
import { type ApiRuntime, createApiRuntime } from '../../lambdas/handlers/runtime';
import { createLambdaHandler, type LambdaHandler } from '../../lambdas/http/lambda-adapter';
import { type NodeServer, serveNode } from '../../lambdas/http/node-adapter';
import { FolderObjectStore } from '../../platform/folder-store';
import { createJsonLogger } from '../../platform/logger';
import type { ObjectStore } from '../../platform/object-store';
import { S3ObjectStore } from '../../platform/s3-store';
import { type DynaliteHandle, startDynalite } from './dynalite';
import { type S3rverHandle, startS3rver } from './s3rver';

export const KEYS_TABLE = 'pf-keys-test';
export const USAGE_TABLE = 'pf-usage-test';

/** Options of {@link startApiTestEnv}. */
export interface ApiTestEnvOptions {
  storage: 'folder' | 's3';
  /** Which committed inputs the real ETL builds the snapshot from (see {@link SNAPSHOTS}). Default `demo`. */
  snapshot?: SnapshotName;
  /** Seconds a key lookup is cached. Default 5. */
  keyCacheSeconds?: number;
  /** Seconds a key keeps answering while the keys table fails. Default the runtime's (900). */
  keyStaleSeconds?: number;
  /** Persist dynalite's tables on disk, so they survive `dynalite.stop()` and `dynalite.restart()`. */
  persistTables?: boolean;
  /** Metering timeout. Default 250 ms. */
  meterTimeoutMs?: number;
  /** The process memory budget in MB. Default the local default (`LOCAL_BUDGET_MB`). */
  memoryBudgetMb?: number;
  /** Inputs that replace the named snapshot's (its time is kept). */
  inputs?: BuildInputs;
  /**
   * Publishes the snapshots instead of the named one: called with the folder of the folder store (`storage:
   * 'folder'` only), e.g. to build a chain of snapshots with test/helpers/changes-fixture.ts.
   */
  publish?: (folder: string) => Promise<unknown>;
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
  /** Moves the runtime clock forward (the pointer TTL and the key cache). */
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
    if (options.publish) throw new Error('publish needs storage: folder');
    s3 = await startS3rver();
    store = new S3ObjectStore(s3.client, s3.bucket, 'pf');
  } else {
    store = new FolderObjectStore(path.join(work, 'data'));
  }
  if (options.publish) await options.publish(path.join(work, 'data'));
  else {
    const snapshot = SNAPSHOTS[options.snapshot ?? 'demo'];
    await publishEtlSnapshot(store, snapshot.time, options.inputs ?? snapshot.inputs());
  }

  const dynalite = await startDynalite(options.persistTables ? { path: path.join(work, 'dynamo') } : {});
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
    ...(options.keyStaleSeconds !== undefined ? { keyStaleSeconds: options.keyStaleSeconds } : {}),
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
/** The committed edge-case inputs (test/fixtures/api-edge/README.md says what each row is for). */
export const EDGE_INPUTS_DIR = path.join(REPO_ROOT, 'test', 'fixtures', 'api-edge');

/** The demo inputs (real public samples and the demo feed), as `npm run etl -- build --demo` reads them. */
export function demoInputs(): BuildInputs {
  return demoBuildInputs(REPO_ROOT);
}

/**
 * The edge-case inputs: a glp1 feed with internal_only records, formula-like and odd-cased text, a state-less
 * online provider, an FDA-flagged and an OIG-excluded record; NPPES rows with two codes of one classification, an
 * OIG-excluded NPI, a code unknown to NUCC and a deactivated NPI; a five-code NUCC excerpt.
 */
export function edgeInputs(): BuildInputs {
  const file = (name: string) => path.join(EDGE_INPUTS_DIR, name);
  return {
    nppes: [file('nppes.csv')],
    nucc: file('nucc.csv'),
    leie: [file('leie.csv')],
    leieAsOf: DEMO_LEIE_AS_OF,
    fda: [file('fda.csv')],
    feeds: [file('glp1')],
  };
}

export type SnapshotName = 'demo' | 'edge';

/** The snapshots the API suites run on: the real ETL's output of committed inputs, at a fixed snapshot time. */
export const SNAPSHOTS: Record<SnapshotName, { name: SnapshotName; time: Date; inputs: () => BuildInputs }> = {
  demo: { name: 'demo', time: new Date('2026-10-15T00:00:00Z'), inputs: demoInputs },
  edge: { name: 'edge', time: new Date('2026-06-15T00:00:00Z'), inputs: edgeInputs },
};

/** Builds and publishes a snapshot with the real ETL (default: the demo inputs). Returns its id. */
export async function publishEtlSnapshot(
  store: ObjectStore,
  snapshotTime: Date,
  inputs: BuildInputs = demoInputs(),
): Promise<string> {
  const summary = await buildSnapshot({ store, inputs, snapshotTime, duckdb: { threads: 2 } });
  return summary.snapshot_id;
}

/**
 * The inputs with one more verified glp1 provider (`entity_id`, `slug`) appended to a copy of the first feed,
 * in `dir`: a later snapshot that differs from the first by one record.
 */
export async function withExtraProvider(
  inputs: BuildInputs,
  dir: string,
  provider: { entity_id: string; slug: string; name: string },
): Promise<BuildInputs> {
  const [first, ...rest] = inputs.feeds;
  if (!first) throw new Error('the inputs have no feed');
  const feed = path.join(dir, 'feed');
  await cp(first, feed, { recursive: true });
  const { entity_id: id, slug, name } = provider;
  await appendFile(path.join(feed, FEED_FILES.providers), `${id},${slug},glp1,${name},,,,online,,,,verified\n`);
  await appendFile(
    path.join(feed, FEED_FILES.observations),
    `${id},certification,verified,Certifying Body,,,2026-05-01T00:00:00Z,,,,\n`,
  );
  return { ...inputs, feeds: [feed, ...rest] };
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
