/**
 * The server under test for `bench:api`: the local server (`tools/local/start.ts`, the `npm start` code) bundled
 * with esbuild the way the deployed functions are, run by plain `node` in a child process (or under tsx), and its
 * peak RSS read from /proc.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { build } from 'esbuild';
import { ENV } from '../../../data-contracts/env';
import { heapOption, LOCAL_BUDGET_MB, planMemory } from '../../../data-contracts/memory-budget';
import type { BenchMemory } from './bench-routes';
import { request } from './http-load';

export const SERVER_ENTRY = 'tools/local/start.ts';

/** The process memory budget variable the server reads (MB). */
export const MEMORY_BUDGET_ENV = ENV.memoryBudgetMb;

/** How the server runs: the esbuild bundle under plain node (as deployed), or the TypeScript entry under tsx. */
export type ServerRunner = 'bundle' | 'tsx';

export interface RunningServer {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface ServerOptions {
  repoRoot: string;
  runner: ServerRunner;
  /** The bundle file (runner `bundle`), inside the repository so the external packages resolve. */
  bundle: string;
  localDir: string;
  dataDir: string;
  cacheDir: string;
  /** `PF_MEMORY_BUDGET_MB` for the child, when given. */
  budgetMb: number | null;
  /** More variables for the child (bench:abuse points it at its own DynamoDB tables). */
  env?: Readonly<Record<string, string>>;
}

/** Bundles the server entry like infra/bundling.ts does for the deployed functions; returns the milliseconds. */
export async function bundleServer(repoRoot: string, outfile: string): Promise<number> {
  const t = performance.now();
  await build({
    entryPoints: [path.join(repoRoot, SERVER_ENTRY)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    // DuckDB's platform binding is a native addon, found in node_modules at run time (infra/bundling.ts);
    // dynalite (local only) loads LevelDB's native addon relative to its own folder.
    external: ['@duckdb/node-bindings-*', 'dynalite'],
    logLevel: 'warning',
  });
  return performance.now() - t;
}

const running = new Set<ChildProcess>();

/** Kills the servers this process started and that are still running (on a failed run). */
export function killRunningServers(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** `npm start`'s code in a child Node process on a free port, with the in-memory ceiling route turned on. */
export function startServer(options: ServerOptions): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    // V8's old generation of the budget's memory plan, as the deployed function gets it in NODE_OPTIONS.
    const heap = heapOption(planMemory(options.budgetMb ?? LOCAL_BUDGET_MB));
    const args = options.runner === 'bundle' ? [heap, options.bundle] : [heap, '--import', 'tsx', SERVER_ENTRY];
    const child = spawn(process.execPath, args, {
      cwd: options.repoRoot,
      env: {
        ...process.env,
        PORT: '0',
        PF_LOCAL_DIR: options.localDir,
        PF_DATA_DIR: options.dataDir,
        PF_CACHE_DIR: options.cacheDir,
        PF_BENCH_CEILING: '1',
        PF_LOG_LEVEL: 'info',
        NODE_NO_WARNINGS: '1',
        ...(options.budgetMb === null ? {} : { [MEMORY_BUDGET_ENV]: String(options.budgetMb) }),
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    running.add(child);
    child.once('exit', () => running.delete(child));
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = out.match(/at http:\/\/127\.0\.0\.1:(\d+)\/api\/v1/);
      if (m) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve({
          port: Number(m[1]),
          child,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code, signal) =>
      reject(new Error(`server exited with ${code ?? signal} before listening: ${out.slice(-500)}`)),
    );
  });
}

/** The peak resident set size of a process (VmHWM), in bytes; NaN when it cannot be read. */
export async function peakRssBytes(pid: number | undefined): Promise<number> {
  if (pid === undefined) return Number.NaN;
  const [peak] = await procBytes(pid, 'status', ['VmHWM']);
  return peak as number;
}

/** Fields of `/proc/<pid>/<file>` (`Name:   123 kB` lines) in bytes; NaN for a field it lacks or an unreadable file. */
async function procBytes(pid: number, file: string, fields: readonly string[]): Promise<number[]> {
  const text = await readFile(`/proc/${pid}/${file}`, 'utf8').catch(() => '');
  return fields.map((field) => {
    const kb = text.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1];
    return kb ? Number(kb) * 1024 : Number.NaN;
  });
}

/**
 * Where the server's resident memory is, in bytes: the RSS split into file-backed pages (the node binary's and
 * DuckDB's code) and anonymous memory, which is V8's heap (every space), ArrayBuffers and Buffers (index bytes,
 * caches, bodies), and the rest (DuckDB's own allocations, other native memory, freed memory the allocator keeps).
 */
export interface MemoryComposition {
  rss: number;
  file: number;
  heap: number;
  arrayBuffers: number;
  other: number;
}

/** The composition now, from `/proc/<pid>/smaps_rollup` and the server's `/__bench/memory`; null when unreadable. */
export async function memoryComposition(
  pid: number | undefined,
  agent: http.Agent,
  port: number,
  key: string,
): Promise<MemoryComposition | null> {
  if (pid === undefined) return null;
  const [rss, anonymous] = (await procBytes(pid, 'smaps_rollup', ['Rss', 'Anonymous'])) as [number, number];
  const reply = await request(agent, port, '/__bench/memory', key);
  if (reply.status !== 200) return null;
  const v8 = JSON.parse(reply.body) as BenchMemory;
  if (!Number.isFinite(rss) || !Number.isFinite(anonymous)) return null;
  return {
    rss,
    file: rss - anonymous,
    heap: v8.heap_total,
    arrayBuffers: v8.array_buffers,
    other: anonymous - v8.heap_total - v8.array_buffers,
  };
}
