/**
 * The small rehearsal (tools/rehearse): the stack as the CDK app synthesizes it, its API asset run by the Runtime
 * Interface Client in two emulated Lambda instances, S3 (s3rver) with a first-byte delay, DynamoDB (dynalite) with
 * a delay per call, keys from the keys CLI, and the API Gateway front. Every `curl` example of docs/try-it.sh (the
 * README's "Try it"), sent plain, with gzip and with br, must get from the front the answer `npm start`'s server gives
 * (the same runtime over a folder of the same snapshots): status, body bytes and the headers that carry meaning.
 * A cold and a warm instance both answer; an instance frozen between invocations answers its next call.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { PLANS, type Plan } from '../../../data-contracts/constants';
import { LOCAL_BUDGET_MB, planMemory } from '../../../data-contracts/memory-budget';
import { buildSnapshot } from '../../../etl/build';
import { DEMO_SNAPSHOT_TIMES, DEMO_SNAPSHOTS, demoChangedInputs } from '../../../etl/cli/demo-inputs';
import { createDynamoClient, ensureTables } from '../../../lambdas/access/dynamo';
import { KeyStore } from '../../../lambdas/access/key-store';
import { type ApiRuntime, createApiRuntime } from '../../../lambdas/handlers/runtime';
import { type NodeServer, serveNode } from '../../../lambdas/http/node-adapter';
import { FolderObjectStore } from '../../../platform/folder-store';
import { silentLogger } from '../../../platform/logger';
import { publishFolderSnapshot } from '../../../tools/rehearse/deploy/publish';
import type { FrontRecord } from '../../../tools/rehearse/network/front';
import { type Stage, startStage } from '../../../tools/rehearse/stage';
import { type DynaliteHandle, startDynalite } from '../../helpers/dynalite';
import { assignedValue, type Example, expand, tryItExamples } from '../../helpers/examples';
import { type RawAnswer, rawRequest } from '../../helpers/raw-answers';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
/** Outside /tmp: each instance mounts a folder of its own over /tmp, and the asset must stay visible. */
const WORK = path.join(REPO_ROOT, '.bench', `rehearse-test-${process.pid}`);
const DATA = path.join(WORK, 'data');
/** Headers whose values carry meaning; request ids, dates and transport headers are left out. */
const MEANINGFUL = [
  'content-type',
  'content-encoding',
  'content-disposition',
  'cache-control',
  'etag',
  'vary',
  'location',
  'x-snapshot-id',
  'x-data-as-of',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'access-control-allow-origin',
  'access-control-expose-headers',
] as const;
const ENCODINGS = ['identity', 'gzip', 'br'] as const;
const KEY_VARIABLES: Record<string, Plan> = { FREE: 'free', BUILDER: 'builder', DEV: 'developer', ENT: 'enterprise' };

let stage: Stage;
let local: { runtime: ApiRuntime; server: NodeServer; dynalite: DynaliteHandle; keys: Record<Plan, string> };
const records: FrontRecord[] = [];

function decoded(answer: RawAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'gzip') return gunzipSync(answer.body);
  if (encoding === 'br') return brotliDecompressSync(answer.body);
  return answer.body;
}

/**
 * What differs between two deployments' receipts by design (each has its own signing key and its own API keys, and
 * issues each receipt at its own time with its own id), replaced so that two receipts compare; their signatures are
 * verified by the receipts' own tests.
 */
const RECEIPT_VOLATILE: readonly [RegExp, string][] = [
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<receipt-id>'],
  [/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<issued-at>'],
  [/key_[0-9a-f]{16}/g, '<api-key-id>'],
  [/\b[0-9a-f]{16}\b/g, '<key-id>'],
  [/[A-Za-z0-9+/]{86}==|[A-Za-z0-9+/]{43}=/g, '<base64>'],
  [/"x":"[A-Za-z0-9_-]{43}"/g, '"x":"<base64url>"'],
];

/** The request id of an answer, replaced in its body so that two answers compare (receipts: see above). */
function normalised(answer: RawAnswer): string {
  let text = decoded(answer).toString('utf8');
  const id = answer.headers['x-request-id'];
  if (typeof id === 'string' && id !== '') text = text.replaceAll(id, '<request-id>');
  if (!text.includes('receipt') && !text.includes('Ed25519')) return text;
  for (const [pattern, stand] of RECEIPT_VOLATILE) text = text.replace(pattern, stand);
  return text;
}

/**
 * The media type without parameters. The CDN serves the public objects with the type they were stored with
 * (`application/json`), the API adds `; charset=utf-8`: the same JSON (UTF-8 by definition, RFC 8259).
 */
function mediaType(answer: RawAnswer): string {
  return String(answer.headers['content-type']).split(';')[0] as string;
}

function meaningful(answer: RawAnswer): Record<string, unknown> {
  // A CSV receipt's file name carries its receipt id.
  const [uuid, stand] = RECEIPT_VOLATILE[0] as [RegExp, string];
  return Object.fromEntries(
    MEANINGFUL.map((name) => {
      const value = answer.headers[name];
      return [name, typeof value === 'string' ? value.replace(uuid, stand) : value];
    }),
  );
}

/** `X-RateLimit-Reset` is seconds to the month's end, a clock reading: two answers a moment apart agree within 3 s. */
function resetsAgree(a: RawAnswer, b: RawAnswer): boolean {
  const [x, y] = [a.headers['x-ratelimit-reset'], b.headers['x-ratelimit-reset']];
  return x === undefined || y === undefined ? x === y : Math.abs(Number(x) - Number(y)) <= 3;
}

async function startLocal(): Promise<typeof local> {
  const dynalite = await startDynalite();
  const tables = { keysTable: 'pf-keys-local', usageTable: 'pf-usage-local', endpoint: dynalite.endpoint };
  const client = createDynamoClient({ endpoint: dynalite.endpoint });
  await ensureTables(client, tables);
  const store = new KeyStore({ client, tableName: tables.keysTable });
  const keys = {} as Record<Plan, string>;
  for (const plan of PLANS) {
    keys[plan] = (await store.create({ plan, ...(plan === 'builder' ? { vertical: 'glp1' } : {}) })).key;
  }
  client.destroy();
  const runtime = await createApiRuntime({
    store: { kind: 'folder', dir: DATA },
    cacheDir: path.join(WORK, 'local-cache'),
    pointerTtlSeconds: 60,
    tables,
    meterTimeoutMs: 250,
    keyCacheSeconds: 5,
    logger: silentLogger,
    memory: planMemory(LOCAL_BUDGET_MB),
  });
  const server = await serveNode(runtime.app, { port: 0 });
  return { runtime, server, dynalite, keys };
}

beforeAll(async () => {
  await rm(WORK, { recursive: true, force: true });
  // The demo's two snapshots, built once with the real ETL; both sides serve these very objects.
  for (const snapshot of DEMO_SNAPSHOTS) {
    await buildSnapshot({
      store: new FolderObjectStore(DATA),
      inputs: demoChangedInputs(snapshot),
      snapshotTime: new Date(DEMO_SNAPSHOT_TIMES[snapshot]),
      workDir: WORK,
    });
  }
  local = await startLocal();
  stage = await startStage({
    repoRoot: REPO_ROOT,
    workDir: path.join(WORK, 'stage'),
    s3Dir: path.join(WORK, 's3'),
    s3LatencyMs: 25,
    dynamoDelayMs: 5,
    idleRetireMs: 600_000,
    maxInstances: 2,
    publish: async (endpoint, bucket) => {
      await publishFolderSnapshot(DATA, endpoint, bucket, () => undefined, { everything: true });
    },
    onRecord: (record) => records.push(record),
  });
}, 240_000);

afterAll(async () => {
  await stage?.close();
  await local?.server.close();
  await local?.runtime.close();
  await local?.dynalite.stop();
  await rm(WORK, { recursive: true, force: true });
});

/** Sends one example to both sides with the same encoding; each side its own keys. */
async function both(example: Example, encoding: string, assigned: Record<string, string>) {
  const send = (origin: string, keys: Record<Plan, string>) => {
    const values: Record<string, string> = { ...assigned };
    for (const [name, plan] of Object.entries(KEY_VARIABLES)) values[name] = keys[plan];
    const headers: Record<string, string> = { 'accept-encoding': encoding };
    for (const header of example.headers) {
      const [name, ...rest] = expand(header, values).split(':');
      headers[(name as string).trim().toLowerCase()] = rest.join(':').trim();
    }
    return rawRequest(`${origin}/api/v1${expand(example.target, values)}`, headers);
  };
  const [rehearsed, served] = [await send(stage.front.origin, stage.keys), await send(local.server.url, local.keys)];
  return { rehearsed, served };
}

describe('the small rehearsal', () => {
  it('synthesizes the function as the stack deploys it and runs it confined where it can', () => {
    expect(stage.spec.handler).toBe('index.handler');
    expect(stage.spec.memoryMb).toBeGreaterThanOrEqual(128);
    // The template's table references resolved to the tables made from its own key schemas.
    expect(Object.values(stage.services.tableNames)).toContain(stage.spec.environment.PF_KEYS_TABLE);
    expect(Object.values(stage.services.tableNames)).toContain(stage.spec.environment.PF_USAGE_TABLE);
    if (process.getuid?.() === 0) expect(stage.confined).toEqual({ ok: true });
  });

  it('answers every example of docs/try-it.sh through the front as npm start does, plain, gzip and br', async () => {
    const examples = tryItExamples(REPO_ROOT);
    expect(examples.length).toBeGreaterThan(30);
    const assigned: Record<string, string> = {};
    // The first two requests at once: two instances start cold.
    const first = examples[0] as Example;
    await Promise.all([both(first, 'identity', assigned), both(first, 'identity', assigned)]);
    const mismatches: string[] = [];
    for (const example of examples) {
      for (const encoding of ENCODINGS) {
        const { rehearsed, served } = await both(example, encoding, assigned);
        const isStatic = /^\/(coverage|sample)/.test(example.target);
        const got = {
          status: rehearsed.status,
          body: normalised(rehearsed),
          ...(isStatic ? { type: mediaType(rehearsed) } : { headers: meaningful(rehearsed) }),
        };
        const want = {
          status: served.status,
          body: normalised(served),
          ...(isStatic ? { type: mediaType(served) } : { headers: meaningful(served) }),
        };
        if (JSON.stringify(got) !== JSON.stringify(want) || !resetsAgree(rehearsed, served)) {
          const [a, b] = [JSON.stringify(got), JSON.stringify(want)];
          let at = 0;
          while (at < a.length && a[at] === b[at]) at += 1;
          const around = (text: string) => text.slice(Math.max(0, at - 120), at + 200);
          mismatches.push(`${encoding} ${example.line}\n  rehearsed …${around(a)}\n  served    …${around(b)}`);
        }
        if (example.assigns !== null && encoding === 'identity') {
          const readValue = (a: RawAnswer) =>
            assignedValue(example.assigns as string, a.headers, decoded(a).toString('utf8'));
          const value = readValue(rehearsed);
          expect(value).toBe(readValue(served));
          assigned[example.assigns] = value;
        }
      }
    }
    expect(mismatches).toEqual([]);
    const invoked = records.filter((r) => r.instanceId !== null);
    expect(new Set(invoked.map((r) => r.instanceId)).size).toBe(2);
    expect(invoked.filter((r) => r.cold)).toHaveLength(2);
    expect(invoked.filter((r) => !r.cold && r.status === 200).length).toBeGreaterThan(50);
    expect(records.filter((r) => r.status >= 500)).toEqual([]);
  }, 180_000);

  (process.getuid?.() === 0 ? it : it.skip)(
    'answers correctly after being frozen between invocations',
    async () => {
      const path0 = '/api/v1/npi/1003633876';
      const warm = await rawRequest(`${stage.front.origin}${path0}`, { authorization: `Bearer ${stage.keys.free}` });
      // Lambda freezes an environment once its runtime asks for the next event: the emulator's freezer says so.
      const instance = records.at(-1)?.instanceId as string;
      let state = '';
      for (let i = 0; i < 100 && state !== 'FROZEN'; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        state = (
          await readFile(`/sys/fs/cgroup/freezer/pf-rehearse/${process.pid}-${instance}/freezer.state`, 'utf8')
        ).trim();
      }
      expect(state).toBe('FROZEN');
      await new Promise((resolve) => setTimeout(resolve, 500));
      const after = await rawRequest(`${stage.front.origin}${path0}`, { authorization: `Bearer ${stage.keys.free}` });
      expect(after.status).toBe(200);
      expect(normalised(after)).toBe(normalised(warm));
    },
    60_000,
  );
});
