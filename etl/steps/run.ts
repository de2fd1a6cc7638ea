/** A build run's resources: its work folder and DuckDB, and the context every step takes. */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openEtlDuckDb } from '../../platform/duckdb/batch';
import { createTable } from '../../platform/duckdb/statements';
import { isoSeconds } from '../../platform/iso-time';
import { silentLogger } from '../../platform/logger';
import { REJECTS_TABLE, RejectCollector } from '../csv/rejects';
import type { BuildContext, BuildOptions } from './context';

export interface BuildRun {
  ctx: BuildContext;
  /** Closes DuckDB and removes the work folder. */
  close(): Promise<void>;
}

/**
 * Opens a run: a fresh work folder under `options.workDir`, the run's DuckDB (with the empty `rejects` table) and
 * the context of its steps. Close it in a `finally`.
 */
export async function openBuildRun(
  options: BuildOptions,
  run: { snapshotId: string; snapshotDate: Date; started: number; leieAsOfs: readonly string[] },
): Promise<BuildRun> {
  const { store, inputs } = options;
  const logger = options.logger ?? silentLogger;
  const parent = options.workDir ?? tmpdir();
  await mkdir(parent, { recursive: true });
  const work = await mkdtemp(path.join(parent, 'pf-etl-'));
  const db = await openEtlDuckDb({ workDir: work, ...options.duckdb });
  const close = async () => {
    db.close();
    await rm(work, { recursive: true, force: true });
  };
  logger.info('etl build started', {
    snapshot_id: run.snapshotId,
    store: store.location,
    reuse: inputs.reuseIdentityFrom === 'current',
    duckdb_memory_limit_mb: db.memoryLimitMb,
  });
  const ctx: BuildContext = {
    store,
    inputs,
    logger,
    connection: db.connection,
    connect: () => db.instance.connect(),
    duckDbMemory: { limitMb: db.memoryLimitMb, writersLimitMb: db.writersMemoryLimitMb },
    snapshotId: run.snapshotId,
    snapshotTime: isoSeconds(run.snapshotDate),
    leieAsOfs: run.leieAsOfs,
    work,
    rejects: new RejectCollector(),
    sources: [],
    progress: (phase, extra = {}) => options.onProgress?.({ phase, ...extra, elapsedMs: Date.now() - run.started }),
  };
  try {
    await createTable(db.connection, 'rejects', REJECTS_TABLE);
  } catch (err) {
    await close();
    throw err;
  }
  return { ctx, close };
}
