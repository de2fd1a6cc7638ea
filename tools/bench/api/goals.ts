/**
 * What `bench:api` judges its figures against: the goals of the identity path and the peer's figures (PostgreSQL
 * 15 behind HTTP, same four queries, same 16 connections, 15 s per query, parameters drawn from the data rows;
 * both answered the same 25-30 sample queries identically).
 */
import type { IdentityScenarioId } from './identity-workload';

export const GOALS = {
  p99Ms: 25,
  /** The old single-partition deep-offset scenario. */
  deepOffsetP99Ms: 100,
  limit50CeilingShare: 0.2,
  /** Peak RSS at 1,000,000 rows. */
  rssBytesAt1M: 400 * 1024 ** 2,
  coldStartMs: 1000,
  /** NPI lookups at 16 connections: one NPI, and a batch of 100. */
  npiP99Ms: 5,
  npiBatchP99Ms: 30,
  npiLookupRps: 5000,
  /** The change feed: a roster of 100 NPIs over a month of changes, at 16 connections. */
  changesRosterP99Ms: 25,
  /** The first NPI lookup of a fresh process (empty cache). */
  coldNpiMs: 300,
  /** Radius search (issue 32), warm, at 16 connections: taxonomy + near + 25 miles, limit 50. */
  radiusP99Ms: 25,
  radiusRps: 2000,
  /** 100 miles around the densest ZIPs of New York, Los Angeles and Chicago, offset 0 and deep. */
  radiusDenseP99Ms: 60,
  /** The vertical path's near. */
  radiusVerticalP99Ms: 15,
  /** p99 goals of the identity queries a-d, warm, at 16 connections. */
  identityP99Ms: { a: 25, b: 25, c: 25, d: 60 } satisfies Record<IdentityScenarioId, number>,
} as const;

export interface PeerFigure {
  rps: number;
  p99: number;
}

/** PostgreSQL 15 + HTTP, per row count: req/s and p99 ms of each identity query. */
export const POSTGRES_FIGURES: Readonly<Record<number, Readonly<Record<IdentityScenarioId, PeerFigure>>>> = {
  1000000: {
    a: { rps: 1958, p99: 36.8 },
    b: { rps: 3013, p99: 9.8 },
    c: { rps: 81, p99: 244 },
    d: { rps: 131, p99: 186 },
  },
  3000000: {
    a: { rps: 1672, p99: 64 },
    b: { rps: 2779, p99: 10.4 },
    c: { rps: 91, p99: 336 },
    d: { rps: 109, p99: 257 },
  },
};

export const IDENTITY_SCENARIO_NAMES: Readonly<Record<IdentityScenarioId, string>> = {
  a: 'a taxonomy + state, limit 50',
  b: 'b taxonomy + state + city, limit 50',
  c: 'c taxonomy alone, deep offset, limit 50',
  d: 'd taxonomy alone, limit 1000',
};
