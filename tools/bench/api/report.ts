/**
 * The report of `bench:api`: one table of every scenario, the identity queries against the goals and the
 * PostgreSQL figures, memory, and the cold starts.
 */
import { LOCAL_BUDGET_MB } from '../../../data-contracts/memory-budget';
import type { MemoryComposition } from './bench-server';
import { GOALS, IDENTITY_SCENARIO_NAMES, POSTGRES_FIGURES } from './goals';
import type { LoadResult } from './http-load';
import type { DeepTaxonomy, IdentityScenarioId } from './identity-workload';
import type { PeerResults } from './peer-results';

export interface ScenarioResult extends LoadResult {
  name: string;
  /** Set on the identity queries a-d. */
  identity?: IdentityScenarioId;
  distinctUrls: number;
  /** Non-200 answers and transport errors while warming up: they fail the scenario too. */
  warmupErrors: number;
  /** req/s relative to the in-memory ceiling route. */
  ratio?: number;
  p99GoalMs?: number;
  rpsGoal?: number;
  /** The server's peak RSS (VmHWM) after this scenario, bytes. */
  peakRssAfter: number;
  /** Where the server's memory is right after this scenario (null when it could not be read). */
  memoryAfter: MemoryComposition | null;
}

export interface ColdIdentity {
  /** The query timed: the first identity query of the largest partition in a fresh process. */
  path: string;
  partition: string;
  partitionRows: number;
  firstMs: number;
  /** A second query of the same partition right after, for contrast. */
  secondMs: number;
  status: number;
  peakRss: number;
}

/** The size of a snapshot's NPI lookup buckets (`npi` objects). */
export interface NpiIndexSize {
  buckets: number;
  npis: number;
  /** Bytes of the stored objects (gzipped before layout 4, as they are since). */
  storedBytes: number;
  /** Bytes of the bucket files (what the API reads). */
  rawBytes: number;
}

export interface ColdNpi {
  /** The lookup timed: the first NPI lookup in a fresh process, empty cache. */
  path: string;
  firstMs: number;
  /** The same lookup right after, for contrast. */
  secondMs: number;
  status: number;
}

export interface ReportInput {
  rows: number;
  snapshotId: string;
  identityRows: number;
  partitions: number;
  connections: number;
  seconds: number;
  server: string;
  budgetMb: number | null;
  results: ScenarioResult[];
  shares: number[];
  peakRss: number;
  coldStartMs: number;
  coldIdentity: ColdIdentity | null;
  coldNpi: ColdNpi | null;
  /** The snapshot's NPI lookup buckets, when it has some. */
  npiIndex: NpiIndexSize | null;
  deep: DeepTaxonomy;
  /** The PostgreSQL peer measured on this machine by `bench:pg` for this snapshot, when it has been. */
  peerHere: PeerResults | null;
}

/** The verdicts the run is judged on; `failed` scenarios had errors. */
export interface Verdicts {
  failedScenarios: string[];
  /** `peer`: against the figures the issue filed; `peerHere`: against `bench:pg` on this machine (null: none). */
  identityGoals: Partial<
    Record<IdentityScenarioId, { p99Goal: boolean; peer: boolean | null; peerHere: boolean | null }>
  >;
  rssAt1M: boolean | null;
  rssWithinBudget: boolean;
}

const MB = 1024 ** 2;
const mark = (ok: boolean) => (ok ? 'ok  ' : 'MISS');
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const thousands = (n: number) => n.toLocaleString('en-US');
const failed = (r: ScenarioResult) => r.errors > 0 || r.warmupErrors > 0;
const NAME_WIDTH = 50;

/** Works out the verdicts of a run. */
export function judge(input: ReportInput): Verdicts {
  const peer = POSTGRES_FIGURES[input.rows];
  const identityGoals: Verdicts['identityGoals'] = {};
  for (const r of input.results) {
    if (r.identity === undefined) continue;
    const pg = peer?.[r.identity];
    const here = input.peerHere?.results[r.identity];
    const ahead = (of: { rps: number; p99: number } | undefined) =>
      of === undefined || !input.deep.full ? null : r.rps >= of.rps && r.p99 < of.p99 && !failed(r);
    identityGoals[r.identity] = {
      p99Goal: r.p99 <= GOALS.identityP99Ms[r.identity] && !failed(r),
      peer: ahead(pg),
      peerHere: ahead(here),
    };
  }
  const failedScenarios = input.results.filter(failed).map((r) => r.name);
  if (input.coldIdentity !== null && input.coldIdentity.status !== 200) failedScenarios.push('cold identity query');
  if (input.coldNpi !== null && input.coldNpi.status !== 200) failedScenarios.push('cold NPI lookup');
  return {
    failedScenarios,
    identityGoals,
    rssAt1M: input.rows === 1_000_000 ? input.peakRss <= GOALS.rssBytesAt1M : null,
    // The server's budget: the one given, else the local default it plans with.
    rssWithinBudget: input.peakRss <= (input.budgetMb ?? LOCAL_BUDGET_MB) * MB,
  };
}

/** Prints the report on stdout. */
export function printReport(input: ReportInput, verdicts: Verdicts): void {
  const say = (text: string) => process.stdout.write(`${text}\n`);
  say(
    `\nAPI benchmark: ${thousands(input.rows)} NPPES rows (snapshot ${input.snapshotId}: ` +
      `${thousands(input.identityRows)} identity rows in ${input.partitions} partitions), ` +
      `${input.connections} connections, ${input.seconds} s per scenario, Node ${process.version}`,
  );
  say(`server: ${input.server}`);
  say(
    `memory budget: ${input.budgetMb === null ? `${LOCAL_BUDGET_MB} MB, the local default (--budget-mb N sets PF_MEMORY_BUDGET_MB)` : `PF_MEMORY_BUDGET_MB=${input.budgetMb}`}`,
  );
  say(
    `${'scenario'.padEnd(NAME_WIDTH)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ` +
      `${'errors'.padStart(7)} ${'URLs'.padStart(6)} ${'RSS MB'.padStart(7)} ${'x ceil'.padStart(7)}  goal`,
  );
  for (const r of input.results) {
    const goal =
      (r.p99GoalMs ? `${mark(r.p99 <= r.p99GoalMs)} p99<=${r.p99GoalMs}` : '') +
      (r.rpsGoal ? ` ${mark(r.rps >= r.rpsGoal)} req/s>=${r.rpsGoal}` : '');
    const failure = failed(r) ? `  FAILED (${errorSummary(r)})` : '';
    say(
      `${r.name.padEnd(NAME_WIDTH)} ${fmt(r.rps).padStart(8)} ${fmt(r.p50, 2).padStart(8)} ${fmt(r.p99, 2).padStart(8)} ` +
        `${String(r.errors).padStart(7)} ${String(r.distinctUrls).padStart(6)} ${fmt(r.peakRssAfter / MB).padStart(7)} ` +
        `${fmt(r.ratio ?? Number.NaN, 2).padStart(7)}  ${goal}${failure}`,
    );
  }
  printMemory(input.results, say);
  const sorted = [...input.shares].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  if (sorted.length > 0) {
    say(
      `limit-50 share of ceiling, median of ${sorted.length} back-to-back runs ` +
        `(${input.shares.map((x) => `${(x * 100).toFixed(1)}%`).join(', ')}): ${(median * 100).toFixed(1)}%  ` +
        `${mark(median >= GOALS.limit50CeilingShare)} >= ${GOALS.limit50CeilingShare * 100}%`,
    );
  }

  const deep = input.deep;
  say(
    `\nc's taxonomy: the ${deep.kind === 'classification' ? 'classification name' : 'single code'} "${deep.label}" ` +
      `(${deep.kind === 'classification' ? 'class_rep rows of the largest partition' : 'the code with the most rows'}), ` +
      `${thousands(deep.total)} results, offsets ${thousands(deep.firstOffset)} to ${thousands(deep.total - 50)}` +
      (deep.full ? '' : ` (no taxonomy has more than 100,050 results at this row count: c is NOT the issue's query)`),
  );
  const peer = POSTGRES_FIGURES[input.rows];
  say(
    peer && deep.full
      ? `identity queries vs PostgreSQL 15 + HTTP at ${thousands(input.rows)} rows (goal: more req/s and a lower p99 than it; p99 <= 25/25/25/60 ms)`
      : `identity queries (PostgreSQL figures exist for 1,000,000 and 3,000,000 rows only; p99 goals 25/25/25/60 ms)`,
  );
  say(
    `${'query'.padEnd(NAME_WIDTH)} ${'req/s'.padStart(8)} ${'PG req/s'.padStart(9)} ${'p99 ms'.padStart(8)} ` +
      `${'PG p99'.padStart(7)} ${'goal'.padStart(5)}  p99 goal  vs PG   ${'PG here'.padStart(8)} ${'p99'.padStart(6)}  vs PG here`,
  );
  for (const r of input.results) {
    if (r.identity === undefined) continue;
    const pg = peer?.[r.identity];
    const here = input.peerHere?.results[r.identity];
    const v = verdicts.identityGoals[r.identity];
    say(
      `${IDENTITY_SCENARIO_NAMES[r.identity].padEnd(NAME_WIDTH)} ${fmt(r.rps).padStart(8)} ${fmt(pg?.rps ?? Number.NaN).padStart(9)} ` +
        `${fmt(r.p99, 2).padStart(8)} ${fmt(pg?.p99 ?? Number.NaN, 1).padStart(7)} ${String(GOALS.identityP99Ms[r.identity]).padStart(5)}  ` +
        `${mark(v?.p99Goal ?? false)}      ${v?.peer === null || v?.peer === undefined ? 'n/a ' : mark(v.peer)}  ` +
        `${fmt(here?.rps ?? Number.NaN).padStart(8)} ${fmt(here?.p99 ?? Number.NaN, 1).padStart(6)}  ` +
        `${v?.peerHere === null || v?.peerHere === undefined ? 'n/a' : mark(v.peerHere)}` +
        `${failed(r) ? `  FAILED: ${r.errors + r.warmupErrors} errors` : ''}`,
    );
  }
  say(
    input.peerHere === null
      ? '(PG here: no `npm run bench:pg` figures for this snapshot; run it to measure the peer on this machine)'
      : `(PG here: \`npm run bench:pg\` on this machine at ${input.peerHere.at}, same queries, connections and seconds)`,
  );

  const rssParts = [`server peak RSS: ${fmt(input.peakRss / MB)} MB`];
  if (verdicts.rssAt1M !== null) rssParts.push(`${mark(verdicts.rssAt1M)} <= 400 MB at 1,000,000 rows`);
  rssParts.push(`${mark(verdicts.rssWithinBudget)} <= budget ${input.budgetMb ?? LOCAL_BUDGET_MB} MB`);
  say(`\n${rssParts.join('  ')}`);
  say(
    `cold start (spawn to first 200 on a list): ${fmt(input.coldStartMs)} ms  ${mark(input.coldStartMs <= GOALS.coldStartMs)} <= 1000 ms`,
  );
  const cold = input.coldIdentity;
  if (cold) {
    say(
      `cold identity query (fresh process, empty cache, first query of the largest partition ${cold.partition}, ` +
        `${thousands(cold.partitionRows)} rows): ${fmt(cold.firstMs)} ms (HTTP ${cold.status}); the next query of it ` +
        `${fmt(cold.secondMs, 1)} ms; peak RSS ${fmt(cold.peakRss / MB)} MB`,
    );
    say(`  ${cold.path}`);
  }
  const npi = input.npiIndex;
  if (npi !== null && npi.npis > 0) {
    const perMillion = (bytes: number) => fmt((bytes / MB) * (1_000_000 / npi.npis), 1);
    say(
      `NPI index: ${thousands(npi.buckets)} buckets, ${thousands(npi.npis)} NPIs; stored ${fmt(npi.storedBytes / MB, 1)} MB ` +
        `(${perMillion(npi.storedBytes)} MB per million NPIs), unzipped ${fmt(npi.rawBytes / MB, 1)} MB ` +
        `(${perMillion(npi.rawBytes)} MB per million NPIs)`,
    );
  }
  const lookup = input.results.find((r) => r.name === 'npi lookup');
  if (lookup) {
    say(
      `npi lookup: ${fmt(lookup.rps)} req/s  ${mark(lookup.rps >= GOALS.npiLookupRps && !failed(lookup))} >= ${GOALS.npiLookupRps}`,
    );
  }
  const coldNpi = input.coldNpi;
  if (coldNpi) {
    say(
      `cold NPI lookup (fresh process, empty cache): ${fmt(coldNpi.firstMs)} ms (HTTP ${coldNpi.status})  ` +
        `${mark(coldNpi.firstMs <= GOALS.coldNpiMs)} <= ${GOALS.coldNpiMs} ms; the same lookup again ${fmt(coldNpi.secondMs, 1)} ms`,
    );
  }
  say(
    verdicts.failedScenarios.length === 0
      ? 'errors: none'
      : `FAILED: scenarios with errors: ${verdicts.failedScenarios.join('; ')}`,
  );
}

function errorSummary(r: ScenarioResult): string {
  const parts = Object.entries(r.errorStatuses).map(
    ([status, n]) => `${n} x ${status === '0' ? 'transport error' : `HTTP ${status}`}`,
  );
  if (r.warmupErrors > 0) parts.push(`${r.warmupErrors} in the warm-up`);
  return parts.join(', ');
}

/** The server's memory right after each scenario, by kind (MB): where a peak RSS over the budget comes from. */
function printMemory(results: readonly ScenarioResult[], say: (text: string) => void): void {
  if (results.every((r) => r.memoryAfter === null)) return;
  say(`server memory after each scenario, MB: RSS = file-backed (code) + V8 heap + ArrayBuffers + other native`);
  for (const r of results) {
    const m = r.memoryAfter;
    if (m === null) continue;
    say(
      `${r.name.padEnd(NAME_WIDTH)} ${fmt(m.rss / MB).padStart(8)} = ${fmt(m.file / MB)} + ${fmt(m.heap / MB)} + ` +
        `${fmt(m.arrayBuffers / MB)} + ${fmt(m.other / MB)}`,
    );
  }
}
