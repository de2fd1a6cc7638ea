/**
 * The API process's one memory budget and how it is shared. Every memory-holding part of the process takes its
 * size from here, so that the process's peak RSS is set by configuration, never by the data's size:
 * - a fixed reserve for Node, the code, the SDK clients, the vertical layer and request buffers;
 * - DuckDB's `memory_limit` (DuckDB only loads the vertical layer and the taxonomy map, one snapshot at a time; past
 *   its limit it spills to its temporary folder instead of failing);
 * - the identity serving indexes held in memory (`query/identity-partitions.ts`): the rest. Partitions that do not
 *   fit are read from their local files; slower, never an error.
 */

/**
 * Megabytes for Node, code, SDK clients, the vertical layer and in-flight responses. Measured on the bench's
 * 1,000,000-row snapshot with 10,000 vertical providers: 120 MB after start, a peak of 225 MB while a snapshot
 * loads (DuckDB's scan of the vertical layer, returned to the OS within seconds), and up to 2 MB per in-flight
 * 1,000-row page.
 */
export const RESERVED_MB = 256;
/** The budget when neither `PF_MEMORY_BUDGET_MB` nor a Lambda memory size is given (`npm start`). */
export const LOCAL_BUDGET_MB = 384;
/** Share of a Lambda's memory size the process plans for; the rest is the OS and the page cache of `/tmp`. */
export const LAMBDA_BUDGET_SHARE = 0.85;
/** The smallest budget the plan accepts: the reserve and a minimal DuckDB. */
export const MIN_BUDGET_MB = RESERVED_MB + 32;

export interface MemoryPlan {
  budgetMb: number;
  /** DuckDB `memory_limit`, in MB. */
  duckdbMb: number;
  /** Bytes of identity indexes kept in memory at most. */
  identityResidentBytes: number;
}

/**
 * @example planMemory(384) // { budgetMb: 384, duckdbMb: 38, identityResidentBytes: 94371840 }
 */
export function planMemory(budgetMb: number): MemoryPlan {
  if (!Number.isFinite(budgetMb) || budgetMb < MIN_BUDGET_MB) {
    throw new RangeError(`a memory budget of at least ${MIN_BUDGET_MB} MB is needed, got ${budgetMb}`);
  }
  const duckdbMb = Math.min(512, Math.max(32, Math.round(budgetMb * 0.1)));
  const identityMb = budgetMb - RESERVED_MB - duckdbMb;
  return { budgetMb, duckdbMb, identityResidentBytes: Math.max(0, identityMb) * 1024 * 1024 };
}

/** The default budget: a share of the Lambda's memory size when deployed, else {@link LOCAL_BUDGET_MB}. */
export function defaultBudgetMb(lambdaMemoryMb: number | undefined): number {
  return lambdaMemoryMb === undefined ? LOCAL_BUDGET_MB : Math.floor(lambdaMemoryMb * LAMBDA_BUDGET_SHARE);
}
