/**
 * Abuse benchmark (not a test): `npm run bench:abuse [-- --calls N] [--rounds R] [--warmup W] [--seed X]
 * [--server-root <checkout>]` (defaults: 200 calls, 4 rounds, 50 warm-up calls, seed 1). What does a call from a
 * key whose monthly quota is used up cost the server, against the same call from a key with quota left?
 *
 * 1. The 1,000,000-row bench snapshot of bench:api (`.bench/api/rows-1000000`, built by ./api/bench-snapshot.ts when
 *    missing), and four scenarios drawn from its own rows over the whole data set (./abuse/abuse-scenarios.ts):
 *    `/npi?numbers=` with 100 NPIs, a `/providers?npi=` roster of 100, an identity list of 1000
 *    (`taxonomy` + `state`), and a page of 1000 of the change feed.
 * 2. DynamoDB: dynalite in this process (./abuse/abuse-tables.ts), so the server's CPU time is the API's alone, as in
 *    a Lambda. Two developer keys issued through the real key store (developer: its 25,000 calls a month hold 250
 *    batches of 100 NPIs, where the free plan's 500 hold 5), and an enterprise key for priming and warming up. One
 *    developer key's counter for the current UTC month is set to the quota (exhausted), the other's to 0 (fresh);
 *    the fresh key's counter is reset before each of its series and every 250 calls, outside the calls' timing.
 * 3. The server: the local server (`tools/local/start.ts`) of `--server-root` (default this checkout; another one,
 *    a git worktree of an older commit, measures before and after with the same tool), bundled with esbuild and run
 *    by plain node in a child process (./api/bench-server.ts), pointed at this process's tables.
 * 4. Priming (every NPI bucket, identity partition and change page opened once) and a warm-up from the enterprise
 *    key; then R rounds (default 4), each running every scenario's two series of N calls (default 200), fresh then
 *    exhausted in even rounds and the other way round in odd ones, so drift favours neither. Each series: calls one
 *    after the other on one keep-alive connection; the server's utime + stime from /proc/<pid>/stat before and
 *    after; wall time per call; every status. The fresh key must get 200 and the exhausted key 429 quota_exceeded
 *    on every call, or the measurement is wrong: the run then fails (exit code 1).
 *
 * The report gives per scenario and key the median over rounds of CPU ms per call and wall ms per call, and the
 * ratio exhausted / fresh; results go to `.bench/abuse/results-<time>.json`.
 */
import http from 'node:http';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { NPI_BATCH_MAX, PLAN_RULES } from '../../data-contracts/constants';
import { createRandom } from '../demo/random';
import { parseAbuseOptions } from './abuse/abuse-options';
import { failures, formatTable, type MeasuredSeries, summarizeScenario } from './abuse/abuse-report';
import { describeCheckout, writeResults } from './abuse/abuse-results';
import {
  type AbuseScenario,
  changesPageScenario,
  drawActiveNpis,
  identityListScenario,
  npiBatchScenario,
  npisNeeded,
  rosterScenario,
  type SetSizes,
} from './abuse/abuse-scenarios';
import { type Expectation, runSeries, type SeriesTarget } from './abuse/abuse-series';
import { type AbuseTables, type BenchKey, openAbuseTables } from './abuse/abuse-tables';
import { readProcessCpuMs } from './abuse/proc-cpu';
import { bundleServer, killRunningServers, type RunningServer, SERVER_ENTRY, startServer } from './api/bench-server';
import { ensureSnapshot, readSnapshot, snapshotDirs } from './api/bench-snapshot';
import { request } from './api/http-load';
import { drawIdentityWorkload, openIdentityViews } from './api/identity-workload';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const ABUSE_DIR = path.join(REPO_ROOT, '.bench', 'abuse');
/** The snapshot of bench:api at 1,000,000 rows (its default providers), shared with it. */
const ROWS = 1_000_000;
const PROVIDERS = 10_000;
const PLAN = 'developer' as const;
/** The server's CPU when idle, measured over IDLE_MS after IDLE_SETTLE_MS of quiet (the warm-up's tail). */
const IDLE_SETTLE_MS = 2000;
const IDLE_MS = 5000;

async function main(): Promise<void> {
  const options = parseAbuseOptions(process.argv.slice(2), REPO_ROOT);
  const quota = PLAN_RULES[PLAN].monthlyQuota;
  const sizes: SetSizes = { warmup: options.warmup, calls: options.calls, rounds: options.rounds };
  const dirs = snapshotDirs(path.join(REPO_ROOT, '.bench', 'api'), ROWS, PROVIDERS);
  await ensureSnapshot(dirs, ROWS, PROVIDERS, REPO_ROOT);
  const { manifest, pointer } = await readSnapshot(dirs.data);
  const rng = createRandom(options.seed);

  let t = performance.now();
  const need = npisNeeded(sizes);
  const npis = await drawActiveNpis(dirs.data, manifest, 2 * need, rng);
  say(
    `drew ${(2 * need).toLocaleString('en-US')} distinct NPIs of ${npis.active.toLocaleString('en-US')} active ones ` +
      `in ${npis.buckets} buckets (${seconds(t)} s)`,
  );
  t = performance.now();
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  let identityScenario: AbuseScenario;
  try {
    const identityFiles = manifest.objects.filter((o) => o.kind === 'identity').map((o) => path.join(dirs.data, o.key));
    const taxonomyObject = manifest.objects.find((o) => o.kind === 'taxonomy');
    if (!taxonomyObject) throw new Error('the snapshot has no taxonomy object');
    await openIdentityViews(conn, identityFiles, path.join(dirs.data, taxonomyObject.key));
    const workload = await drawIdentityWorkload(conn, {
      files: identityFiles,
      taxonomyFile: path.join(dirs.data, taxonomyObject.key),
      draws: Math.ceil((sizes.warmup + sizes.calls * sizes.rounds) * 1.3) + 100,
      deepQueries: 1,
      seed: options.seed,
      rng,
    });
    identityScenario = identityListScenario(workload.queries.a, sizes);
    say(
      `drew ${workload.queries.a.length} taxonomy + state queries from ${workload.drawn} rows sampled over all ` +
        `${workload.partitions} identity partitions (${seconds(t)} s)`,
    );
  } finally {
    conn.closeSync();
    db.closeSync();
  }
  const step = manifest.changes?.steps.at(-1);
  say(
    step === undefined
      ? 'the snapshot keeps no step of changes: no change-feed scenario'
      : `change feed: ${step.changes.toLocaleString('en-US')} changes since ${step.from_snapshot}`,
  );

  const tables = await openAbuseTables(path.join(ABUSE_DIR, 'local'));
  let server: RunningServer | null = null;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const fresh = await tables.issueKey(PLAN, 'bench:abuse fresh');
    const exhausted = await tables.issueKey(PLAN, 'bench:abuse exhausted');
    const warm = await tables.issueKey('enterprise', 'bench:abuse warm-up');

    const bundle = path.join(options.serverRoot, '.bench', 'abuse', 'server.js');
    const ms = await bundleServer(options.serverRoot, bundle);
    const serverInfo = describeCheckout(options.serverRoot);
    say(
      `bundled ${SERVER_ENTRY} of ${options.serverRoot} at ${serverInfo.commit.slice(0, 7)}` +
        `${serverInfo.changed.length > 0 ? ` with uncommitted changes to ${serverInfo.changed.join(', ')}` : ''} ` +
        `(${ms.toFixed(0)} ms)`,
    );
    server = await startServer({
      repoRoot: options.serverRoot,
      runner: 'bundle',
      bundle,
      localDir: path.join(ABUSE_DIR, 'local'),
      dataDir: dirs.data,
      cacheDir: path.join(ABUSE_DIR, 'cache'),
      budgetMb: null,
      env: tables.serverEnv,
    });
    const pid = server.child.pid;
    if (pid === undefined) throw new Error('the server has no process id');
    const target: SeriesTarget = { agent, port: server.port, pid };

    const scenarios: AbuseScenario[] = [
      npiBatchScenario(npis.npis.slice(0, need), npis.firstPerBucket, sizes),
      rosterScenario(npis.npis.slice(need), npis.firstPerBucket, sizes),
      identityScenario,
    ];
    if (step !== undefined) {
      const total = await changesTotal(target, warm.key, step.from_snapshot);
      scenarios.push(changesPageScenario(step.from_snapshot, total, sizes, rng));
      say(`change feed: ${total.toLocaleString('en-US')} changes visible to a developer key`);
    }

    t = performance.now();
    for (const s of scenarios) await warmUp(target, warm.key, s);
    say(`primed and warmed up (${seconds(t)} s)`);
    await sleep(IDLE_SETTLE_MS);
    const idleStart = await readProcessCpuMs(pid);
    await sleep(IDLE_MS);
    const idleCpuMsPerSecond = ((await readProcessCpuMs(pid)) - idleStart) / (IDLE_MS / 1000);
    say(`server CPU when idle: ${idleCpuMsPerSecond.toFixed(1)} ms/s`);

    const measured = new Map<string, MeasuredSeries[]>(scenarios.map((s) => [s.id, []]));
    for (let round = 0; round < options.rounds; round += 1) {
      const order: Expectation[] = round % 2 === 0 ? ['ok', 'exhausted'] : ['exhausted', 'ok'];
      for (const s of scenarios) {
        for (const [place, key] of order.entries()) {
          const urls = s.sets[round + 1] as string[];
          const run = { target, tables, key: key === 'ok' ? fresh : exhausted, urls, quota };
          const series = await KEY_SERIES[key](run);
          measured.get(s.id)?.push({ ...series, round, order: place, key });
          say(
            `round ${round + 1} ${s.id.padEnd(13)} ${key === 'ok' ? 'fresh    ' : 'exhausted'} ` +
              `CPU ${series.cpuMsPerCall.toFixed(2)} ms/call, wall ${series.wallMsPerCall.toFixed(2)} ms/call, ` +
              `${Object.entries(series.statuses)
                .map(([status, n]) => `${status} x${n}`)
                .join(', ')}${series.firstError ? ` (first unexpected: ${series.firstError})` : ''}`,
          );
        }
      }
    }
    await server.stop();
    server = null;

    const summaries = scenarios.map((s) => summarizeScenario(s.id, s.name, measured.get(s.id) ?? []));
    say('');
    say(formatTable(summaries));
    const resultsFile = await writeResults(ABUSE_DIR, {
      options,
      server: { ...serverInfo, runner: `esbuild bundle of ${SERVER_ENTRY} under node` },
      rows: ROWS,
      snapshotId: pointer.snapshot_id,
      plan: PLAN,
      quota,
      idleCpuMsPerSecond,
      changes: step === undefined ? null : { since: step.from_snapshot, changes: step.changes },
      summaries,
      measured: Object.fromEntries(measured),
    });
    say(`results: ${path.relative(REPO_ROOT, resultsFile)}`);
    const failed = failures(summaries);
    if (failed.length > 0) {
      process.stderr.write(`bench:abuse: the measurement is wrong:\n  ${failed.join('\n  ')}\n`);
      process.exitCode = 1;
    }
  } finally {
    agent.destroy();
    await server?.stop();
    await tables.close();
  }
}

/** One series of a key: the server, the tables holding the key's counter, the key, its calls and its quota. */
interface KeySeriesRun {
  target: SeriesTarget;
  tables: AbuseTables;
  key: BenchKey;
  urls: readonly string[];
  quota: number;
}

type KeySeriesFigures = Omit<MeasuredSeries, 'round' | 'order' | 'key'>;

/** The fresh key's series: its counter at 0 before it and every 250 calls (a batch counts 100). */
async function freshSeries({ target, tables, key, urls, quota }: KeySeriesRun): Promise<KeySeriesFigures> {
  const resetEvery = Math.floor(quota / NPI_BATCH_MAX);
  let charged = 0;
  const series = await runSeries(target, key.key, urls, 'ok', async (i) => {
    if (i % resetEvery !== 0) return;
    if (i > 0) charged += await tables.readUsed(key);
    await tables.setUsed(key, 0);
  });
  charged += await tables.readUsed(key);
  return { ...series, charged };
}

/** The exhausted key's series: its counter at the quota (set again before each series), which must not move. */
async function exhaustedSeries({ target, tables, key, urls, quota }: KeySeriesRun): Promise<KeySeriesFigures> {
  await tables.setUsed(key, quota);
  const series = await runSeries(target, key.key, urls, 'exhausted');
  return { ...series, charged: (await tables.readUsed(key)) - quota };
}

/** The series of the key each answer is expected from. */
const KEY_SERIES: Record<Expectation, (run: KeySeriesRun) => Promise<KeySeriesFigures>> = {
  ok: freshSeries,
  exhausted: exhaustedSeries,
};

/** Sends a scenario's priming calls, then its warm-up list, from an unmetered key: every answer must be a 200. */
async function warmUp(target: SeriesTarget, key: string, scenario: AbuseScenario): Promise<void> {
  for (const url of [...scenario.prime, ...(scenario.sets[0] ?? [])]) {
    const reply = await request(target.agent, target.port, url, key, false);
    if (reply.status !== 200) throw new Error(`${scenario.id}: HTTP ${reply.status} for ${url.slice(0, 200)}`);
  }
}

/** The changes since `since` that a key of every vertical sees (the feed's `pagination.total`). */
async function changesTotal(target: SeriesTarget, key: string, since: string): Promise<number> {
  const reply = await request(target.agent, target.port, `/api/v1/changes?since=${since}&limit=1`, key);
  if (reply.status !== 200)
    throw new Error(`the change feed answered HTTP ${reply.status}: ${reply.body.slice(0, 200)}`);
  const total = (JSON.parse(reply.body) as { pagination?: { total?: unknown } }).pagination?.total;
  if (typeof total !== 'number') throw new Error('the change feed answered without pagination.total');
  return total;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function say(text: string): void {
  process.stdout.write(`${text}\n`);
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}

main().catch((err: unknown) => {
  killRunningServers();
  process.stderr.write(`bench:abuse failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
