/** What bench:abuse keeps of a run: the checkout it measured, and the results file under `.bench/abuse`. */
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plan } from '../../../data-contracts/constants';
import type { AbuseOptions } from './abuse-options';
import type { MeasuredSeries, ScenarioSummary } from './abuse-report';

/** A checkout's commit and its uncommitted changes to what the server is built from. */
export interface CheckoutInfo {
  commit: string;
  changed: string[];
}

/** The commit of the checkout at `root` and its uncommitted changes under the server's folders. */
export function describeCheckout(root: string): CheckoutInfo {
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' });
  // Porcelain lines are `XY path`: the status letters take the first two columns, a space the third.
  const changed = git('status', '--porcelain', '--', 'lambdas', 'platform', 'data-contracts', 'tools/local')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.slice(3));
  return { commit: git('rev-parse', 'HEAD').trim(), changed };
}

/** A run's results. */
export interface AbuseResults {
  options: AbuseOptions;
  server: CheckoutInfo & { runner: string };
  rows: number;
  snapshotId: string;
  plan: Plan;
  quota: number;
  idleCpuMsPerSecond: number;
  changes: { since: string; changes: number } | null;
  summaries: ScenarioSummary[];
  measured: Record<string, MeasuredSeries[]>;
}

/** Writes `<dir>/results-<time>.json`; returns its path. */
export async function writeResults(dir: string, results: AbuseResults): Promise<string> {
  const at = new Date().toISOString();
  const file = path.join(dir, `results-${at.replace(/[:.]/g, '-')}.json`);
  const { options, server } = results;
  const body = {
    at,
    node: process.version,
    server: { root: options.serverRoot, commit: server.commit, uncommitted: server.changed, runner: server.runner },
    rows: results.rows,
    snapshot_id: results.snapshotId,
    plan: results.plan,
    quota: results.quota,
    calls: options.calls,
    rounds: options.rounds,
    warmup: options.warmup,
    seed: options.seed,
    order: 'fresh then exhausted in even rounds (0, 2, ...), exhausted then fresh in odd ones',
    idle_cpu_ms_per_s: results.idleCpuMsPerSecond,
    // Others' processes may share the machine's CPUs: the load when the results were written.
    loadavg: (await readFile('/proc/loadavg', 'utf8')).trim(),
    changes: results.changes,
    summaries: results.summaries,
    series: results.measured,
  };
  await writeFile(file, `${JSON.stringify(body, null, 2)}\n`);
  return file;
}
