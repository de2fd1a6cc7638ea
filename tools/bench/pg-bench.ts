/**
 * The PostgreSQL peer of bench:api's identity queries (not a test), measured on this machine:
 * `npm run bench:pg [-- --rows N] [--seconds S] [--connections C] [--warmup W] [--draws D] [--seed X]`.
 * Needs PostgreSQL 15's server programs (Debian's `postgresql` package; `PF_PG_BIN` names another folder).
 *
 * 1. bench:api's snapshot of N rows (`.bench/api/rows-<N>`, built as bench:api builds it when missing).
 * 2. A PostgreSQL cluster in `.bench/pg/rows-<N>/cluster` (pg/cluster.ts) holding the snapshot's identity rows in
 *    one table under btree indexes that serve each query shape (pg/peer-schema.ts), vacuumed and analysed; kept
 *    while the snapshot's id is the one loaded. Its files are read into the page cache before the measurement
 *    (`pg_prewarm`), so that the peer is measured warm, as the API is.
 * 3. The same query lists as bench:api (same seed, same draw: the same URLs, in the same order), answered by a
 *    node:http peer with `pg` in a child process (pg/peer-server.ts): a pool of 16, prepared statements, the page
 *    and the exact count in parallel.
 * 4. Correctness before timing: the peer answers bench:api's checked queries exactly as DuckDB computes them over
 *    the Parquet (identity-check.ts).
 * 5. The same load generator (a worker thread, C keep-alive connections, W s of warm-up, S s per query): req/s,
 *    p50, p99, errors. Results go to `.bench/pg/rows-<N>/results-<time>.json` and `latest.json`, which
 *    bench:api's report shows beside its own figures.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { sqlStringLiteral } from '../../platform/sql';
import { createRandom } from '../demo/random';
import { parseBenchOptions } from './api/bench-options';
import { ensureSnapshot, readSnapshot, snapshotDirs } from './api/bench-snapshot';
import { IDENTITY_SCENARIO_NAMES, POSTGRES_FIGURES } from './api/goals';
import { LoadWorker, UrlCycle } from './api/http-load';
import { CHECKS, checkIdentityAnswers } from './api/identity-check';
import { drawIdentityWorkload, type IdentityScenarioId, openIdentityViews } from './api/identity-workload';
import { type PeerResults, peerResultsFile } from './api/peer-results';
import { type Cluster, psql, startCluster } from './pg/cluster';
import { createTableSql, INDEX_SQL, PEER_COLUMNS, PEER_TABLE } from './pg/peer-schema';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const IDS: IdentityScenarioId[] = ['a', 'b', 'c', 'd'];

async function main(): Promise<void> {
  const { rows, providers, seconds, warmup, connections, draws, seed } = parseBenchOptions(process.argv.slice(2));
  const dirs = snapshotDirs(path.join(REPO_ROOT, '.bench', 'api'), rows, providers);
  const pgRoot = path.join(REPO_ROOT, '.bench', 'pg', `rows-${rows}`);
  await ensureSnapshot(dirs, rows, providers, REPO_ROOT);
  const { manifest, pointer } = await readSnapshot(dirs.data);
  const identityFiles = manifest.objects.filter((o) => o.kind === 'identity').map((o) => path.join(dirs.data, o.key));
  const taxonomyObject = manifest.objects.find((o) => o.kind === 'taxonomy');
  if (!taxonomyObject) throw new Error('the snapshot has no taxonomy object');
  const taxonomyFile = path.join(dirs.data, taxonomyObject.key);

  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  await openIdentityViews(conn, identityFiles, taxonomyFile);
  // The same draw as bench:api's (same seed, same options, the random stream in the same order).
  const workload = await drawIdentityWorkload(conn, {
    files: identityFiles,
    taxonomyFile,
    draws,
    deepQueries: Math.max(1000, draws / 2),
    seed,
    rng: createRandom(seed),
  });

  const cluster = await startCluster(path.join(pgRoot, 'cluster'));
  let peer: ReturnType<typeof spawn> | null = null;
  try {
    const loaded = await loadSnapshot(cluster, conn, pgRoot, pointer.snapshot_id);
    const taxonomyMap = path.join(pgRoot, 'classifications.json');
    const classes = await conn.runAndReadAll(
      'SELECT DISTINCT lower(classification) AS name, classification_key AS key FROM taxonomy WHERE classification IS NOT NULL',
    );
    const map: Record<string, string> = {};
    for (const r of classes.getRowObjectsJson() as { name: string; key: string }[]) map[r.name] = r.key;
    await writeFile(taxonomyMap, JSON.stringify(map));

    const t = performance.now();
    await psql(cluster, 'CREATE EXTENSION IF NOT EXISTS pg_prewarm');
    const blocks = await psql(
      cluster,
      `SELECT sum(pg_prewarm(c.oid::regclass, 'read')) FROM pg_class c
       WHERE c.relname = '${PEER_TABLE}' OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = '${PEER_TABLE}'::regclass)`,
    );
    say(`read the table and its indexes into the page cache: ${blocks} blocks in ${secs(t)} s`);

    const started = startPeer(cluster, taxonomyMap);
    peer = started.child;
    const port = await started.port;
    const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
    const checks = await checkIdentityAnswers(conn, agent, port, 'peer', workload);
    agent.destroy();
    say(
      `correctness: the peer answered ${checks.length} drawn queries exactly as DuckDB computes them over the Parquet ` +
        `(${Object.entries(CHECKS)
          .map(([id, n]) => `${id} ${n}`)
          .join(', ')})`,
    );

    const loader = new LoadWorker({ port, key: 'peer', connections });
    const results: PeerResults['results'] = {};
    try {
      for (const id of IDS) {
        const urls = new UrlCycle(workload.queries[id].map((q) => q.path));
        await loader.run(urls, { seconds: warmup });
        const r = await loader.run(urls, { seconds });
        results[id] = { rps: r.rps, p50: r.p50, p99: r.p99, requests: r.requests, errors: r.errors };
        say(
          `  ${IDENTITY_SCENARIO_NAMES[id]}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, ` +
            `p99 ${r.p99.toFixed(2)} ms, ${r.errors} errors`,
        );
      }
    } finally {
      await loader.close();
    }
    const filed = POSTGRES_FIGURES[rows];
    say(
      `\nPostgreSQL 15 + HTTP at ${rows.toLocaleString('en-US')} rows, this machine, now (and the figures the issue filed)`,
    );
    for (const id of IDS) {
      const r = results[id];
      if (!r) continue;
      const was = filed?.[id];
      say(
        `${IDENTITY_SCENARIO_NAMES[id].padEnd(44)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${r.p99.toFixed(1).padStart(6)} ms` +
          (was ? `   (filed: ${was.rps} req/s, p99 ${was.p99} ms)` : ''),
      );
    }
    const at = new Date().toISOString();
    const report: PeerResults = {
      at,
      rows,
      snapshot_id: pointer.snapshot_id,
      node: process.version,
      connections,
      seconds,
      warmup_seconds: warmup,
      seed,
      load_seconds: loaded,
      checks: checks.length,
      results,
    };
    await writeFile(
      path.join(pgRoot, `results-${at.replace(/[:.]/g, '-')}.json`),
      `${JSON.stringify(report, null, 2)}\n`,
    );
    await writeFile(peerResultsFile(REPO_ROOT, rows), `${JSON.stringify(report, null, 2)}\n`);
    say(`results: ${path.relative(REPO_ROOT, peerResultsFile(REPO_ROOT, rows))}`);
    if (IDS.some((id) => (results[id]?.errors ?? 1) > 0)) process.exitCode = 1;
  } finally {
    peer?.kill('SIGTERM');
    await cluster.stop();
    conn.closeSync();
    db.closeSync();
  }
}

/**
 * Loads the snapshot's identity rows into the peer's table (unless the cluster already holds this snapshot):
 * DuckDB writes them as CSV, psql's `\copy` reads it, then the indexes, VACUUM and ANALYZE. Returns the seconds
 * spent, or null when the cluster was current.
 */
async function loadSnapshot(
  cluster: Cluster,
  conn: Awaited<ReturnType<DuckDBInstance['connect']>>,
  pgRoot: string,
  snapshotId: string,
): Promise<number | null> {
  const marker = path.join(pgRoot, 'loaded.json');
  const current = existsSync(marker)
    ? (JSON.parse(await readFile(marker, 'utf8')) as { snapshot_id: string }).snapshot_id === snapshotId
    : false;
  if (current) {
    say(`the cluster holds snapshot ${snapshotId} (${path.relative(REPO_ROOT, cluster.dir)})`);
    return null;
  }
  const t = performance.now();
  await rm(marker, { force: true });
  // Written by DuckDB, read by psql's \copy (a client-side read: the server's user needs no access to it).
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'pf-pg-bench-'));
  const csv = path.join(tmp, 'identity.csv');
  await conn.run(
    `COPY (SELECT ${PEER_COLUMNS.join(', ')}, lower(trim(city)) AS city_key FROM identity) TO ${sqlStringLiteral(csv)} (FORMAT csv, HEADER false)`,
  );
  await psql(cluster, `DROP TABLE IF EXISTS ${PEER_TABLE}`);
  await psql(cluster, createTableSql());
  await psql(cluster, `\\copy ${PEER_TABLE} FROM ${sqlStringLiteral(csv)} WITH (FORMAT csv)`);
  await rm(tmp, { recursive: true, force: true });
  for (const sql of INDEX_SQL) await psql(cluster, sql);
  await psql(cluster, `VACUUM (ANALYZE) ${PEER_TABLE}`);
  const n = await psql(cluster, `SELECT count(*) FROM ${PEER_TABLE}`);
  const seconds = (performance.now() - t) / 1000;
  say(`loaded ${Number(n).toLocaleString('en-US')} identity rows into PostgreSQL in ${seconds.toFixed(1)} s`);
  await writeFile(marker, JSON.stringify({ snapshot_id: snapshotId, rows: Number(n) }));
  return seconds;
}

/** The peer server in a child process; resolves its port once it listens. */
function startPeer(cluster: Cluster, taxonomyMap: string): { child: ReturnType<typeof spawn>; port: Promise<number> } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'pg', 'peer-server.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...cluster.env, PF_PEER_TAXONOMY: taxonomyMap, NODE_NO_WARNINGS: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = out.match(/peer listening on (\d+)/);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the peer exited with ${code} before listening`)));
  });
  return { child, port };
}

function say(text: string): void {
  process.stdout.write(`${text}\n`);
}

function secs(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:pg failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
