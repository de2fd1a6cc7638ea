/**
 * `npm start`: the embedded local default. Builds the demo snapshot when there is none (the ETL CLI in a child
 * process: `lambdas/**` never imports `etl/**`), starts the persisted local DynamoDB (dynalite), creates one
 * demo key per plan on first start, and serves the API at http://127.0.0.1:8787/api/v1 (`PORT` overrides).
 *
 * Demo keys are stored in plaintext ONLY in `<PF_LOCAL_DIR>/demo-keys.json` (gitignored, local only), so that
 * later starts can print them again; the keys table holds their hashes like any other key.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { API_BASE_PATH, PLANS, type Plan } from '../../data-contracts/constants';
import { POINTER_KEY } from '../../data-contracts/layout';
import { heapOption } from '../../data-contracts/memory-budget';
import { PAGE_PATHS } from '../../data-contracts/routes';
import { createDynamoClient } from '../../lambdas/access/dynamo';
import { KeyStore } from '../../lambdas/access/key-store';
import {
  createApiRuntime,
  createObjectStore,
  runtimeOptionsFrom,
  type TablesConfig,
} from '../../lambdas/handlers/runtime';
import { configureV8Heap } from '../../lambdas/handlers/v8-heap';
import { serveNode } from '../../lambdas/http/node-adapter';
import { createJsonLogger } from '../../platform/logger';
import type { ObjectStore } from '../../platform/object-store';
import { readCurrentSnapshot } from '../../platform/snapshot-protocol';
import { addBenchRoutes } from '../bench/api/bench-routes';
import { loadLocalConfig } from './config';
import { startLocalDynamo } from './dynamo-local';
import { ensureReceiptSeed } from './receipt-seed';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const HOST = '127.0.0.1';
const DEMO_KEYS_FILE = 'demo-keys.json';

type DemoKeys = Partial<Record<Plan, string>>;

async function main(): Promise<void> {
  configureV8Heap();
  const local = loadLocalConfig(process.env, { localDir: path.join(REPO_ROOT, '.local') });
  const { api: config, localDir, port } = local;
  const logger = createJsonLogger({ level: config.logLevel, write: (line) => process.stderr.write(`${line}\n`) });
  // V8's limit is fixed when Node starts: `npm start` passes the local default's; another budget needs its own.
  const heapLimitMb = Math.round(getHeapStatistics().heap_size_limit / 1024 ** 2);
  if (heapLimitMb > config.memory.heapMb * 1.5) {
    say(
      `Note: V8 may grow its heap to ${heapLimitMb} MB; for an RSS within the ${config.memory.budgetMb} MB budget ` +
        `start Node with ${heapOption(config.memory)} (for example in NODE_OPTIONS).`,
    );
  }

  const store = createObjectStore(config.store);
  if (config.store.kind === 'folder') {
    const why = await unusableSnapshot(store);
    if (why !== null) {
      say(`${why} in ${config.store.dir}: building the demo snapshots (A, then B)...`);
      await buildDemoSnapshot(config.store.dir);
    }
  }

  // The embedded DynamoDB only when no deployment's tables are configured.
  let dynamo: Awaited<ReturnType<typeof startLocalDynamo>> | null = null;
  let tables: TablesConfig;
  if (config.access.tables.kind === 'deployed') {
    tables = config.access.tables;
  } else {
    dynamo = await startLocalDynamo({ dir: localDir });
    tables = { keysTable: dynamo.keysTable, usageTable: dynamo.usageTable, endpoint: dynamo.endpoint };
  }
  // Receipts are signed with PF_RECEIPT_SEED's key, else with the key of the seed kept in the local folder.
  const receipts = config.receipts ?? { kind: 'seed' as const, seed: await ensureReceiptSeed(localDir) };
  const runtime = await createApiRuntime({
    ...runtimeOptionsFrom(config, tables, logger),
    receipts,
    store,
    app: local.benchCeiling ? { extraRoutes: addBenchRoutes } : {},
  });
  // Load the snapshot before listening, so the first request does not pay for it; the demo keys meanwhile (the
  // snapshot's Parquet reads run on DuckDB's threads). Identity partitions load later, on their first query.
  const [keys] = await Promise.all([ensureDemoKeys(localDir, tables), runtime.snapshots.refresh()]);
  const slug = await runtime.deps.snapshots.withSnapshot(async (data) => {
    const page = await data.listVertical({
      vertical: 'glp1',
      state: null,
      city: null,
      businessMode: null,
      boundary: 'verified',
      limit: 1,
      offset: 0,
    });
    return page.rows[0]?.slug ?? null;
  });
  const server = await serveNode(runtime.app, { port, hostname: HOST });
  printWelcome(`${server.url}${API_BASE_PATH}`, keys, typeof slug === 'string' ? slug : null, localDir);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`\n${signal}: shutting down...`);
    await server.close();
    await runtime.close();
    await dynamo?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/** Why the local store has no snapshot this code can serve, or null when it has one. */
async function unusableSnapshot(store: ObjectStore): Promise<string | null> {
  if ((await store.head(POINTER_KEY)) === null) return 'No snapshot';
  try {
    const current = await readCurrentSnapshot(store);
    // The demo has two snapshots so that the change feed has a step: a demo built before the change feed is rebuilt.
    // Any other snapshot is served as it is (its change feed starts with the next build): never overwritten.
    if (current === null || current.manifest.changes !== undefined) return null;
    const demo = Object.values(current.manifest.sources).some((s) => s.file.endsWith('tools/demo/glp1/providers.csv'));
    return demo ? 'The demo snapshot has no change feed' : null;
  } catch (err) {
    // An older layout (say, before identity serving indexes) or a damaged manifest: the demo is rebuilt.
    return `The current snapshot cannot be served (${err instanceof Error ? err.message : String(err)})`;
  }
}

/**
 * Builds the demo's two snapshots (A, then B a month later: etl/cli/demo-inputs.ts), so that the change feed has a step
 * to show, with the ETL CLI in a child process each.
 */
async function buildDemoSnapshot(dataDir: string): Promise<void> {
  for (const snapshot of ['a', 'b']) await runDemoBuild(dataDir, snapshot);
}

/** Runs the ETL CLI in a child process and waits for it. */
function runDemoBuild(dataDir: string, snapshot: string): Promise<void> {
  const tsx = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
  const args = ['etl/cli.ts', 'build', '--demo', '--demo-snapshot', snapshot, '--out', dataDir, '--json'];
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, args, {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`the demo snapshot build (${snapshot}) failed (exit code ${code})`)),
    );
  });
}

/** Reuses the demo keys of earlier starts while they are active; creates the missing ones. */
async function ensureDemoKeys(
  localDir: string,
  tables: { keysTable: string; endpoint?: string; region?: string },
): Promise<Record<Plan, string>> {
  const file = path.join(localDir, DEMO_KEYS_FILE);
  const saved = await readFile(file, 'utf8')
    .then((text) => JSON.parse(text) as DemoKeys)
    .catch(() => ({}) as DemoKeys);
  const client = createDynamoClient({
    ...(tables.endpoint ? { endpoint: tables.endpoint } : {}),
    ...(tables.region ? { region: tables.region } : {}),
  });
  const keyStore = new KeyStore({ client, tableName: tables.keysTable });
  const keys = {} as Record<Plan, string>;
  let changed = false;
  try {
    for (const plan of PLANS) {
      const existing = saved[plan];
      const record = existing ? await keyStore.findByKey(existing) : null;
      if (existing && record?.status === 'active') {
        keys[plan] = existing;
        continue;
      }
      const issued = await keyStore.create({
        plan,
        vertical: plan === 'builder' ? 'glp1' : null,
        label: `demo ${plan} key (npm start)`,
      });
      keys[plan] = issued.key;
      changed = true;
    }
  } finally {
    client.destroy();
  }
  if (changed) {
    await mkdir(localDir, { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
    await rename(temp, file);
  }
  return keys;
}

function say(text: string): void {
  process.stdout.write(`${text}\n`);
}

function printWelcome(base: string, keys: Record<Plan, string>, slug: string | null, localDir: string): void {
  const where = path.relative(process.cwd(), localDir) || '.';
  const lines = [
    '',
    `Provider Facts Data API (local) at ${base}`,
    `API reference (open in a browser): ${base}/docs`,
    `Coverage page (open in a browser): ${base}${PAGE_PATHS.coverage}`,
    '',
    `Demo keys (local only; kept in ${path.join(where, DEMO_KEYS_FILE)}):`,
    ...PLANS.map((plan) => `  ${plan.padEnd(10)} ${keys[plan]}${plan === 'builder' ? '  (bound to glp1)' : ''}`),
    '',
    'Try:',
    `  curl -s -H "Authorization: Bearer ${keys.developer}" "${base}/providers?vertical=glp1&state=TX&limit=5"`,
    `  curl -s -H "x-api-key: ${keys.free}" "${base}/providers?taxonomy=363L00000X&state=TX&limit=5"`,
    `  curl -s -H "Authorization: Bearer ${keys.free}" "${base}/providers?taxonomy=Nurse%20Practitioner&limit=5"`,
    ...(slug ? [`  curl -s -H "Authorization: Bearer ${keys.builder}" "${base}/providers/${slug}"`] : []),
    `  curl -s -OJ -H "Authorization: Bearer ${keys.developer}" "${base}/providers?vertical=glp1&format=csv&limit=1000"`,
    `  curl -s "${base}/coverage"`,
    `  curl -s "${base}/sample"`,
    `  curl -s "${base}/sample?format=csv"`,
    '',
    `Ctrl-C stops the server; keys and usage counts persist in ${where}/.`,
    '',
  ];
  say(lines.join('\n'));
}

main().catch((err: unknown) => {
  process.stderr.write(`npm start failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
