/**
 * What the API process's memory budget (`PF_MEMORY_BUDGET_MB`, env.ts) means, shared by the process that obeys it
 * (lambdas/handlers) and by what launches it with the V8 heap limit it needs (infra's `NODE_OPTIONS`, `npm start`,
 * the benchmark). Every memory-holding part of the process takes its size from here, so its peak RSS is set by
 * configuration, not by the data's size:
 * - a native reserve, measured under load ({@link NATIVE_RESERVE_MB}): the code, V8's young generation, the
 *   fixed caches, Node, the DuckDB instance outside its limit, sockets and in-flight responses;
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
 * MB the process holds outside V8's old generation limit, DuckDB's limit and the identity indexes. Measured, not
 * summed, at national scale (`npm run bench:api -- --rows 9000000`, every scenario): the server's peak RSS at a known
 * budget, less that budget's heap, DuckDB and identity shares, plus a margin for the run-to-run spread of a peak.
 * Measured at national scale because the last part below grows with the data's size; the figures of the run that
 * set it are in docs/performance.md. What it holds:
 * - the code, file-backed (the node binary, DuckDB's library);
 * - V8's young generation, which `--max-old-space-size` does not count;
 * - the fixed caches: the NPI buckets' directories (lambdas/query/npi-buckets.ts), recent list pages
 *   (lambdas/http/list-formats.ts), the pooled page bodies (lambdas/http/body-pool.ts), the identity indexes' block
 *   cache and the search indexes';
 * - Node, the DuckDB instance outside its limit, sockets, Buffers awaiting collection and the memory glibc keeps
 *   once freed: the rest, which grows with the data's size (keys of more objects, more NPI buckets unzipped, more
 *   search indexes opened).
 * The old generation's limit is a ceiling: V8 grows the heap to about twice the live heap between collections
 * (lambdas/handlers/v8-heap.ts), so part of the heap share is room, not use.
 */
export const NATIVE_RESERVE_MB = 240;
/**
 * The smallest V8 old generation and DuckDB limit the plan gives. V8 needs about 2.5 times the live heap (the
 * vertical layer, its memoised views) to collect rarely.
 */
export const MIN_HEAP_MB = 192;
export const MIN_DUCKDB_MB = 32;
/**
 * The budget when neither `PF_MEMORY_BUDGET_MB` nor a Lambda memory size is given (`npm start`): the smallest
 * budget with room for a few MB of identity indexes (the rest of the identity layer is read through the page
 * cache, which RSS does not count).
 */
export const LOCAL_BUDGET_MB = 480;
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
 * @example planMemory(512) // { budgetMb: 512, heapMb: 205, duckdbMb: 41, identityResidentBytes: 27262976 }
 */
export function planMemory(budgetMb: number): MemoryPlan {
  if (!Number.isFinite(budgetMb) || budgetMb < MIN_BUDGET_MB) {
    throw new RangeError(`a memory budget of at least ${MIN_BUDGET_MB} MB is needed, got ${budgetMb}`);
  }
  const heapMb = Math.min(2048, Math.max(MIN_HEAP_MB, Math.round(budgetMb * 0.4)));
  // 8% of the budget, within what the reserve and the heap leave (so that the shares never pass the budget).
  const duckdbMb = Math.max(
    MIN_DUCKDB_MB,
    Math.min(512, Math.round(budgetMb * 0.08), budgetMb - NATIVE_RESERVE_MB - heapMb),
  );
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
