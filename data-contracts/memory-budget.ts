/**
 * What the API process's memory budget (`PF_MEMORY_BUDGET_MB`, env.ts) means, shared by the process that obeys it
 * (lambdas/handlers) and by what launches it with the V8 heap limit it needs (infra's `NODE_OPTIONS`, `npm start`,
 * the benchmark). Every memory-holding part of the process takes its size from here, so its peak RSS is set by
 * configuration, never by the data's size:
 * - a fixed native reserve: Node and V8 outside the old generation, the code, the DuckDB instance, sockets and the
 *   bytes of in-flight responses (up to about 2 MB per 1,000-row page);
 * - V8's old generation (`--max-old-space-size`): the vertical layer, memoised views and pages, request objects;
 *   without a limit V8 sizes it from the machine's memory and lets garbage grow to hundreds of MB (the entry points
 *   also fix V8's growing factor, lambdas/handlers/v8-heap.ts, so that a small limit does not mean frequent full
 *   collections);
 * - DuckDB's `memory_limit`: DuckDB only loads the vertical layer and the taxonomy map, one snapshot at a time, and
 *   spills to its temporary folder past its limit instead of failing;
 * - the identity serving indexes held in memory (lambdas/query/identity-partitions.ts): the rest. Partitions that do
 *   not fit are read from their local files through the page cache: slower by microseconds, never an error.
 */

/**
 * MB of native memory outside V8's old generation, DuckDB's limit and the identity indexes: the code, the DuckDB
 * instance's own allocations, sockets, the Buffers of the vertical layer's wire bytes and recent pages (Node's
 * external memory, which V8's limit does not count), and the fixed caches of index files: the identity indexes'
 * 4 MB block cache (lambdas/query/identity-partitions.ts), the search indexes' 2 MB (lambdas/query/search-indexes.ts)
 * and the NPI buckets' 16 MB of directories (lambdas/query/npi-buckets.ts). Measured as peak RSS minus the planned
 * shares on the bench's server under load at 1,000,000 rows: 136 MB (README, "Memory and sizing").
 */
export const NATIVE_RESERVE_MB = 136;
/**
 * The smallest V8 old generation and DuckDB limit the plan gives. V8 needs about 2.5 times the live heap (about
 * 100 MB on the bench: the vertical layer, its memoised views) to collect rarely.
 */
export const MIN_HEAP_MB = 192;
export const MIN_DUCKDB_MB = 32;
/** The budget when neither `PF_MEMORY_BUDGET_MB` nor a Lambda memory size is given (`npm start`). */
export const LOCAL_BUDGET_MB = 424;
/** Share of a Lambda's memory size the process plans for; the rest is the OS and the page cache of `/tmp`. */
export const LAMBDA_BUDGET_SHARE = 0.85;
/** The smallest budget the plan accepts. */
export const MIN_BUDGET_MB = NATIVE_RESERVE_MB + MIN_HEAP_MB + MIN_DUCKDB_MB;

export interface MemoryPlan {
  budgetMb: number;
  /** V8's old generation limit, in MB (`--max-old-space-size`). */
  heapMb: number;
  /** DuckDB `memory_limit`, in MB. */
  duckdbMb: number;
  /** Bytes of identity indexes kept in memory at most. */
  identityResidentBytes: number;
}

/**
 * @example planMemory(384) // { budgetMb: 384, heapMb: 192, duckdbMb: 32, identityResidentBytes: 25165824 }
 */
export function planMemory(budgetMb: number): MemoryPlan {
  if (!Number.isFinite(budgetMb) || budgetMb < MIN_BUDGET_MB) {
    throw new RangeError(`a memory budget of at least ${MIN_BUDGET_MB} MB is needed, got ${budgetMb}`);
  }
  const heapMb = Math.min(2048, Math.max(MIN_HEAP_MB, Math.round(budgetMb * 0.4)));
  const duckdbMb = Math.min(512, Math.max(MIN_DUCKDB_MB, Math.round(budgetMb * 0.08)));
  const identityMb = Math.max(0, budgetMb - NATIVE_RESERVE_MB - heapMb - duckdbMb);
  return { budgetMb, heapMb, duckdbMb, identityResidentBytes: identityMb * 1024 * 1024 };
}

/** The default budget: a share of the Lambda's memory size when deployed, else {@link LOCAL_BUDGET_MB}. */
export function defaultBudgetMb(lambdaMemoryMb: number | undefined): number {
  return lambdaMemoryMb === undefined ? LOCAL_BUDGET_MB : Math.floor(lambdaMemoryMb * LAMBDA_BUDGET_SHARE);
}

/** The Node option that gives V8 the plan's old generation: for `NODE_OPTIONS` or the command line. */
export function heapOption(plan: MemoryPlan): string {
  return `--max-old-space-size=${plan.heapMb}`;
}
