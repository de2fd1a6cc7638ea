/**
 * The PostgreSQL peer's figures measured on this machine by `npm run bench:pg` (../pg-bench.ts), kept per row
 * count in `.bench/pg/rows-<N>/latest.json`; bench:api's report shows them beside its own, and judges against them
 * when they exist (the figures filed in goals.ts were measured on another day's machine).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { IdentityScenarioId } from './identity-workload';

export interface PeerResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
}

export interface PeerResults {
  at: string;
  rows: number;
  snapshot_id: string;
  node: string;
  connections: number;
  seconds: number;
  warmup_seconds: number;
  seed: number;
  /** Seconds spent loading the cluster, or null when it already held the snapshot. */
  load_seconds: number | null;
  checks: number;
  results: Partial<Record<IdentityScenarioId, PeerResult>>;
}

export function peerResultsFile(repoRoot: string, rows: number): string {
  return path.join(repoRoot, '.bench', 'pg', `rows-${rows}`, 'latest.json');
}

/** The latest peer figures of `rows` for the snapshot `snapshotId`, or null when there are none for it. */
export async function readPeerResults(repoRoot: string, rows: number, snapshotId: string): Promise<PeerResults | null> {
  const text = await readFile(peerResultsFile(repoRoot, rows), 'utf8').catch(() => null);
  if (text === null) return null;
  const results = JSON.parse(text) as PeerResults;
  return results.snapshot_id === snapshotId ? results : null;
}
