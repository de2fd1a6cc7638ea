/**
 * Measures the OIG candidate matcher: `npm run oig:eval [-- --json] [--no-samples]`.
 *
 * 1. Writes the labelled set (./labelled-set.ts) and builds a snapshot from it with the real ETL (`buildSnapshot`,
 *    the demo's NUCC and LEIE files `leie.csv` + `leie_head.csv`) into a temporary folder store, then reads every
 *    NPI record's `oig_candidates` from the NPI lookup buckets (the platform's bucket reader, as the API reads them).
 *    A (record, candidate) pair is true when the record is a positive and the candidate's LEIE row is the one it was
 *    built from (the candidate's `leie.npi`: the labelled NPPES file has none of the LEIE NPIs, so every candidate
 *    names its row's NPI). Precision = true pairs / pairs; recall = positives with a true pair / positives; for
 *    `strong` pairs and for all of them, with recall per variant and candidates per negative variant.
 * 2. Unless `--no-samples`: candidates per 1,000 active NPPES records on the real samples (`nppes_sample.csv`,
 *    `nppes_sample_alt_pandas_mangled.csv`, each built alone) against the same LEIE files.
 * Figures go to docs/performance.md with the command and date; the goals are asserted by
 * test/integration/tools/oig-eval.test.ts.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { SnapshotManifest, SnapshotPointer } from '../../data-contracts/layout';
import { buildSnapshot } from '../../etl/build';
import { demoBuildInputs } from '../../etl/cli/demo-inputs';
import { BufferSource } from '../../platform/binary/byte-source';
import { FolderObjectStore } from '../../platform/folder-store';
import { silentLogger } from '../../platform/logger';
import { storedNpiBucket } from '../../platform/npi-index/format';
import { NpiIndexReader } from '../../platform/npi-index/reader';
import { type LabelledRecord, writeLabelledSet } from './labelled-set';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const SNAPSHOT_TIME = new Date('2026-10-15T00:00:00Z');
export const OIG_GOALS = { strongPrecision: 0.95, strongRecall: 0.9, allRecall: 0.98 } as const;

/** The members of a wire `OigCandidate` this tool reads. */
export interface CandidateSeen {
  strength: 'strong' | 'weak';
  leie: { npi: string | null; last_name: string | null; business_name: string | null };
}

/** An NPI record as the buckets hold it: its status and its candidates (a head may leave out an empty list). */
export interface RecordSeen {
  status: string;
  candidates: CandidateSeen[];
}

/** What a build of the evaluation saw: every NPI record's candidates, and the NPPES rows the ETL rejected. */
export interface BuildSeen {
  records: Map<string, RecordSeen>;
  rejected: number;
}

/** Builds a snapshot from `nppes` with the demo's NUCC and LEIE files and returns every NPI record's candidates. */
export async function buildAndReadCandidates(nppes: string[], workDir: string): Promise<BuildSeen> {
  const dataDir = path.join(workDir, `store-${path.basename(nppes[0] ?? 'nppes', '.csv')}`);
  const summary = await buildSnapshot({
    store: new FolderObjectStore(dataDir),
    inputs: { ...demoBuildInputs(REPO_ROOT), nppes, fda: [], feeds: [] },
    snapshotTime: SNAPSHOT_TIME,
    workDir,
    logger: silentLogger,
    duckdb: { threads: 2 },
    // The pandas-mangled sample's float ZIPs overrun the postal-code bound: its rows are set aside, as in any build.
    maxRejectShare: 1,
  });
  const pointer = JSON.parse(await readFile(path.join(dataDir, 'current.json'), 'utf8')) as SnapshotPointer;
  const manifest = JSON.parse(
    await readFile(path.join(dataDir, 'snapshots', pointer.snapshot_id, 'manifest.json'), 'utf8'),
  ) as SnapshotManifest;
  const seen = new Map<string, RecordSeen>();
  for (const object of manifest.objects.filter((o) => o.kind === 'npi')) {
    const bytes = storedNpiBucket(object.key, await readFile(path.join(dataDir, object.key)));
    const reader = NpiIndexReader.open(new BufferSource(bytes));
    for (let i = 0; i < reader.count; i += 1) {
      const record = JSON.parse(reader.recordBytes(i).toString('utf8')) as {
        npi: string;
        status: string;
        oig_candidates?: CandidateSeen[];
      };
      seen.set(record.npi, { status: record.status, candidates: record.oig_candidates ?? [] });
    }
  }
  const rejected = summary.sources.filter((x) => x.source === 'nppes').reduce((n, x) => n + x.rejected, 0);
  return { records: seen, rejected };
}

export interface Score {
  pairs: number;
  true_pairs: number;
  precision: number;
  recall: number;
}

export interface LabelledScores {
  records: number;
  positives: number;
  negatives: number;
  strong: Score;
  all: Score;
  /** Per positive variant (`individual/exact`...): positives, found strong, found at all. */
  positives_by_variant: Record<string, { records: number; strong: number; any: number }>;
  /** Per negative variant: records, records with a candidate, with a strong candidate. */
  negatives_by_variant: Record<string, { records: number; any: number; strong: number }>;
}

const ratio = (a: number, b: number): number => (b === 0 ? 1 : Math.round((a / b) * 10_000) / 10_000);

/** Scores the candidates seen against the labels. */
export function scoreLabelledSet(records: readonly LabelledRecord[], seen: ReadonlyMap<string, RecordSeen>) {
  const tally = { strong: { pairs: 0, truePairs: 0, found: 0 }, all: { pairs: 0, truePairs: 0, found: 0 } };
  const positivesBy: LabelledScores['positives_by_variant'] = {};
  const negativesBy: LabelledScores['negatives_by_variant'] = {};
  for (const r of records) {
    const candidates = seen.get(r.npi)?.candidates ?? [];
    const strong = candidates.filter((c) => c.strength === 'strong');
    const isTrue = (c: CandidateSeen) => r.label !== null && c.leie.npi === r.label;
    tally.all.pairs += candidates.length;
    tally.all.truePairs += candidates.filter(isTrue).length;
    tally.strong.pairs += strong.length;
    tally.strong.truePairs += strong.filter(isTrue).length;
    const key = `${r.draft.entity}/${r.variant}`;
    if (r.kind === 'positive') {
      const foundStrong = strong.some(isTrue);
      const foundAny = candidates.some(isTrue);
      if (foundStrong) tally.strong.found += 1;
      if (foundAny) tally.all.found += 1;
      const v = positivesBy[key] ?? { records: 0, strong: 0, any: 0 };
      positivesBy[key] = { records: v.records + 1, strong: v.strong + +foundStrong, any: v.any + +foundAny };
    } else {
      const v = negativesBy[key] ?? { records: 0, any: 0, strong: 0 };
      negativesBy[key] = {
        records: v.records + 1,
        any: v.any + +(candidates.length > 0),
        strong: v.strong + +(strong.length > 0),
      };
    }
  }
  const positives = records.filter((r) => r.kind === 'positive').length;
  const score = (t: typeof tally.all): Score => ({
    pairs: t.pairs,
    true_pairs: t.truePairs,
    precision: ratio(t.truePairs, t.pairs),
    recall: ratio(t.found, positives),
  });
  const scores: LabelledScores = {
    records: records.length,
    positives,
    negatives: records.length - positives,
    strong: score(tally.strong),
    all: score(tally.all),
    positives_by_variant: positivesBy,
    negatives_by_variant: negativesBy,
  };
  return scores;
}

export interface SampleRate {
  file: string;
  /** Rows the ETL set aside (the pandas-mangled sample's float ZIPs overrun the postal-code bound): never screened. */
  rejected: number;
  active: number;
  with_candidates: number;
  candidates: number;
  strong: number;
  candidates_per_1000: number;
  strong_per_1000: number;
}

/** Candidates per 1,000 active records of one NPPES file. */
export function sampleRate(file: string, build: BuildSeen): SampleRate {
  const active = [...build.records.values()].filter((r) => r.status === 'active');
  const candidates = active.reduce((n, r) => n + r.candidates.length, 0);
  const strong = active.reduce((n, r) => n + r.candidates.filter((c) => c.strength === 'strong').length, 0);
  const per1000 = (n: number) => Math.round((n / Math.max(1, active.length)) * 1_000_000) / 1000;
  return {
    file,
    rejected: build.rejected,
    active: active.length,
    with_candidates: active.filter((r) => r.candidates.length > 0).length,
    candidates,
    strong,
    candidates_per_1000: per1000(candidates),
    strong_per_1000: per1000(strong),
  };
}

export interface OigEvaluation {
  labelled: LabelledScores;
  samples: SampleRate[];
}

/** Runs the whole evaluation in a temporary folder (removed at the end). */
export async function evaluateOig(options: { samples?: boolean } = {}): Promise<OigEvaluation> {
  const work = await mkdtemp(path.join(tmpdir(), 'pf-oig-eval-'));
  try {
    const { nppes, set } = writeLabelledSet(path.join(work, 'labelled'));
    const labelled = scoreLabelledSet(set.records, (await buildAndReadCandidates([nppes], work)).records);
    const samples: SampleRate[] = [];
    if (options.samples !== false) {
      for (const name of ['nppes_sample.csv', 'nppes_sample_alt_pandas_mangled.csv']) {
        const file = path.join(REPO_ROOT, 'test', 'fixtures', 'source-data', name);
        samples.push(sampleRate(name, await buildAndReadCandidates([file], work)));
      }
    }
    return { labelled, samples };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The report as text lines. */
export function reportLines(e: OigEvaluation): string[] {
  const l = e.labelled;
  const goal = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  return [
    `labelled set: ${l.records} NPPES records, ${l.positives} positives, ${l.negatives} negatives`,
    `strong  precision ${pct(l.strong.precision)} (goal >= ${pct(OIG_GOALS.strongPrecision)}) ${goal(l.strong.precision >= OIG_GOALS.strongPrecision)}, ` +
      `recall ${pct(l.strong.recall)} (goal >= ${pct(OIG_GOALS.strongRecall)}) ${goal(l.strong.recall >= OIG_GOALS.strongRecall)}; ${l.strong.true_pairs} of ${l.strong.pairs} pairs true`,
    `all     precision ${pct(l.all.precision)}, recall ${pct(l.all.recall)} (goal >= ${pct(OIG_GOALS.allRecall)}) ` +
      `${goal(l.all.recall >= OIG_GOALS.allRecall)}; ${l.all.true_pairs} of ${l.all.pairs} pairs true`,
    'positives by variant (found strong / found at all / records):',
    ...Object.entries(l.positives_by_variant).map(
      ([k, v]) => `  ${k.padEnd(36)} ${v.strong} / ${v.any} / ${v.records}`,
    ),
    'negatives by variant (with a strong candidate / with any / records):',
    ...Object.entries(l.negatives_by_variant).map(
      ([k, v]) => `  ${k.padEnd(36)} ${v.strong} / ${v.any} / ${v.records}`,
    ),
    ...e.samples.map(
      (s) =>
        `${s.file}: ${s.candidates_per_1000} candidates per 1,000 active records (${s.strong_per_1000} strong); ` +
        `${s.candidates} candidates on ${s.with_candidates} of ${s.active} active records (${s.rejected} rows rejected)`,
    ),
  ];
}

if (require.main === module) {
  const { values } = parseArgs({
    options: { json: { type: 'boolean', default: false }, 'no-samples': { type: 'boolean', default: false } },
  });
  evaluateOig({ samples: !values['no-samples'] })
    .then((e) => process.stdout.write(`${values.json ? JSON.stringify(e, null, 2) : reportLines(e).join('\n')}\n`))
    .catch((err: unknown) => {
      process.stderr.write(`oig:eval failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    });
}
