/**
 * The ETL benchmark's child processes (tools/bench/etl-bench.ts runs each in its own Node process, so that peak RSS
 * is the process's own): the ETL build, the change-feed scenario's two builds, and bare DuckDB's COPY. Each prints
 * its report as one JSON line on stdout.
 */
import { rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { buildSnapshot } from '../../../etl/build';
import { demoBuildInputs } from '../../../etl/cli/demo-inputs';
import { FolderObjectStore } from '../../../platform/folder-store';
import { type Logger, silentLogger } from '../../../platform/logger';
import { nationalLeiePath } from '../../bench-data/generate-leie';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const SAMPLE_MS = 100;

/** One build step (BUILD_STEPS): its duration and the highest RSS sampled while it ran. */
export interface StepReport {
  step: string;
  ms: number;
  peakRssBytes: number;
}

/** The 1-minute load average at the start of a run, its highest value during the run, and at the end. */
export interface LoadReport {
  start: number;
  max: number;
  end: number;
}

/** One writer of the parquet step and its time (log `etl writer done`). */
export interface WriterTime {
  writer: string;
  ms: number;
}

export interface ChildReport {
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

/** The ETL child: one build with `file` as the only NPPES input. */
export async function childEtl(file: string, threads: number, memoryBudgetMb: number): Promise<void> {
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
    inputs: { ...demo, nppes: [file], leie: [nationalLeiePath(file)] },
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
export async function childChanges(
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
    inputs: { ...demo, nppes: [file], leie: [nationalLeiePath(file)] },
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
    inputs: { ...demo, nppes: [changedFile], leie: [nationalLeiePath(file), leieFile] },
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

/** The bare DuckDB child: the file to Parquet with one COPY. */
export async function childBare(file: string, threads: number): Promise<void> {
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
