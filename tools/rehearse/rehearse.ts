/**
 * `npm run rehearse -- [--rows N] [--s3-latency-ms 25] [--dynamo-delay-ms 5] [--memory-mb M] [--cold-instances 50]
 * [--parallel 2] [--fleet-rate 40] [--fleet-seconds 180] [--idle-retire-s 600] [--max-instances N] [--seed 1]
 * [--json FILE]`
 *
 * The deployed stack rehearsed on this machine (docs/deployment-rehearsal.md): the CDK app synthesized with its
 * Lambda assets; the API function's asset run by the Runtime Interface Client on Node 22 in emulated execution
 * environments (one invocation at a time, cold starts, frozen between calls, memory and CPU of its size, its own
 * /tmp); S3 on loopback with a first-byte delay and 85 MB/s per connection; DynamoDB with a delay per call; an
 * API Gateway front. With `--rows N`, the snapshot of bench:api (`.bench/api/rows-N`, built once with the real ETL
 * from a synthetic NPPES file); without, the demo. Nothing reaches AWS.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureSnapshot, readSnapshot, snapshotDirs } from '../bench/api/bench-snapshot';
import { createRandom } from '../demo/random';
import { publishDemo, publishFolderSnapshot } from './deploy/publish';
import { addCounters, emptyCounters, subtractCounters } from './network/shaper';
import { Client, measureColdAnswers, measureFleet } from './phases';
import { coldCostPerMillion, coldFigures, costPerMillion, fleetFigures, initFigures } from './report/report';
import { startStage } from './stage';
import { drawWorkload, QUERY_KINDS, type Workload } from './workload';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const PROVIDERS = 10_000;

function options() {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string' },
      's3-latency-ms': { type: 'string', default: '25' },
      'dynamo-delay-ms': { type: 'string', default: '5' },
      'memory-mb': { type: 'string' },
      'cold-instances': { type: 'string', default: '50' },
      parallel: { type: 'string', default: '2' },
      'fleet-rate': { type: 'string', default: '40' },
      'fleet-seconds': { type: 'string', default: '180' },
      'idle-retire-s': { type: 'string', default: '600' },
      'max-instances': { type: 'string', default: '0' },
      seed: { type: 'string', default: '1' },
      json: { type: 'string' },
    },
    strict: true,
  });
  const num = (name: keyof typeof values, min: number, max: number): number => {
    const raw = values[name];
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} must be a number from ${min} to ${max}`);
    return n;
  };
  return {
    rows: values.rows === undefined ? null : num('rows', 1000, 9_000_000),
    s3LatencyMs: num('s3-latency-ms', 0, 5000),
    dynamoDelayMs: num('dynamo-delay-ms', 0, 1000),
    memoryMb: values['memory-mb'] === undefined ? undefined : num('memory-mb', 128, 10_240),
    coldInstances: num('cold-instances', 0, 10_000),
    parallel: num('parallel', 1, 16),
    fleetRate: num('fleet-rate', 0.1, 1000),
    fleetSeconds: num('fleet-seconds', 1, 3600),
    idleRetireMs: num('idle-retire-s', 1, 7200) * 1000,
    maxInstances: num('max-instances', 0, 1000),
    seed: num('seed', 0, 2 ** 31),
    json: values.json ?? null,
  };
}

async function main(): Promise<void> {
  const opts = options();
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const label = opts.rows === null ? 'demo' : `rows-${opts.rows}`;
  const workDir = path.join(REPO_ROOT, '.bench', 'rehearse', label);
  await mkdir(workDir, { recursive: true });
  const rng = createRandom(opts.seed);

  let dataDir: string;
  if (opts.rows === null) {
    dataDir = '';
  } else {
    const dirs = snapshotDirs(path.join(REPO_ROOT, '.bench', 'api'), opts.rows, PROVIDERS);
    await ensureSnapshot(dirs, opts.rows, PROVIDERS, REPO_ROOT);
    dataDir = dirs.data;
  }
  const t = performance.now();
  const workload =
    opts.rows === null ? null : await drawWorkload(dataDir, (await readSnapshot(dataDir)).manifest, rng, 20_000);
  if (workload) {
    say(
      `drew the queries over the whole snapshot in ${((performance.now() - t) / 1000).toFixed(1)} s: ` +
        QUERY_KINDS.map((k) => `${k} ${workload[k].length}`).join(', '),
    );
  }
  let client: Client | null = null;
  const stage = await startStage({
    repoRoot: REPO_ROOT,
    workDir,
    // Outside the label's folder: a published national snapshot is kept for the next run.
    s3Dir: path.join(REPO_ROOT, '.bench', 'rehearse', 's3', label),
    s3LatencyMs: opts.s3LatencyMs,
    dynamoDelayMs: opts.dynamoDelayMs,
    ...(opts.memoryMb ? { memoryMb: opts.memoryMb } : {}),
    idleRetireMs: opts.idleRetireMs,
    maxInstances: opts.maxInstances,
    publish: async (endpoint, bucket) => {
      if (opts.rows === null) await publishDemo(REPO_ROOT, endpoint, bucket);
      else {
        const published = await publishFolderSnapshot(dataDir, endpoint, bucket, say);
        say(
          `snapshot ${published.snapshotId}: ${published.objects} objects${published.uploaded ? ' uploaded' : ' already in the bucket'}`,
        );
      }
    },
    onRecord: (record) => client?.collect(record),
    say,
  });
  try {
    say(
      `function: ${stage.spec.memoryMb} MB, /tmp ${stage.spec.ephemeralStorageMb} MB, timeout ${stage.spec.timeoutSeconds} s, ` +
        `${stage.spec.architecture}, reserved concurrency ${stage.spec.reservedConcurrency ?? 'none'}; ` +
        (stage.confined.ok
          ? 'instances confined by cgroups (memory, cpu, freezer) with a private /tmp'
          : `UNCONFINED: ${stage.confined.reason}`),
    );
    client = new Client(stage.front.origin, stage.keys.developer);
    const drawn = workload ?? demoWorkload();
    say(`cold first answers: ${opts.coldInstances} fresh instances per query kind, ${opts.parallel} at a time`);
    const cold = await measureColdAnswers(stage, client, drawn, QUERY_KINDS, {
      instances: opts.coldInstances,
      parallel: opts.parallel,
      rng,
      say,
    });
    // The cold figures are kept at once: a fleet that overruns this machine must not lose them.
    await writeFile(
      path.join(workDir, 'cold-answers.json'),
      `${JSON.stringify({ init_ms: initFigures(cold), cold_first_answer: coldFigures(cold) }, null, 2)}\n`,
    );
    say(`fleet: ${opts.fleetRate} requests/s (Poisson) for ${opts.fleetSeconds} s from zero instances`);
    const cpuBefore = process.cpuUsage();
    const dynamoBefore = emptyCounters();
    addCounters(dynamoBefore, stage.services.dynamoPort.counters);
    const fleet = await measureFleet(stage, client, drawn, {
      rate: opts.fleetRate,
      seconds: opts.fleetSeconds,
      rng,
      say,
    });
    const cpu = process.cpuUsage(cpuBefore);
    const dynamo = subtractCounters(stage.services.dynamoPort.counters, dynamoBefore);
    const fleetReport = fleetFigures({ ...fleet, dynamo }, stage.spec);
    const tmpMax = Math.max(...stage.pool.all.map((i) => i.tmpBytesMax));
    const memMax = Math.max(...stage.pool.all.map((i) => i.memoryMaxBytes));
    const report = {
      at: new Date().toISOString(),
      rows: opts.rows,
      s3_latency_ms: opts.s3LatencyMs,
      s3_bytes_per_second_per_connection: 85 * 1024 * 1024,
      dynamo_delay_ms: opts.dynamoDelayMs,
      function: {
        memory_mb: stage.spec.memoryMb,
        ephemeral_storage_mb: stage.spec.ephemeralStorageMb,
        timeout_s: stage.spec.timeoutSeconds,
        architecture: stage.spec.architecture,
        reserved_concurrency: stage.spec.reservedConcurrency,
        machine_max_instances: stage.maxInstances,
        confined: stage.confined.ok,
        ...(stage.confined.ok ? {} : { unconfined_reason: stage.confined.reason }),
      },
      tls_to_s3: 'excluded: plain HTTP on loopback (docs/deployment-rehearsal.md)',
      init_ms: initFigures(cold),
      cold_first_answer: coldFigures(cold),
      fleet: {
        ...fleetReport,
        // The emulated services (s3rver, dynalite, the shaper, the front, the client) share this machine's cores
        // with the instances: their share of one core during the fleet.
        rehearsal_process_cpu_share: Number(((cpu.user + cpu.system) / 1e6 / fleet.wallSeconds).toFixed(2)),
      },
      cost_per_million_usd: costPerMillion(fleetReport, stage.spec),
      cost_per_million_if_every_call_cold_usd: coldCostPerMillion(cold, stage.spec),
      instances: {
        started: stage.pool.all.length,
        init_failures: stage.pool.initFailures,
        killed: stage.pool.all.filter((i) => i.dead !== null && i.dead !== 'retired').map((i) => i.dead),
        tmp_bytes_max: tmpMax,
        tmp_over_ephemeral_storage: tmpMax > stage.spec.ephemeralStorageMb * 1024 * 1024,
        memory_charged_max_bytes: memMax,
      },
    };
    const text = JSON.stringify(report, (k, v) => (k === 'prices' ? undefined : v), 2);
    say(text);
    const full = `${JSON.stringify(report, null, 2)}\n`;
    if (opts.json) await writeFile(path.resolve(opts.json), full);
    await writeFile(path.join(workDir, `report-${report.at.replace(/[:.]/g, '-')}.json`), full);
  } finally {
    client?.close();
    await stage.close();
  }
}

/** The demo's queries (no `--rows`): a few of each kind the demo snapshot can answer. */
function demoWorkload(): Workload {
  return {
    identity_a: ['/api/v1/providers?taxonomy=101Y00000X&state=TX&limit=50'],
    identity_b: ['/api/v1/providers?taxonomy=counselor&state=TX&city=houston&limit=50'],
    identity_c: ['/api/v1/providers?taxonomy=counselor&offset=10&limit=50'],
    identity_d: ['/api/v1/providers?taxonomy=101Y00000X&limit=1000'],
    npi_single: ['/api/v1/npi/1003633876', '/api/v1/npi/1508798976'],
    npi_batch: ['/api/v1/npi?numbers=1003633876,1114636115,1508798976'],
    search_name: ['/api/v1/providers?name=smi&state=TX'],
    search_zip: ['/api/v1/providers?postal_code=77030&state=TX'],
    changes_roster: [],
    changes_since: [],
    vertical_list: ['/api/v1/providers?vertical=glp1&state=TX&limit=50'],
    radius_identity: ['/api/v1/providers?taxonomy=Counselor&near=12901&radius_miles=25&limit=50'],
    radius_vertical: ['/api/v1/providers?vertical=glp1&near=32.7767,-96.7970&radius_miles=25&limit=50'],
  };
}

main().then(
  // Invocations the front gave up on (504) may still hold sockets: the report is written, the run is over.
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`rehearse failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
