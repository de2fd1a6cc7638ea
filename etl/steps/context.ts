/**
 * The types every build step shares: the build's options and inputs, its summary, and the run context a step takes.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ChangesSpan, ChangesStep } from '../../data-contracts/changes';
import type { ManifestObject, SnapshotCounts } from '../../data-contracts/layout';
import type { Logger } from '../../platform/logger';
import type { ObjectStore } from '../../platform/object-store';
import type { RejectCollector } from '../csv/rejects';
import type { OigCandidateCounts } from '../sources/oig-candidates';
import type { ShrinkCheck } from './shrink-guard';

export const BUILD_STEPS = [
  'sources',
  'identity',
  'vertical',
  'parquet',
  'changes',
  'static',
  'upload',
  'manifest',
  'pointer',
  'public',
] as const;
export type BuildStep = (typeof BUILD_STEPS)[number];

/** The source files of a build. Paths are local files (or folders for feeds). */
export interface BuildInputs {
  /** NPPES dissemination CSVs, oldest first (for an NPI in several files, the last file wins). */
  nppes: string[];
  /** NUCC taxonomy CSV. */
  nucc: string;
  /**
   * OIG LEIE files in order: the full `UPDATED.csv` (or slices of it), then monthly supplements, whose
   * reinstatements remove the exclusions of earlier files.
   */
  leie: string[];
  /**
   * The LEIE files' release times (ISO date-times), one per file, non-decreasing; one string is every file's (slices
   * of one list). The last one is `checked_at` of every OIG match. The CLI and the feed Lambda resolve the
   * operator's as-ofs (one per file, or one for the first file and the rest from the names:
   * transforms/leie-as-of.ts) into this list.
   */
  leieAsOf: string | readonly string[];
  /** FDA warning-letter lists, in either form. */
  fda: string[];
  /** Curation feed folders, each with providers.csv and observations.csv. */
  feeds: string[];
  /**
   * `'current'`: build on the current snapshot instead of NPPES and NUCC (the feed Lambda). Its identity partitions
   * and taxonomy map are copied byte for byte into the new snapshot (a snapshot stays self-contained, so deleting an
   * old one never breaks a newer one), and its screening lists (OIG matches, FDA letters) are reused unless `leie`
   * or `fda` files are given. `nppes` and `nucc` are ignored.
   */
  reuseIdentityFrom?: 'current';
}

export interface BuildProgress {
  phase: string;
  file?: string;
  /** 0–100 when known. */
  percent?: number;
  rows?: number;
  elapsedMs: number;
}

export interface BuildOptions {
  store: ObjectStore;
  inputs: BuildInputs;
  /** The snapshot time (default now, to the second): coverage `generated_at`, clear-screen `verified_at`. */
  snapshotTime?: Date;
  /** Parent of the run's temporary folder (default the OS temp folder). The run's folder is removed at the end. */
  workDir?: string;
  logger?: Logger;
  onProgress?: (progress: BuildProgress) => void;
  /** Test hook: throw right after this step completes, to simulate a crash midway. */
  failAfterStep?: BuildStep;
  /**
   * DuckDB threads (default: the cores, at most 4) and the run's memory budget in MiB (default 2048): DuckDB's
   * memory limit is derived from the budget and DuckDB spills to the work folder beyond it
   * (platform/duckdb/batch.ts).
   */
  duckdb?: { threads?: number; memoryBudgetMb?: number };
  /**
   * The share of a source file's rows that may be rejected (0-1, default 0.01): past it the file fails the run
   * (etl/steps/check-rejects.ts).
   */
  maxRejectShare?: number;
  /**
   * The largest drop of a layer count against the current snapshot that publishes (0-1, default 0.1); past it the
   * build refuses to publish unless `allowShrink` (etl/steps/shrink-guard.ts).
   */
  maxShrinkShare?: number;
  allowShrink?: boolean;
}

export const SOURCE_KINDS = ['nppes', 'nucc', 'leie', 'fda', 'feed_providers', 'feed_observations'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** Read / accepted / rejected counts of one source file. `skipped`: NPPES deactivated rows. */
export interface SourceCounts {
  source: SourceKind;
  file: string;
  read: number;
  accepted: number;
  rejected: number;
  skipped?: number;
  /** LEIE: accepted reinstatement rows, and those that matched no exclusion of an earlier file. */
  reinstatements?: number;
  reinstatements_unmatched?: number;
  /** The most frequent kinds of reject reason, with their row counts (set once the sources are read). */
  top_reasons?: { reason: string; rows: number }[];
}

export interface BuildSummary {
  snapshot_id: string;
  created_at: string;
  store: string;
  manifest_key: string;
  sources: SourceCounts[];
  counts: SnapshotCounts;
  /** The new layer counts against the replaced snapshot's (the shrink guard). */
  shrink: ShrinkCheck;
  reused_from?: string;
  /** The OIG possible matches computed by this build (absent when it reuses the identity layers). */
  oig_candidates?: OigCandidateCounts;
  /** The change feed: this build's step (null when the chain starts here) and the steps kept (the manifest's span). */
  changes: { step: ChangesStep | null; span: ChangesSpan };
  duration_ms: number;
}

/** A local file to upload into the snapshot, with its manifest entry's fields. */
export interface PendingUpload {
  key: string;
  file: string;
  contentType: string;
  meta: Omit<ManifestObject, 'key' | 'bytes' | 'sha256'>;
}

/** What every step of one run shares. */
export interface BuildContext {
  store: ObjectStore;
  inputs: BuildInputs;
  logger: Logger;
  connection: DuckDBConnection;
  /**
   * Another connection to the run's DuckDB, for writers that run side by side (each query of a connection runs
   * after the previous one); the caller closes it.
   */
  connect(): Promise<DuckDBConnection>;
  /** DuckDB's `memory_limit` (MiB), and the lower one while the parquet step's writers run side by side. */
  duckDbMemory: { limitMb: number; writersLimitMb: number };
  snapshotId: string;
  /** The snapshot time, ISO to the second. */
  snapshotTime: string;
  /** One release time per LEIE file, in file order (ISO to the second; checked by checkInputs). */
  leieAsOfs: readonly string[];
  /** The run's work folder (removed at the end). */
  work: string;
  /** Rejected rows of every source, flushed to the `rejects` table by the parquet step. */
  rejects: RejectCollector;
  /** Counts per source file, in the order they were read (the manifest's `sources`). */
  sources: SourceCounts[];
  progress(phase: string, extra?: Omit<BuildProgress, 'phase' | 'elapsedMs'>): void;
}
