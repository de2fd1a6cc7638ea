/**
 * API benchmark (not a test): `npm run bench:api [-- --rows N] [--seconds S] [--connections C] [--budget-mb M]
 * [--providers P] [--draws D] [--warmup W] [--seed X] [--tsx]`.
 *
 * 1. A synthetic snapshot made with the ETL, cached per row count in `.bench/api/rows-<N>/data` (1,000,000,
 *    3,000,000 and 9,000,000 rows can coexist): `generateNppesFile` (N NPPES rows in CMS's 330-column form, up to
 *    9,000,000; about 1.1 GB per million rows, deleted once the snapshot is built) and `generateVerticalFeed`
 *    (P glp1 providers), then `buildSnapshot`. Reruns skip the build while the snapshot exists.
 * 2. The identity queries, drawn from the snapshot's own rows over every identity partition with DuckDB in this
 *    process (tools/bench/api/identity-workload.ts): a taxonomy + state, b taxonomy + state + city, c taxonomy alone
 *    at offsets of 100,000 and more in the largest taxonomy, d taxonomy alone with limit 1000; thousands of
 *    distinct URLs each, values in random letter case, traversed in random order.
 * 3. The local server (`tools/local/start.ts`, the `npm start` code) bundled with esbuild as deployed, run by
 *    plain `node` in a child process with the benchmark's routes (`PF_BENCH_CEILING=1`, api/bench-routes.ts) and, with
 *    `--budget-mb`, `PF_MEMORY_BUDGET_MB`; cold start = spawn to the first 200 on a list query with an empty cache.
 * 4. Correctness before timing: about 30 drawn identity queries (some of each of a-d) must answer exactly what
 *    DuckDB computes over the Parquet (total, and the page's NPIs in NPI order); a mismatch fails the bench.
 * 5. A keep-alive load generator in a worker thread of its own (its own isolate: the collections of this process,
 *    which holds DuckDB and the drawn workloads, do not pause it): C concurrent connections (default 16) on
 *    loopback, S seconds per scenario (default 8; docs/performance.md gives the figures' own): req/s, p50, p99,
 *    errors (any non-200 or transport error)
 *    and the server's peak RSS (VmHWM) per scenario, with where its memory is right after each one (file-backed
 *    code, V8's heap, ArrayBuffers, other native memory: `/proc/<pid>/smaps_rollup` and the server's
 *    `/__bench/memory`). The existing scenarios stay (the ceiling route, the vertical
 *    list, the single-partition identity queries, detail, CSV, the limit-50 share of the ceiling).
 * 6. A fresh server process with an empty cache: the wall time of its first identity query of the largest
 *    partition (cold); another: its first NPI lookup (cold). The report also gives the NPI index's size per
 *    million NPIs, gzipped (stored) and unzipped (the API's local files).
 *
 * The report compares a-d with the PostgreSQL figures at 1,000,000 and 3,000,000 rows and the p99 goals; results
 * go to `.bench/api/rows-<N>/results-<time>.json`. A scenario with errors fails the run (exit code 1).
 *
 * Queries use the demo enterprise key (unmetered): the local dynalite shares the server's event loop and would
 * measure dynalite, not the API; metering against DynamoDB is one conditional UpdateItem per call.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { createRandom } from '../demo/random';
import { parseBenchOptions } from './api/bench-options';
import {
  bundleServer,
  killRunningServers,
  MEMORY_BUDGET_ENV,
  peakRssBytes,
  SERVER_ENTRY,
  type ServerOptions,
  startServer,
} from './api/bench-server';
import { ensureSnapshot, probeHotPartition, readSnapshot, snapshotDirs } from './api/bench-snapshot';
import { buildChangesScenarios } from './api/changes-scenarios';
import { firstOk, measureColdIdentity, measureColdNpi } from './api/cold-start';
import { request } from './api/http-load';
import { CHECKS, checkIdentityAnswers } from './api/identity-check';
import { drawIdentityWorkload, openIdentityViews } from './api/identity-workload';
import { buildNpiScenarios } from './api/npi-scenarios';
import { readPeerResults } from './api/peer-results';
import { buildRadiusScenarios, checkRadiusAnswers, RADII, RADIUS_CHECKS } from './api/radius-scenarios';
import { judge, printReport } from './api/report';
import { buildScenarios, measureScenarios } from './api/scenarios';
import { buildSearchScenarios } from './api/search-scenarios';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const BENCH_DIR = path.join(REPO_ROOT, '.bench', 'api');
/** Inside the repository, so the external packages resolve from its node_modules. */
const SERVER_BUNDLE = path.join(BENCH_DIR, 'server.js');
const MB = 1024 ** 2;

async function main(): Promise<void> {
  const { rows, providers, seconds, warmup, connections, draws, seed, budgetMb, runner } = parseBenchOptions(
    process.argv.slice(2),
  );
  const dirs = snapshotDirs(BENCH_DIR, rows, providers);
  if (runner === 'bundle') {
    const ms = await bundleServer(REPO_ROOT, SERVER_BUNDLE);
    say(`bundled ${SERVER_ENTRY} into ${path.relative(REPO_ROOT, SERVER_BUNDLE)} (${ms.toFixed(0)} ms)`);
  }
  const build = await ensureSnapshot(dirs, rows, providers, REPO_ROOT);
  const { manifest, pointer } = await readSnapshot(dirs.data);

  // Parameters and expected answers: DuckDB over the snapshot's Parquet, in this process.
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const identityFiles = manifest.objects.filter((o) => o.kind === 'identity').map((o) => path.join(dirs.data, o.key));
  const taxonomyObject = manifest.objects.find((o) => o.kind === 'taxonomy');
  if (!taxonomyObject) throw new Error('the snapshot has no taxonomy object');
  await openIdentityViews(conn, identityFiles, path.join(dirs.data, taxonomyObject.key));
  const rng = createRandom(seed);
  const t = performance.now();
  const workload = await drawIdentityWorkload(conn, {
    files: identityFiles,
    taxonomyFile: path.join(dirs.data, taxonomyObject.key),
    draws,
    deepQueries: Math.max(1000, draws / 2),
    seed,
    rng,
  });
  say(
    `drew ${workload.drawn} identity rows uniformly over all ${workload.partitions} partitions ` +
      `(${workload.identityRows.toLocaleString('en-US')} rows) in ${((performance.now() - t) / 1000).toFixed(1)} s: ` +
      `a ${workload.queries.a.length} queries (${workload.distinctA} distinct code+state), ` +
      `b ${workload.queries.b.length} (${workload.distinctB} distinct code+state+city), ` +
      `c ${workload.queries.c.length}, d ${workload.queries.d.length}`,
  );
  const hot = await probeHotPartition(conn, manifest, dirs.data);
  say(
    `largest partition "${hot.classification}" (${hot.classificationKey}, ${hot.partitionRows} rows, ` +
      `${hot.classificationRows} class_rep rows); its commonest code ${hot.code}`,
  );

  const radius = await buildRadiusScenarios(conn, dirs.data, manifest, hot, rng, seed);
  if (radius === null) say('(no ZIP table in this snapshot: the radius scenarios are skipped)');
  else {
    say(
      `radius: ${(100 * radius.placedShare).toFixed(2)}% of identity rows placed; dense ZIPs ` +
        radius.dense
          .map((d) => `${d.metro} ${d.zip} (${d.total} rows within 100 mi, deep offset ${d.deepOffset})`)
          .join(', '),
    );
  }

  const serverOptions: ServerOptions = {
    repoRoot: REPO_ROOT,
    runner,
    bundle: SERVER_BUNDLE,
    localDir: dirs.local,
    dataDir: dirs.data,
    cacheDir: dirs.cache,
    budgetMb,
  };
  // Warm start once so the demo keys exist, then measure a cold start with an empty Parquet cache.
  let server = await startServer(serverOptions);
  await server.stop();
  await rm(dirs.cache, { recursive: true, force: true });
  const keys = JSON.parse(await readFile(path.join(dirs.local, 'demo-keys.json'), 'utf8')) as Record<string, string>;
  const key = keys.enterprise as string;
  const spawnedAt = performance.now();
  server = await startServer(serverOptions);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const coldStartMs = await firstOk(agent, server.port, '/api/v1/providers?vertical=glp1&limit=50', key, spawnedAt);

  const checks = await checkIdentityAnswers(conn, agent, server.port, key, workload);
  say(
    `correctness: ${checks.length} drawn identity queries answered exactly as DuckDB computes them over the Parquet ` +
      `(${Object.entries(CHECKS)
        .map(([id, n]) => `${id} ${n}`)
        .join(', ')})`,
  );

  const radiusChecks = radius === null ? null : await checkRadiusAnswers(conn, agent, server.port, key, radius.checks);
  if (radiusChecks !== null) {
    say(
      `correctness: ${radiusChecks.checked} radius queries (${RADIUS_CHECKS} drawn per radius ${RADII.join(', ')} mi, ` +
        `and the dense ones at offset 0 and deep; ${radiusChecks.nonEmpty} with rows) answered exactly as DuckDB ` +
        "computes them over the Parquet with the snapshot's ZIP table",
    );
  }

  const slugs = (
    JSON.parse((await request(agent, server.port, '/api/v1/providers?vertical=glp1&limit=200', key)).body) as {
      data: { slug: string }[];
    }
  ).data.map((p) => p.slug);
  const npi = await buildNpiScenarios(dirs.data, manifest, rng);
  const changes = await buildChangesScenarios(conn, dirs.data, manifest, rng);
  say(
    `change feed: ${changes.changes.toLocaleString('en-US')} changes in the month since ${changes.since ?? '(none)'}`,
  );
  const scenarios = [
    ...buildScenarios(hot, slugs, workload),
    ...npi.scenarios,
    ...buildSearchScenarios(dirs.data, manifest, rng),
    ...(radius?.scenarios ?? []),
    ...changes.scenarios,
  ];
  say(`server peak RSS after the cold start and the checks: ${mb(await peakRssBytes(server.child.pid))} MB`);
  for (const s of scenarios) {
    const res = await request(agent, server.port, s.urls.paths[0] as string, key);
    if (res.status !== 200) throw new Error(`${s.name}: HTTP ${res.status} ${res.body.slice(0, 200)}`);
  }

  const { results, shares } = await measureScenarios(scenarios, {
    agent,
    port: server.port,
    key,
    connections,
    seconds,
    warmup,
    pid: server.child.pid,
  });
  const peakRss = await peakRssBytes(server.child.pid);
  agent.destroy();
  await server.stop();

  const coldIdentity = await measureColdIdentity(serverOptions, dirs.cache, key, hot);
  const coldNpi = npi.sample === null ? null : await measureColdNpi(serverOptions, dirs.cache, key, npi.sample);
  conn.closeSync();
  db.closeSync();

  const report = {
    rows,
    snapshotId: pointer.snapshot_id,
    identityRows: workload.identityRows,
    partitions: workload.partitions,
    connections,
    seconds,
    server:
      runner === 'bundle'
        ? `esbuild bundle of ${SERVER_ENTRY} under node`
        : `${SERVER_ENTRY} under tsx (compiled at start)`,
    budgetMb,
    results,
    shares,
    peakRss,
    coldStartMs,
    coldIdentity,
    coldNpi,
    npiIndex: npi.size,
    deep: workload.deep,
    peerHere: await readPeerResults(REPO_ROOT, rows, pointer.snapshot_id),
  };
  const verdicts = judge(report);
  printReport(report, verdicts);
  const at = new Date().toISOString();
  const resultsFile = path.join(dirs.root, `results-${at.replace(/[:.]/g, '-')}.json`);
  await writeFile(
    resultsFile,
    `${JSON.stringify(
      {
        at,
        node: process.version,
        runner,
        rows,
        providers,
        budget_mb: budgetMb,
        memory_budget_env: MEMORY_BUDGET_ENV,
        connections,
        seconds,
        warmup_seconds: warmup,
        seed,
        snapshot_id: pointer.snapshot_id,
        build,
        workload: {
          drawn: workload.drawn,
          with_state: workload.withState,
          with_city: workload.withCity,
          distinct_a: workload.distinctA,
          distinct_b: workload.distinctB,
          identity_rows: workload.identityRows,
          partitions: workload.partitions,
          deep: workload.deep,
        },
        checks,
        radius_checks: radiusChecks,
        radius: radius === null ? null : { placed_share: radius.placedShare, dense: radius.dense },
        cold_start_ms: coldStartMs,
        cold_identity: coldIdentity,
        cold_npi: coldNpi,
        npi_index: npi.size,
        peak_rss: peakRss,
        shares,
        results,
        peer_here: report.peerHere,
        verdicts,
      },
      null,
      2,
    )}\n`,
  );
  say(`results: ${path.relative(REPO_ROOT, resultsFile)}`);
  if (verdicts.failedScenarios.length > 0) process.exitCode = 1;
}

function say(text: string): void {
  process.stdout.write(`${text}\n`);
}

function mb(bytes: number): string {
  return (bytes / MB).toFixed(0);
}

main().catch((err: unknown) => {
  killRunningServers();
  process.stderr.write(`bench:api failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
