/**
 * `npm run etl -- <command>`: the data team's entry point. See `--help` (HELP_TEXT below) and
 * README.md ("For the data team").
 *
 * Output contract: a summary per source on stdout (on stderr with `--json`, where stdout carries exactly one JSON
 * object); a progress line on stderr only when stderr is a terminal; errors as one line on stderr and a non-zero
 * exit code (stack traces only with PF_LOG_LEVEL=debug).
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { S3Client } from '@aws-sdk/client-s3';
import { ConfigError, type Env } from '../platform/config';
import { parseMemorySizeMb } from '../platform/duckdb/batch';
import { FolderObjectStore } from '../platform/folder-store';
import { createJsonLogger } from '../platform/logger';
import type { ObjectStore } from '../platform/object-store';
import { createS3Client, S3ObjectStore } from '../platform/s3-store';
import {
  type BuildInputs,
  type BuildProgress,
  type BuildSummary,
  buildSnapshot,
  type ShrinkCheck,
  ShrinkRefused,
} from './build';
import { type EtlCliConfig, loadEtlCliConfig } from './cli-config';
import { DEMO_SNAPSHOT_TIMES, type DemoSnapshot, demoChangedInputs } from './demo-inputs';
import { EtlInputError } from './errors';
import { packageRoot } from './package-root';
import { rebuildStatic } from './rebuild-static';
import { hasS3Inputs, isS3Uri, stageS3Inputs } from './remote-inputs';
import { formatChange, GUARDED_LAYERS } from './steps/shrink-guard';

export const CLI_COMMANDS = ['build', 'rebuild-static', 'help'] as const;

const STORE_HELP = `Store options (build and rebuild-static):
  --out DIR        Local folder store (default: $PF_DATA_DIR, else <$PF_LOCAL_DIR or .local>/data).
  --bucket B       S3 bucket instead of a folder (default: $PF_DATA_BUCKET when set); $AWS_REGION and
                   $PF_S3_ENDPOINT are honoured.
  --prefix P       Key prefix in the bucket: every key goes under P/ (default: $PF_DATA_PREFIX, else none).
  --json           Print exactly one JSON summary object on stdout (snapshot_id, counts per layer, sources).`;

const BUILD_HELP = `Build inputs:
  --demo           Use the committed demo inputs: test/fixtures/source-data (real public samples) and the
                   fictional glp1 feed in tools/demo/glp1. Any input option below replaces its demo counterpart.
  --demo-snapshot NAME  With --demo: which of the demo's snapshots to build, at its fixed snapshot time (unless
                   --snapshot-time is given): a (the committed inputs, 2026-10-15), b (with the changes of
                   test/fixtures/changes/b, 2026-11-15) or c (the tests' third, 2026-12-15). npm start builds a,
                   then b, so that the change feed has a step to show.
  --nppes FILE     NPPES dissemination CSV, V2 layout (330 columns), repeatable, oldest first. Accepts CMS's form
                   (every field quoted, MM/DD/YYYY, LF) and re-saved files (M/D/YY, minimal quoting, CRLF).
  --nucc FILE      NUCC taxonomy CSV (Code, Grouping, Classification, Specialization, Display Name, Section).
  --leie FILE      OIG LEIE UPDATED.csv (NPI, EXCLTYPE, EXCLDATE as YYYYMMDD; 0000000000 = no NPI), repeatable.
  --leie-as-of ISO The LEIE release time, e.g. 2026-10-03T00:00:00Z (required with --leie): the OIG checked_at.
  --fda FILE       FDA warning letters, repeatable: the fda.gov export (Company Name, Letter Issue Date,
                   Issuing Office) or the scraped listing (url, letter_date, company, issuing_office).
  --feed DIR       Curation feed folder with providers.csv and observations.csv, repeatable
                   (format: README.md ("For the data team"), schema: data-contracts/feed.ts).
  --reuse-current  Build on the current snapshot's identity layer, taxonomy map and screening lists instead of
                   NPPES/NUCC (what the feed Lambda does); only --feed (and optionally --leie/--fda) are read.
  --snapshot-time ISO  The snapshot time (default now): coverage generated_at and clear-screen verified_at.
  --work-dir DIR   Where the run's temporary files go (default the OS temp folder).
  --memory-budget SIZE  The peak memory the build is sized for, e.g. 2GB or 3072MB (default 2GB): DuckDB gets
                   half of it and spills to the work folder beyond that.

Safety limits (build):
  --max-reject-share X  The share of a file's rows that may be rejected, 0 to 1 (default 0.01, or
                   $PF_ETL_MAX_REJECT_SHARE): past it the file fails the run.
  --max-shrink-share X  The largest drop of a layer count (identity NPIs, tracked, verified, LEIE matches, FDA
                   letters) against the current snapshot that publishes, 0 to 1 (default 0.1, or
                   $PF_ETL_MAX_SHRINK_SHARE): past it the build refuses to publish and the pointer stays.
  --allow-shrink   Publish even when a layer shrinks past that share (the summary still shows the comparison).

Any input FILE (or feed DIR) may be an s3://bucket/key URI (a feed: s3://bucket/prefix/): it is downloaded into
the work folder first, with $AWS_REGION and $PF_S3_ENDPOINT honoured. The national NPPES task reads its inputs
this way from the data bucket's inputs/ prefix.`;

const EXIT_HELP = `Bad rows (unreadable bytes, a wrong field count, broken quoting, or failing validation, impossible dates included)
go to snapshots/<id>/rejects/rejects.csv (source, file, line, reason, raw), are counted, and the run goes on. A
missing file, a missing required column, a file that is not CSV text, a file past the reject share, or a refused
shrink fails the run: exit code 1, the pointer is not moved.
Exit codes: 0 success, 1 failed run, 2 bad command line or environment variable. PF_LOG_LEVEL=debug prints stack traces and JSON logs.`;

export const HELP_TEXT = `Provider Facts ETL

Usage: npm run etl -- <command> [options]

Commands:
  build            Build a snapshot from source files and publish it (the pointer moves only when every object,
                   then the manifest, is written).
  rebuild-static   Recompute coverage.json, sample.json and sample.csv from the current snapshot and write them to
                   public/ (the hourly job).
  help [command]   Show this text, or one command's options (also --help, <command> --help).

Options for every command:
  -h, --help       Show help.
  -V, --version    Print the version (from package.json).

${STORE_HELP}

${BUILD_HELP}

${EXIT_HELP}
`;

/** One command's help: `help <command>` and `<command> --help`. */
export const COMMAND_HELP_TEXT = {
  build: `Usage: npm run etl -- build [options]

Builds a snapshot from source files and publishes it (the pointer moves only when every object, then the
manifest, is written).

${STORE_HELP}

${BUILD_HELP}

${EXIT_HELP}
`,
  'rebuild-static': `Usage: npm run etl -- rebuild-static [options]

Recomputes coverage.json, sample.json and sample.csv from the current snapshot and writes them to public/ (the
hourly job).

${STORE_HELP}
`,
} as const;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stderrIsTty: boolean;
  env: Env;
  cwd: string;
}

class UsageError extends Error {}

const OPTIONS = {
  demo: { type: 'boolean' },
  'demo-snapshot': { type: 'string' },
  out: { type: 'string' },
  bucket: { type: 'string' },
  prefix: { type: 'string' },
  nppes: { type: 'string', multiple: true },
  nucc: { type: 'string' },
  leie: { type: 'string', multiple: true },
  'leie-as-of': { type: 'string' },
  fda: { type: 'string', multiple: true },
  feed: { type: 'string', multiple: true },
  'reuse-current': { type: 'boolean' },
  'snapshot-time': { type: 'string' },
  'work-dir': { type: 'string' },
  'memory-budget': { type: 'string' },
  'max-reject-share': { type: 'string' },
  'max-shrink-share': { type: 'string' },
  'allow-shrink': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function s3ClientFrom(config: EtlCliConfig): S3Client {
  return createS3Client({ region: config.region, endpoint: config.endpoint });
}

function storeFrom(values: Values, config: EtlCliConfig, cwd: string): ObjectStore {
  const bucket = values.bucket ?? (values.out ? undefined : config.bucket);
  if (bucket) return new S3ObjectStore(s3ClientFrom(config), bucket, values.prefix ?? config.prefix);
  const dir = values.out ?? config.dataDir ?? path.join(config.localDir, 'data');
  return new FolderObjectStore(path.resolve(cwd, dir));
}

function parseTime(text: string, flag: string): Date {
  const t = Date.parse(text);
  if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}T/.test(text))
    throw new UsageError(`${flag} is not an ISO date-time: ${text}`);
  return new Date(t);
}

function memoryBudgetFrom(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const mb = parseMemorySizeMb(text);
  if (mb === null) throw new UsageError(`--memory-budget is not a size like 2GB or 3072MB: ${text}`);
  return mb;
}

function shareFrom(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const share = Number(text);
  if (text.trim() === '' || !Number.isFinite(share) || share < 0 || share > 1) {
    throw new UsageError(`${flag} is not a share between 0 and 1: ${text}`);
  }
  return share;
}

/** The demo snapshot to build: `--demo-snapshot` (only with `--demo`), `a` for `--demo` alone, null without `--demo`. */
function demoSnapshotFrom(values: Values): DemoSnapshot | null {
  const name = values['demo-snapshot'];
  if (name !== undefined && !values.demo) throw new UsageError('--demo-snapshot needs --demo');
  if (!values.demo) return null;
  if (name === undefined) return 'a';
  if (!Object.hasOwn(DEMO_SNAPSHOT_TIMES, name)) {
    throw new UsageError(`--demo-snapshot is one of ${Object.keys(DEMO_SNAPSHOT_TIMES).join(', ')}: ${name}`);
  }
  return name as DemoSnapshot;
}

/** The snapshot time: `--snapshot-time`, else a named demo snapshot's fixed time, else none (now). */
function snapshotTimeFrom(values: Values): Date | undefined {
  if (values['snapshot-time']) return parseTime(values['snapshot-time'], '--snapshot-time');
  const demo = values['demo-snapshot'] === undefined ? null : demoSnapshotFrom(values);
  return demo ? new Date(DEMO_SNAPSHOT_TIMES[demo]) : undefined;
}

function inputsFrom(values: Values, io: CliIo): BuildInputs {
  const abs = (p: string) => (isS3Uri(p) ? p : path.resolve(io.cwd, p));
  const demo = demoSnapshotFrom(values);
  const base: BuildInputs = demo
    ? demoChangedInputs(demo)
    : { nppes: [], nucc: '', leie: [], leieAsOf: '', fda: [], feeds: [] };
  const inputs: BuildInputs = {
    nppes: values.nppes?.map(abs) ?? base.nppes,
    nucc: values.nucc ? abs(values.nucc) : base.nucc,
    leie: values.leie?.map(abs) ?? base.leie,
    // The demo's release date belongs to the demo's LEIE files only: an operator's --leie needs its own.
    leieAsOf: values['leie-as-of'] ?? (values.leie ? '' : base.leieAsOf),
    fda: values.fda?.map(abs) ?? base.fda,
    feeds: values.feed?.map(abs) ?? base.feeds,
    ...(values['reuse-current'] ? { reuseIdentityFrom: 'current' as const } : {}),
  };
  if (!values['reuse-current']) {
    if (inputs.nppes.length === 0) throw new UsageError('build needs --nppes FILE (or --demo)');
    if (inputs.nucc === '') throw new UsageError('build needs --nucc FILE (or --demo)');
  }
  if (inputs.leie.length > 0 && inputs.leieAsOf === '') {
    throw new UsageError(
      `--leie needs --leie-as-of ISO, the release time of that file${values.demo ? " (--demo's date is for its own LEIE files)" : ''}`,
    );
  }
  if (inputs.leieAsOf !== '') parseTime(inputs.leieAsOf, '--leie-as-of');
  return inputs;
}

/** `{ [name]: date }` when the date is set, else nothing. */
function optionalDate<K extends string>(name: K, value: Date | undefined): Partial<Record<K, Date>> {
  return value === undefined ? {} : ({ [name]: value } as Record<K, Date>);
}

/** `{ [name]: value }` when the value is set, else nothing (for optional build options). */
function optional<K extends string>(name: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [name]: value } as Record<K, number>);
}

/** The per-source summary as aligned text. */
export function formatSummary(summary: BuildSummary): string {
  const rows = summary.sources.map((s) => [
    s.source,
    s.file,
    String(s.read),
    String(s.accepted),
    String(s.rejected),
    s.skipped === undefined ? '' : `${s.skipped} deactivated`,
  ]);
  const head = ['source', 'file', 'read', 'accepted', 'rejected', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const c = summary.counts;
  const reasons = summary.sources.flatMap((s) =>
    s.top_reasons?.length
      ? [`  ${s.source} ${s.file}: ${s.top_reasons.map((r) => `${r.reason} (${r.rows})`).join(', ')}`]
      : [],
  );
  return [
    `snapshot ${summary.snapshot_id} published to ${summary.store}`,
    line(head),
    ...rows.map(line),
    ...(reasons.length > 0 ? ['top reject reasons:', ...reasons] : []),
    `identity ${c.identity} NPIs, tracked ${c.tracked}, verified ${c.verified}, taxonomies ${c.taxonomies}, rejects ${c.rejects}` +
      ` (${(summary.duration_ms / 1000).toFixed(1)} s)`,
    ...formatShrinkCheck(summary.shrink),
    '',
  ].join('\n');
}

/** The shrink guard's comparison as text lines (also printed when it refuses). */
export function formatShrinkCheck(check: ShrinkCheck): string[] {
  const head = check.current_snapshot
    ? `against snapshot ${check.current_snapshot} (a drop over ${Math.round(check.max_share * 1000) / 10}% refuses` +
      `${check.allowed ? '; --allow-shrink given' : ''}):`
    : check.unreadable_current
      ? `the current snapshot cannot be read (${check.unreadable_current}): nothing to compare against`
      : 'no current snapshot to compare against';
  const rows = check.current_snapshot
    ? check.layers.map(
        (l) =>
          `  ${GUARDED_LAYERS[l.layer].padEnd(17)}${String(l.current ?? 'n/a').padStart(10)} -> ${String(l.next).padStart(10)}` +
          `  ${l.current === null ? 'not counted before' : formatChange(l.change)}${l.shrinks ? '  SHRINKS' : ''}`,
      )
    : [];
  return [head, ...rows];
}

function progressPrinter(io: CliIo): ((p: BuildProgress) => void) | undefined {
  if (!io.stderrIsTty) return undefined;
  let last = 0;
  return (p) => {
    const now = Date.now();
    if (now - last < 200) return;
    last = now;
    const parts = [p.phase, p.file ?? '', p.rows === undefined ? '' : `${p.rows.toLocaleString('en-US')} rows`];
    if (p.percent !== undefined) parts.push(`${p.percent.toFixed(0)}%`);
    parts.push(`${(p.elapsedMs / 1000).toFixed(1)} s`);
    io.stderr(`\r\x1b[2K${parts.filter(Boolean).join('  ')}`);
  };
}

/** Runs the CLI and returns the exit code (the process entry point below exits with it). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let config: EtlCliConfig;
  try {
    config = loadEtlCliConfig(io.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.stderr(`error: ${err.message}\n`);
    return 2;
  }
  const level = config.logLevel;
  const logger = createJsonLogger({ level, write: (line) => io.stderr(`${line}\n`) });
  try {
    let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
    try {
      parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const { values, positionals } = parsed;
    const command = positionals[0] ?? (values.help ? 'help' : undefined);
    if (values.version) {
      io.stdout(`etl ${readVersion()}\n`);
      return 0;
    }
    const helpTopic = command === 'help' ? positionals[1] : values.help ? command : undefined;
    if (helpTopic !== undefined && helpTopic !== 'help') {
      if (!isHelpTopic(helpTopic)) throw new UsageError(`no help for ${helpTopic}: not a command`);
      io.stdout(COMMAND_HELP_TEXT[helpTopic]);
      return 0;
    }
    if (command === 'help' || values.help || command === undefined) {
      io.stdout(HELP_TEXT);
      return command === undefined && !values.help ? 2 : 0;
    }
    if (positionals.length > 1) throw new UsageError(`unexpected argument: ${positionals[1]}`);
    const store = storeFrom(values, config, io.cwd);
    if (command === 'build') {
      const requested = inputsFrom(values, io);
      const printer = progressPrinter(io);
      const workDir = values['work-dir'] ? path.resolve(io.cwd, values['work-dir']) : undefined;
      const memoryBudgetMb = memoryBudgetFrom(values['memory-budget']);
      const staged = hasS3Inputs(requested)
        ? await stageS3Inputs(requested, { client: s3ClientFrom(config), workDir: workDir ?? tmpdir() })
        : { inputs: requested, cleanup: async () => {} };
      let summary: BuildSummary;
      try {
        summary = await buildSnapshot({
          store,
          inputs: staged.inputs,
          logger,
          ...optionalDate('snapshotTime', snapshotTimeFrom(values)),
          ...(workDir ? { workDir } : {}),
          ...(memoryBudgetMb ? { duckdb: { memoryBudgetMb } } : {}),
          ...optional(
            'maxRejectShare',
            shareFrom(values['max-reject-share'], '--max-reject-share') ?? config.maxRejectShare,
          ),
          ...optional(
            'maxShrinkShare',
            shareFrom(values['max-shrink-share'], '--max-shrink-share') ?? config.maxShrinkShare,
          ),
          ...(values['allow-shrink'] ? { allowShrink: true } : {}),
          ...(printer ? { onProgress: printer } : {}),
        });
      } finally {
        await staged.cleanup();
      }
      if (printer) io.stderr('\r\x1b[2K');
      if (values.json) {
        io.stderr(formatSummary(summary));
        io.stdout(`${JSON.stringify(summary)}\n`);
      } else {
        io.stdout(formatSummary(summary));
      }
      return 0;
    }
    if (command === 'rebuild-static') {
      const summary = await rebuildStatic({ store, logger });
      if (values.json) io.stdout(`${JSON.stringify(summary)}\n`);
      else {
        io.stdout(
          `public coverage and sample rebuilt from snapshot ${summary.snapshot_id} in ${store.location}: ` +
            `tracked ${summary.counts.tracked}, verified ${summary.counts.verified}, sample ${summary.counts.sample}\n`,
        );
      }
      return 0;
    }
    throw new UsageError(`unknown command: ${command} (commands: ${CLI_COMMANDS.join(', ')})`);
  } catch (err) {
    if (io.stderrIsTty) io.stderr('\r\x1b[2K');
    if (err instanceof UsageError) {
      io.stderr(`error: ${err.message}\nRun npm run etl -- --help for usage.\n`);
      return 2;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`error: ${message.split('\n')[0]}\n`);
    if (err instanceof ShrinkRefused) io.stderr(`${formatShrinkCheck(err.check).join('\n')}\n`);
    if (level === 'debug' && err instanceof Error && err.stack) io.stderr(`${err.stack}\n`);
    else if (!(err instanceof EtlInputError || err instanceof ShrinkRefused)) {
      io.stderr('(set PF_LOG_LEVEL=debug for details)\n');
    }
    return 1;
  }
}

function isHelpTopic(value: string): value is keyof typeof COMMAND_HELP_TEXT {
  return Object.hasOwn(COMMAND_HELP_TEXT, value);
}

/** The version in the repository's package.json (above etl/, or above dist/etl/ for the compiled CLI). */
function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2), {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    stderrIsTty: process.stderr.isTTY === true,
    env: process.env,
    cwd: process.cwd(),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`error: ${String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
