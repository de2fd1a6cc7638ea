/**
 * The `sources` step: the base layers' sources (NUCC and NPPES, or the current snapshot's objects to reuse), the
 * screening lists (LEIE to OIG matches, FDA letters; or the reused lists), and the curation feeds. Each source file
 * is read once, here; the later steps work on the tables it leaves in the run's DuckDB.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ScreenName } from '../../data-contracts/layout';
import { appendRows, createTable, queryRows } from '../../platform/duckdb/statements';
import { sqlPath } from '../../platform/sql';
import { displayPath } from '../csv/read';
import { type FdaLetter, readFdaFile } from '../sources/fda';
import { type FeedReadResult, readFeeds } from '../sources/feed';
import { buildOigMatch, createLeieStage, stageLeieFile } from '../sources/leie';
import { applyLeieReinstatements, buildOigReinstated } from '../sources/leie-reinstatements';
import { stageNppesFile } from '../sources/nppes';
import { createNppesStage } from '../sources/nppes-staged';
import { loadTaxonomyTable, readNucc } from '../sources/nucc';
import { buildOigCandidates, type OigCandidateCounts } from '../sources/oig-candidates';
import type { BuildContext } from './context';
import type { ReusedLayers } from './reuse-layers';

export interface SourcesRead {
  letters: FdaLetter[];
  feed: FeedReadResult;
  /** The screening lists built from input files in this run (the others are reused as they are). */
  screensBuilt: ScreenName[];
  /** The OIG possible matches (`oig_candidate`), computed on a full build only (they need the staged NPPES rows). */
  oigCandidates: OigCandidateCounts | null;
}

const FDA_LETTERS_TABLE = {
  normalised: 'VARCHAR',
  company: 'VARCHAR',
  letter_date: 'VARCHAR',
  issuing_office: 'VARCHAR',
  url: 'VARCHAR',
} as const;

/**
 * Reads every source of the run, in order: NUCC (or the reused objects), LEIE, NPPES (unless reusing), FDA, feeds.
 * `reused` is the current snapshot's layers when the build reuses them, else null.
 */
export async function readSources(ctx: BuildContext, reused: ReusedLayers | null): Promise<SourcesRead> {
  if (reused) await reused.download(ctx);
  else await loadTaxonomy(ctx);
  const screensBuilt: ScreenName[] = [];
  if (await loadOigMatches(ctx, reused)) screensBuilt.push('oig-leie');
  let oigCandidates: OigCandidateCounts | null = null;
  if (!reused) {
    await stageNppes(ctx);
    oigCandidates = await matchOigCandidates(ctx);
  }
  const letters = await loadFdaLetters(ctx, reused);
  if (letters.built) screensBuilt.push('fda-letters');
  ctx.progress('feed');
  const feed = await readFeeds(ctx.inputs.feeds, ctx.rejects, { snapshotTime: ctx.snapshotTime });
  for (const c of feed.counts.providers)
    ctx.sources.push({ source: 'feed_providers', ...c, file: displayPath(c.file) });
  for (const c of feed.counts.observations)
    ctx.sources.push({ source: 'feed_observations', ...c, file: displayPath(c.file) });
  return { letters: letters.letters, feed, screensBuilt, oigCandidates };
}

/** The `taxonomy` table, from the NUCC file. */
async function loadTaxonomy(ctx: BuildContext): Promise<void> {
  const { nucc: file } = ctx.inputs;
  ctx.progress('nucc', { file });
  const nucc = await readNucc(file, ctx.rejects);
  await loadTaxonomyTable(ctx.connection, nucc.entries);
  ctx.sources.push({
    source: 'nucc',
    file: displayPath(file),
    read: nucc.read,
    accepted: nucc.entries.length,
    rejected: nucc.rejected,
  });
}

/** The `nppes_stage` table: every record of the NPPES files, in order, with its validation outcome. */
async function stageNppes(ctx: BuildContext): Promise<void> {
  await createNppesStage(ctx.connection);
  for (const [i, file] of ctx.inputs.nppes.entries()) {
    const name = displayPath(file);
    ctx.progress('nppes', { file: name });
    const c = await stageNppesFile(ctx.connection, file, i, name, ctx.work, (percent, rows) =>
      ctx.progress('nppes', { file: name, percent, rows }),
    );
    ctx.sources.push({ source: 'nppes', ...c });
    ctx.logger.info('nppes file staged', { ...c });
  }
}

/**
 * The `oig_candidate` table (sources/oig-candidates.ts), after NPPES and LEIE are staged. A build that reuses the
 * identity layers stages no NPPES and keeps the reused NPI records and identity rows, candidates included.
 */
async function matchOigCandidates(ctx: BuildContext): Promise<OigCandidateCounts> {
  ctx.progress('oig candidates');
  const started = performance.now();
  const counts = await buildOigCandidates(ctx.connection, (phase, fields) =>
    ctx.logger.debug('oig candidates phase', { phase, ...fields }),
  );
  ctx.logger.info('oig candidates matched', { ...counts, elapsed_ms: Math.round(performance.now() - started) });
  return counts;
}

/**
 * The `oig_match` and `oig_reinstated` tables, from the LEIE files (reinstatements applied) or the reused list.
 * True when built from files.
 */
async function loadOigMatches(ctx: BuildContext, reused: ReusedLayers | null): Promise<boolean> {
  const { connection, inputs } = ctx;
  await createLeieStage(connection);
  const list = inputs.leie.length > 0 || !reused ? null : reused.screen('oig-leie');
  if (list !== null) {
    await connection.run(`CREATE OR REPLACE TABLE oig_match AS SELECT * FROM read_parquet(${sqlPath(list)})`);
    await buildOigReinstated(connection, false);
    return false;
  }
  for (const [i, file] of inputs.leie.entries()) {
    ctx.progress('leie', { file });
    const c = await stageLeieFile(connection, file, i, displayPath(file), {
      workDir: ctx.work,
      snapshotDate: ctx.snapshotTime.slice(0, 10),
    });
    ctx.sources.push({
      source: 'leie',
      file: c.file,
      read: c.read,
      accepted: c.accepted,
      rejected: c.rejected,
      reinstatements: c.reinstatements,
      reinstatements_unmatched: c.reinstatements_unmatched,
    });
  }
  const removed = await applyLeieReinstatements(connection);
  await buildOigMatch(connection, ctx.leieAsOfs.at(-1) ?? null);
  const reinstated = await buildOigReinstated(connection, true);
  ctx.logger.info('leie reinstatements applied', { exclusions_removed: removed, npis_reinstated: reinstated });
  return true;
}

/** The `fda_letters` table and its rows, from the FDA files or the reused list. */
async function loadFdaLetters(
  ctx: BuildContext,
  reused: ReusedLayers | null,
): Promise<{ letters: FdaLetter[]; built: boolean }> {
  const { connection, inputs } = ctx;
  const list = inputs.fda.length > 0 || !reused ? null : reused.screen('fda-letters');
  if (list !== null) {
    await connection.run(`CREATE OR REPLACE TABLE fda_letters AS SELECT * FROM read_parquet(${sqlPath(list)})`);
    return { letters: await readFdaTable(connection), built: false };
  }
  const letters: FdaLetter[] = [];
  for (const file of inputs.fda) {
    ctx.progress('fda', { file });
    const r = await readFdaFile(file, ctx.rejects, ctx.snapshotTime.slice(0, 10));
    letters.push(...r.letters);
    ctx.sources.push({
      source: 'fda',
      file: displayPath(file),
      read: r.read,
      accepted: r.letters.length,
      rejected: r.rejected,
    });
  }
  await createTable(connection, 'fda_letters', FDA_LETTERS_TABLE);
  await appendRows(connection, 'fda_letters', FDA_LETTERS_TABLE, letters);
  return { letters, built: true };
}

async function readFdaTable(connection: DuckDBConnection): Promise<FdaLetter[]> {
  const rows = await queryRows(connection, 'SELECT * FROM fda_letters');
  return rows.map((r) => ({
    normalised: String(r.normalised),
    company: String(r.company),
    letter_date: String(r.letter_date),
    issuing_office: r.issuing_office === null ? null : String(r.issuing_office),
    url: r.url === null ? null : String(r.url),
  }));
}
