/**
 * ETL benchmark (not a test): `npm run bench:etl [-- --rows N] [--threads T] [--budget SIZE] [--repeat R] [--keep]
 * [--scenario build|changes|all]`.
 *
 * Generates an NPPES V2 file (330 columns, CMS form) with `generateNppesFile`, then, each in its own child
 * process so that peak RSS is the process's own (`process.resourceUsage().maxRSS`):
 * 1. the ETL: `buildSnapshot` with that file as the only NPPES input, the real NUCC, LEIE and FDA samples and the
 *    demo feed, into a temporary folder store (identity build, Parquet partitions, coverage, publish), with the
 *    memory budget `--budget` (default the ETL's own, 2GB);
 * 2. bare DuckDB: `COPY (SELECT * FROM read_csv('<file>')) TO '<out>.parquet'` with the same thread count.
 * Each pair runs `--repeat` times (default 2), alternating, and the best time of each is kept; peak RSS is the
 * maximum over the runs. Prints rows/s, the ratio ETL/bare (goal <= 2.0), the time at 9,000,000 rows (the national
 * file; goal <= 10 minutes on 2 cores): measured when `--rows` is at least that, else extrapolated, the ETL's peak
 * RSS (goal <= 2 GB), and per build step its time and peak RSS with the machine's load average during the run
 * (other processes slow a timed run down, and the run's own threads count in the load: compare runs at a similar
 * load).
 *
 * The change-feed scenario (`--scenario changes`, or `all`, the default): in one child process, a first build from
 * that file, then a second build into the same store from a copy in which 1% of the active NPIs change
 * (./../bench-data/derive-changed-nppes.ts: deactivations, renames, LEIE additions). Prints the second build's steps,
 * its `changes` step's time, and that time's share of the rest of the build: the time the change feed adds (goal <=
 * 25%).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { buildSnapshot } from '../../etl/build';
import { demoBuildInputs } from '../../etl/demo-inputs';
import { DEFAULT_MEMORY_BUDGET_MB, parseMemorySizeMb } from '../../platform/duckdb/batch';
import { FolderObjectStore } from '../../platform/folder-store';
import { type Logger, silentLogger } from '../../platform/logger';
import { deriveChangedNppes } from '../bench-data/derive-changed-nppes';
import { generateNppesFile } from '../bench-data/generate-nppes';

const NATIONAL_ROWS = 9_000_000;
const GOALS = { ratio: 2.0, nationalMinutes: 10, rssBytes: 2 * 1024 ** 3, changesShare: 0.25 } as const;
const REPO_ROOT = path.resolve(__dirname, '..', '..');
const SAMPLE_MS = 100;

/** One build step (BUILD_STEPS): its duration and the highest RSS sampled while it ran. */
interface StepReport {
  step: string;
  ms: number;
  peakRssBytes: number;
}

/** The 1-minute load average at the start of a run, its highest value during the run, and at the end. */
interface LoadReport {
  start: number;
  max: number;
  end: number;
}

/** One writer of the parquet step and its time (log `etl writer done`). */
interface WriterTime {
  writer: string;
  ms: number;
}

interface ChildReport {
  ms: number;
  maxRssBytes: number;
  load: LoadReport;
  rows?: number;
  identity?: number;
  steps?: StepReport[];
  /** The NPPES scan and staging, part of the `sources` step. */
  nppesMs?: number;
  memoryLimitMb?: number;
  /** The parquet step's writers (they run side by side). */
  writers?: WriterTime[];
  /** The change-feed scenario: the first build's time, and the second build's step (its change rows). */
  baseMs?: number;
  stepChanges?: number;
}

/** Runs this file in a child Node process in `mode` and returns its JSON report (the last stdout line). */
function runChild(mode: 'etl' | 'bare' | 'changes', args: string[]): Promise<ChildReport> {
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

/** Samples RSS and the load average while a child runs; `mark` closes the current step at the time given. */
function startMeter() {
  const load: LoadReport = { start: loadavg()[0] ?? 0, max: 0, end: 0 };
  const steps: StepReport[] = [];
  let stepPeak = 0;
  let stepStart = 0;
  const sample = () => {
    stepPeak = Math.max(stepPeak, process.memoryUsage.rss());
    load.max = Math.max(load.max, loadavg()[0] ?? 0);
  };
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    mark(step: string, elapsedMs: number) {
      sample();
      steps.push({ step, ms: elapsedMs - stepStart, peakRssBytes: stepPeak });
      stepStart = elapsedMs;
      stepPeak = 0;
    },
    stop(): { steps: StepReport[]; load: LoadReport } {
      clearInterval(timer);
      load.end = loadavg()[0] ?? 0;
      return { steps, load };
    },
  };
}

async function childEtl(file: string, threads: number, memoryBudgetMb: number): Promise<void> {
  const work = path.join(path.dirname(file), `etl-run-${process.pid}`);
  const meter = startMeter();
  let memoryLimitMb: number | undefined;
  const writers: WriterTime[] = [];
  const logger: Logger = {
    ...silentLogger,
    info(message, fields) {
      if (message === 'etl build started') memoryLimitMb = Number(fields?.duckdb_memory_limit_mb);
      if (message === 'etl writer done')
        writers.push({ writer: String(fields?.writer), ms: Number(fields?.elapsed_ms) });
      if (message === 'etl step done') meter.mark(String(fields?.step), Number(fields?.elapsed_ms));
    },
  };
  const nppes = { start: -1, end: -1 };
  const started = Date.now();
  const demo = demoBuildInputs(REPO_ROOT);
  const summary = await buildSnapshot({
    store: new FolderObjectStore(path.join(work, 'store')),
    inputs: { ...demo, nppes: [file] },
    workDir: work,
    logger,
    duckdb: { threads, memoryBudgetMb },
    onProgress: (p) => {
      if (p.phase === 'nppes' && nppes.start < 0) nppes.start = p.elapsedMs;
      else if (p.phase !== 'nppes' && nppes.start >= 0 && nppes.end < 0) nppes.end = p.elapsedMs;
    },
  });
  const ms = Date.now() - started;
  const { steps, load } = meter.stop();
  await rm(work, { recursive: true, force: true });
  const report: ChildReport = {
    ms,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    load,
    rows: summary.sources.find((s) => s.source === 'nppes')?.read ?? 0,
    identity: summary.counts.identity,
    steps,
    nppesMs: nppes.end - nppes.start,
    writers,
    ...(memoryLimitMb ? { memoryLimitMb } : {}),
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

/** The change-feed scenario's child: a first build from `file`, then a second from `changedFile` and `leieFile`. */
async function childChanges(
  file: string,
  changedFile: string,
  leieFile: string,
  threads: number,
  memoryBudgetMb: number,
): Promise<void> {
  const work = path.join(path.dirname(file), `etl-changes-${process.pid}`);
  const store = new FolderObjectStore(path.join(work, 'store'));
  const demo = demoBuildInputs(REPO_ROOT);
  const baseStarted = Date.now();
  await buildSnapshot({
    store,
    inputs: { ...demo, nppes: [file] },
    workDir: work,
    duckdb: { threads, memoryBudgetMb },
    snapshotTime: new Date(Date.now() - 60_000),
  });
  const baseMs = Date.now() - baseStarted;
  const meter = startMeter();
  const logger: Logger = {
    ...silentLogger,
    info(message, fields) {
      if (message === 'etl step done') meter.mark(String(fields?.step), Number(fields?.elapsed_ms));
    },
  };
  const started = Date.now();
  const summary = await buildSnapshot({
    store,
    inputs: { ...demo, nppes: [changedFile], leie: [...demo.leie, leieFile] },
    workDir: work,
    logger,
    duckdb: { threads, memoryBudgetMb },
  });
  const ms = Date.now() - started;
  const { steps, load } = meter.stop();
  await rm(work, { recursive: true, force: true });
  const report: ChildReport = {
    ms,
    baseMs,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    load,
    identity: summary.counts.identity,
    steps,
    stepChanges: summary.changes.step?.changes ?? 0,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

/** The change-feed scenario: derives the changed inputs (once per row count and seed) and runs its child. */
async function runChangesScenario(file: string, childArgs: string[], keep: boolean): Promise<string[]> {
  const changed = file.replace(/\.csv$/, '-changed.csv');
  const leie = file.replace(/\.csv$/, '-changed-leie.csv');
  if (!existsSync(changed) || !existsSync(leie)) {
    const derived = await deriveChangedNppes({
      nppesIn: file,
      nppesOut: changed,
      leieOut: leie,
      leieHeaderFrom: path.join(REPO_ROOT, 'test', 'fixtures', 'source-data', 'leie.csv'),
    });
    process.stderr.write(`changed inputs: ${JSON.stringify(derived)}\n`);
  }
  const run = await runChild('changes', [...childArgs.slice(0, -1), changed, leie, file]);
  if (!keep) await Promise.all([rm(changed, { force: true }), rm(leie, { force: true })]);
  const changesMs = run.steps?.find((s) => s.step === 'changes')?.ms ?? 0;
  const added = changesMs / Math.max(1, run.ms - changesMs);
  return [
    `change feed          second build ${sec(run.ms)} (first ${sec(run.baseMs ?? 0)}), ${run.stepChanges?.toLocaleString('en-US')} changes; load ${loadText(run.load)}`,
    ...stepLines(run),
    `changes step         ${sec(changesMs)}, ${(added * 100).toFixed(1)}% added to the rest of the build (goal <= ${GOALS.changesShare * 100}%) ${pass(added <= GOALS.changesShare)}`,
  ];
}

async function childBare(file: string, threads: number): Promise<void> {
  const out = `${file}.bare.parquet`;
  const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const connection = await instance.connect();
  const literal = (p: string) => `'${p.replace(/'/g, "''")}'`;
  const meter = startMeter();
  const started = Date.now();
  await connection.run(`COPY (SELECT * FROM read_csv(${literal(file)})) TO ${literal(out)} (FORMAT parquet)`);
  const ms = Date.now() - started;
  const { load } = meter.stop();
  connection.closeSync();
  instance.closeSync();
  await rm(out, { force: true });
  const report: ChildReport = { ms, maxRssBytes: process.resourceUsage().maxRSS * 1024, load };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

/** The faster of two runs, with the higher peak RSS of both. */
function bestOf(held: ChildReport | null, next: ChildReport): ChildReport {
  if (!held) return next;
  const best = next.ms < held.ms ? next : held;
  return { ...best, maxRssBytes: Math.max(held.maxRssBytes, next.maxRssBytes) };
}

const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const pass = (ok: boolean) => (ok ? 'ok' : 'MISSED');
const loadText = (l: LoadReport) =>
  `${l.start.toFixed(1)} at start, ${l.max.toFixed(1)} at most, ${l.end.toFixed(1)} at end`;

/** The parquet step's writers: `identity 2.0 s, identity-index 12.1 s, …`. */
function writerText(writers: readonly WriterTime[]): string {
  return writers.map((w) => `${w.writer} ${sec(w.ms)}`).join(', ');
}

/** The per-step table of an ETL run. */
function stepLines(etl: ChildReport): string[] {
  return (etl.steps ?? []).map((s) => {
    const nppes = s.step === 'sources' && etl.nppesMs !== undefined ? ` (NPPES scan ${sec(etl.nppesMs)})` : '';
    const writers = s.step === 'parquet' && etl.writers?.length ? ` (side by side: ${writerText(etl.writers)})` : '';
    return `  ${s.step.padEnd(10)} ${sec(s.ms).padStart(9)}  peak RSS ${mb(s.peakRssBytes).padStart(7)}${nppes}${writers}`;
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '1000000' },
      threads: { type: 'string' },
      budget: { type: 'string', default: `${DEFAULT_MEMORY_BUDGET_MB}MB` },
      seed: { type: 'string', default: '1' },
      keep: { type: 'boolean', default: false },
      repeat: { type: 'string', default: '2' },
      child: { type: 'string' },
      scenario: { type: 'string', default: 'all' },
    },
    allowPositionals: true,
    strict: true,
  });
  const threads = Number(values.threads ?? Math.min(availableParallelism(), 4));
  const budgetMb = parseMemorySizeMb(values.budget);
  if (budgetMb === null) throw new Error(`--budget must be a size like 2GB or 1536MB: ${values.budget}`);
  if (values.child) {
    const file = process.argv[process.argv.length - 1] as string;
    if (values.child === 'etl') await childEtl(file, threads, budgetMb);
    else if (values.child === 'changes') {
      const [changed, leie] = process.argv.slice(-3, -1) as [string, string];
      await childChanges(file, changed, leie, threads, budgetMb);
    } else await childBare(file, threads);
    return;
  }
  const scenario = values.scenario;
  if (scenario !== 'all' && scenario !== 'build' && scenario !== 'changes')
    throw new Error(`--scenario is build, changes or all: ${scenario}`);
  const rows = Number(values.rows);
  if (!Number.isInteger(rows) || rows <= 0) throw new Error(`--rows must be a positive integer: ${values.rows}`);
  const dir = path.join(tmpdir(), 'pf-etl-bench');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `nppes-${rows}-seed${values.seed}.csv`);
  if (!existsSync(file)) {
    process.stderr.write(`generating ${rows.toLocaleString('en-US')} NPPES rows into ${file}\n`);
    const started = Date.now();
    await generateNppesFile({ rows, outFile: file, seed: Number(values.seed) });
    process.stderr.write(`generated in ${sec(Date.now() - started)}\n`);
  }
  const bytes = (await stat(file)).size;
  process.stderr.write(`file ${mb(bytes)}, ${threads} DuckDB threads, ${availableParallelism()} cores\n`);

  // Alternate the two measurements and keep each one's best run, so that neither pays for the other's page-cache
  // and write-back effects.
  const repeat = Math.max(1, Number(values.repeat));
  const childArgs = ['--threads', String(threads), '--budget', `${budgetMb}MB`, file];
  if (scenario === 'changes') {
    const lines = await runChangesScenario(file, childArgs, values.keep);
    if (!values.keep) await rm(file, { force: true });
    process.stdout.write(`${lines.join('\n')}\n`);
    return;
  }
  let bare: ChildReport | null = null;
  let etl: ChildReport | null = null;
  for (let i = 0; i < repeat; i += 1) {
    const b = await runChild('bare', childArgs);
    const e = await runChild('etl', childArgs);
    process.stderr.write(`run ${i + 1}: bare ${sec(b.ms)}, ETL ${sec(e.ms)}\n`);
    bare = bestOf(bare, b);
    etl = bestOf(etl, e);
  }
  if (!bare || !etl) throw new Error('no run');
  const changesLines = scenario === 'all' ? await runChangesScenario(file, childArgs, values.keep) : [];
  if (!values.keep) await rm(file, { force: true });

  const rate = rows / (etl.ms / 1000);
  const ratio = etl.ms / bare.ms;
  const measured = rows >= NATIONAL_ROWS;
  const nationalMinutes = measured ? etl.ms / 60_000 : NATIONAL_ROWS / rate / 60;
  const nationalRows = `${Math.max(rows, NATIONAL_ROWS).toLocaleString('en-US')} rows`;
  const national = `${nationalMinutes.toFixed(1)} min ${measured ? 'measured' : 'extrapolated'}`;
  const lines = [
    `rows                 ${rows.toLocaleString('en-US')} (${mb(bytes)} CSV, ${etl.identity?.toLocaleString('en-US')} active NPIs)`,
    `bare DuckDB COPY     ${sec(bare.ms)}, peak RSS ${mb(bare.maxRssBytes)}; load ${loadText(bare.load)}`,
    `ETL build            ${sec(etl.ms)}, ${Math.round(rate).toLocaleString('en-US')} rows/s; load ${loadText(etl.load)}`,
    ...stepLines(etl),
    `ratio ETL/bare       ${ratio.toFixed(2)} (goal <= ${GOALS.ratio}) ${pass(ratio <= GOALS.ratio)}`,
    `${nationalRows.padEnd(20)} ${national} on ${threads} threads, ${availableParallelism()} cores (goal <= ${GOALS.nationalMinutes}) ${pass(nationalMinutes <= GOALS.nationalMinutes)}`,
    `ETL peak RSS         ${mb(etl.maxRssBytes)} (goal <= ${mb(GOALS.rssBytes)}) ${pass(etl.maxRssBytes <= GOALS.rssBytes)}; ` +
      `memory budget ${budgetMb} MB, DuckDB memory_limit ${etl.memoryLimitMb ?? '?'} MB`,
    ...changesLines,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
