/**
 * ETL benchmark (not a test): `npm run bench:etl [-- --rows N] [--threads T] [--repeat R] [--keep]`.
 *
 * Generates an NPPES V2 file (330 columns, CMS form) with `generateNppesFile`, then, each in its own child
 * process so that peak RSS is the process's own (`process.resourceUsage().maxRSS`):
 * 1. the ETL: `buildSnapshot` with that file as the only NPPES input, the real NUCC, LEIE and FDA samples and the
 *    demo feed, into a temporary folder store (identity build, Parquet partitions, coverage, publish);
 * 2. bare DuckDB: `COPY (SELECT * FROM read_csv('<file>')) TO '<out>.parquet'` with the same thread count.
 * Each pair runs `--repeat` times (default 2), alternating, and the best time of each is kept; peak RSS is the
 * maximum over the runs. Prints rows/s, the ratio ETL/bare (goal <= 2.0), the extrapolation to the 9,000,000-row national file (goal <= 10
 * minutes on 2 cores) and the ETL's peak RSS (goal <= 2 GB).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { generateNppesFile } from '../../etl/bench/generate-nppes';
import { buildSnapshot } from '../../etl/build';
import { demoBuildInputs } from '../../etl/demo-inputs';
import { FolderObjectStore } from '../../lambdas/storage/object-store';

const NATIONAL_ROWS = 9_000_000;
const GOALS = { ratio: 2.0, nationalMinutes: 10, rssBytes: 2 * 1024 ** 3 } as const;
const REPO_ROOT = path.resolve(__dirname, '..', '..');

interface ChildReport {
  ms: number;
  maxRssBytes: number;
  rows?: number;
  identity?: number;
}

/** Runs this file in a child Node process in `mode` and returns its JSON report (the last stdout line). */
function runChild(mode: 'etl' | 'bare', args: string[]): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', __filename, '--child', mode, ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${mode} child exited with ${code}`));
      const last = out.trim().split('\n').pop() ?? '{}';
      resolve(JSON.parse(last) as ChildReport);
    });
  });
}

async function childEtl(file: string, threads: number): Promise<void> {
  const work = path.join(path.dirname(file), `etl-run-${process.pid}`);
  const started = Date.now();
  const demo = demoBuildInputs(REPO_ROOT);
  const summary = await buildSnapshot({
    store: new FolderObjectStore(path.join(work, 'store')),
    inputs: { ...demo, nppes: [file] },
    workDir: work,
    duckdb: { threads },
  });
  const ms = Date.now() - started;
  await rm(work, { recursive: true, force: true });
  const nppes = summary.sources.find((s) => s.source === 'nppes');
  const report: ChildReport = {
    ms,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    rows: nppes?.read ?? 0,
    identity: summary.counts.identity,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

async function childBare(file: string, threads: number): Promise<void> {
  const out = `${file}.bare.parquet`;
  const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const connection = await instance.connect();
  const literal = (p: string) => `'${p.replace(/'/g, "''")}'`;
  const started = Date.now();
  await connection.run(`COPY (SELECT * FROM read_csv(${literal(file)})) TO ${literal(out)} (FORMAT parquet)`);
  const ms = Date.now() - started;
  connection.closeSync();
  instance.closeSync();
  await rm(out, { force: true });
  process.stdout.write(`${JSON.stringify({ ms, maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
}

/** The faster of two runs, with the higher peak RSS of both. */
function bestOf(held: ChildReport | null, next: ChildReport): ChildReport {
  if (!held) return next;
  const best = next.ms < held.ms ? next : held;
  return { ...best, maxRssBytes: Math.max(held.maxRssBytes, next.maxRssBytes) };
}

const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MB`;
const pass = (ok: boolean) => (ok ? 'ok' : 'MISSED');

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '1000000' },
      threads: { type: 'string' },
      seed: { type: 'string', default: '1' },
      keep: { type: 'boolean', default: false },
      repeat: { type: 'string', default: '2' },
      child: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const threads = Number(values.threads ?? Math.min(availableParallelism(), 4));
  if (values.child) {
    const file = process.argv[process.argv.length - 1] as string;
    if (values.child === 'etl') await childEtl(file, threads);
    else await childBare(file, threads);
    return;
  }
  const rows = Number(values.rows);
  if (!Number.isInteger(rows) || rows <= 0) throw new Error(`--rows must be a positive integer: ${values.rows}`);
  const dir = path.join(tmpdir(), 'pf-etl-bench');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `nppes-${rows}-seed${values.seed}.csv`);
  if (!existsSync(file)) {
    process.stderr.write(`generating ${rows.toLocaleString('en-US')} NPPES rows into ${file}\n`);
    const started = Date.now();
    await generateNppesFile({ rows, outFile: file, seed: Number(values.seed) });
    process.stderr.write(`generated in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
  const bytes = (await stat(file)).size;
  process.stderr.write(`file ${mb(bytes)}, ${threads} DuckDB threads, ${availableParallelism()} cores\n`);

  // Alternate the two measurements and keep each one's best run, so that neither pays for the other's page-cache
  // and write-back effects.
  const repeat = Math.max(1, Number(values.repeat));
  let bare: ChildReport | null = null;
  let etl: ChildReport | null = null;
  for (let i = 0; i < repeat; i += 1) {
    const b = await runChild('bare', ['--threads', String(threads), file]);
    const e = await runChild('etl', ['--threads', String(threads), file]);
    process.stderr.write(`run ${i + 1}: bare ${(b.ms / 1000).toFixed(1)} s, ETL ${(e.ms / 1000).toFixed(1)} s\n`);
    bare = bestOf(bare, b);
    etl = bestOf(etl, e);
  }
  if (!bare || !etl) throw new Error('no run');
  if (!values.keep) await rm(file, { force: true });

  const rate = rows / (etl.ms / 1000);
  const ratio = etl.ms / bare.ms;
  const nationalMinutes = NATIONAL_ROWS / rate / 60;
  const lines = [
    `rows                 ${rows.toLocaleString('en-US')} (${mb(bytes)} CSV, ${etl.identity?.toLocaleString('en-US')} active NPIs)`,
    `bare DuckDB COPY     ${(bare.ms / 1000).toFixed(1)} s, peak RSS ${mb(bare.maxRssBytes)}`,
    `ETL build            ${(etl.ms / 1000).toFixed(1)} s, ${Math.round(rate).toLocaleString('en-US')} rows/s`,
    `ratio ETL/bare       ${ratio.toFixed(2)} (goal <= ${GOALS.ratio}) ${pass(ratio <= GOALS.ratio)}`,
    `9,000,000 rows       ${nationalMinutes.toFixed(1)} min extrapolated on ${threads} threads (goal <= ${GOALS.nationalMinutes}) ${pass(nationalMinutes <= GOALS.nationalMinutes)}`,
    `ETL peak RSS         ${mb(etl.maxRssBytes)} (goal <= ${mb(GOALS.rssBytes)}) ${pass(etl.maxRssBytes <= GOALS.rssBytes)}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
