/**
 * Profiles one `bench:api` scenario (not a test): `tsx tools/bench/api/profile-scenario.ts
 * <npi|batch|search|postal|radius5|radius25|radius100|dense|vertical-near> [seconds] [rows] [bundle]`. Runs a
 * server bundle (default `.bench/api/server.js`, built by `npm run bench:api`) over the cached snapshot of `rows`
 * (default 1,000,000; built by `npm run bench:api -- --rows N`) with `--cpu-prof`, drives the scenario's URLs at 16
 * connections, and prints the rate and where the profile was written (open it in Chrome DevTools). Two bundles run
 * one after the other give an A/B of a change under the same profiler.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { SnapshotManifest } from '../../../data-contracts/layout';
import { heapOption, LOCAL_BUDGET_MB, planMemory } from '../../../data-contracts/memory-budget';
import { createRandom } from '../../demo/random';
import { probeHotPartition } from './bench-snapshot';
import { openIdentityViews } from './identity-workload';
import { buildNpiScenarios } from './npi-scenarios';
import { buildRadiusScenarios } from './radius-scenarios';
import { buildSearchScenarios } from './search-scenarios';

const ROOT = path.resolve(__dirname, '..', '..', '..');

async function main(): Promise<void> {
  const which = process.argv[2] ?? 'batch';
  const seconds = Number(process.argv[3] ?? 8);
  const bench = path.join(ROOT, '.bench', 'api', `rows-${Number(process.argv[4] ?? 1_000_000)}`);
  const bundle = path.resolve(process.argv[5] ?? path.join(ROOT, '.bench/api/server.js'));
  const data = path.join(bench, 'data');
  const pointer = JSON.parse(await readFile(path.join(data, 'current.json'), 'utf8')) as { manifest_key: string };
  const manifest = JSON.parse(await readFile(path.join(data, pointer.manifest_key), 'utf8')) as SnapshotManifest;
  const rng = createRandom(7);
  const npi = await buildNpiScenarios(data, manifest, rng);
  const search = buildSearchScenarios(data, manifest, rng);
  const radius = await radiusScenarios(data, manifest, rng);
  const scenario = {
    npi: npi.scenarios[0],
    batch: npi.scenarios[1],
    search: search[0],
    postal: search[1],
    radius5: radius[0],
    radius25: radius[1],
    radius100: radius[2],
    dense: radius[3],
    'vertical-near': radius.find((s) => s.name.startsWith('vertical near')),
  }[which];
  if (scenario === undefined) throw new Error(`unknown scenario ${which}`);
  const keys = JSON.parse(await readFile(path.join(bench, 'local', 'demo-keys.json'), 'utf8')) as Record<
    string,
    string
  >;
  const key = keys.enterprise as string;
  // V8's old generation limited as bench:api limits it (the local budget's plan), so that collections cost the same.
  const heap = heapOption(planMemory(LOCAL_BUDGET_MB));
  const child = spawn(process.execPath, [heap, '--cpu-prof', '--cpu-prof-dir=/tmp/pf-prof', bundle], {
    env: {
      ...process.env,
      PORT: '0',
      PF_LOCAL_DIR: path.join(bench, 'local'),
      PF_DATA_DIR: data,
      PF_CACHE_DIR: path.join(bench, 'local', 'cache'),
      NODE_NO_WARNINGS: '1',
      PF_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const port = await new Promise<number>((resolve) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = out.match(/127\.0\.0\.1:(\d+)\/api\/v1/);
      if (m) {
        out = '';
        resolve(Number(m[1]));
      }
    });
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const get = (p: string) =>
    new Promise<number>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: p, agent, headers: { 'x-api-key': key } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
        .on('error', reject);
    });
  for (const p of scenario.urls.paths) await get(p); // warm: every URL once
  const end = Date.now() + seconds * 1000;
  const ms: number[] = [];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (Date.now() < end) {
        const t = performance.now();
        await get(scenario.urls.take());
        ms.push(performance.now() - t);
      }
    }),
  );
  ms.sort((a, b) => a - b);
  const at = (q: number) => (ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0).toFixed(1);
  console.log(`${scenario.name}: ${(ms.length / seconds).toFixed(0)} req/s, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
  agent.destroy();
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  console.log('profile in /tmp/pf-prof');
}

/** The radius scenarios over the snapshot (DuckDB views over its Parquet draw the points). */
async function radiusScenarios(data: string, manifest: SnapshotManifest, rng: ReturnType<typeof createRandom>) {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    const files = manifest.objects.filter((o) => o.kind === 'identity').map((o) => path.join(data, o.key));
    const taxonomy = manifest.objects.find((o) => o.kind === 'taxonomy');
    if (taxonomy === undefined) return [];
    await openIdentityViews(conn, files, path.join(data, taxonomy.key));
    const hot = await probeHotPartition(conn, manifest, data);
    return (await buildRadiusScenarios(conn, data, manifest, hot, rng, 7))?.scenarios ?? [];
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
