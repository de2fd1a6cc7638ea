/**
 * The CLI's command line: its options, and what they make (the store, the build's inputs and options), each flag
 * checked with a `UsageError` that names it.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Env } from '../../platform/config';
import { parseMemorySizeMb } from '../../platform/duckdb/batch';
import { FolderObjectStore } from '../../platform/folder-store';
import type { ObjectStore } from '../../platform/object-store';
import { createS3Client, S3ObjectStore } from '../../platform/s3-store';
import type { BuildInputs, BuildOptions } from '../build';
import { LeieAsOfError, resolveLeieAsOfs } from '../transforms/leie-as-of';
import type { EtlCliConfig } from './config';
import { DEMO_SNAPSHOT_TIMES, type DemoSnapshot, demoChangedInputs } from './demo-inputs';
import { isS3Uri } from './remote-inputs';

/** The process around the CLI: its streams, environment and working folder (tests pass their own). */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stderrIsTty: boolean;
  env: Env;
  cwd: string;
}

/** A bad command line: printed with a pointer to `--help`, exit code 2. */
export class UsageError extends Error {}

const OPTIONS = {
  demo: { type: 'boolean' },
  'demo-snapshot': { type: 'string' },
  out: { type: 'string' },
  bucket: { type: 'string' },
  prefix: { type: 'string' },
  nppes: { type: 'string', multiple: true },
  nucc: { type: 'string' },
  leie: { type: 'string', multiple: true },
  'leie-as-of': { type: 'string', multiple: true },
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

type Parsed = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
export type Values = Parsed['values'];

/** The command line's options and positionals; a `UsageError` for an unknown option or a missing value. */
export function parseCliArgs(argv: readonly string[]): Parsed {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function s3ClientFrom(config: EtlCliConfig): S3Client {
  return createS3Client({ region: config.region, endpoint: config.endpoint });
}

export function storeFrom(values: Values, config: EtlCliConfig, cwd: string): ObjectStore {
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

export function memoryBudgetFrom(text: string | undefined): number | undefined {
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

export function inputsFrom(values: Values, io: CliIo): BuildInputs {
  const abs = (p: string) => (isS3Uri(p) ? p : path.resolve(io.cwd, p));
  const demo = demoSnapshotFrom(values);
  const base: BuildInputs = demo
    ? demoChangedInputs(demo)
    : { nppes: [], nucc: '', leie: [], leieAsOf: '', fda: [], feeds: [] };
  const inputs: BuildInputs = {
    nppes: values.nppes?.map(abs) ?? base.nppes,
    nucc: values.nucc ? abs(values.nucc) : base.nucc,
    leie: values.leie?.map(abs) ?? base.leie,
    leieAsOf: leieAsOfsFrom(values, base),
    fda: values.fda?.map(abs) ?? base.fda,
    feeds: values.feed?.map(abs) ?? base.feeds,
    ...(values['reuse-current'] ? { reuseIdentityFrom: 'current' as const } : {}),
  };
  if (!values['reuse-current']) {
    if (inputs.nppes.length === 0) throw new UsageError('build needs --nppes FILE (or --demo)');
    if (inputs.nucc === '') throw new UsageError('build needs --nucc FILE (or --demo)');
  }
  return inputs;
}

/**
 * One as-of per LEIE file: `--leie-as-of` once per file, or once for the first file with the rest from the files'
 * names (transforms/leie-as-of.ts). The demo's release date belongs to the demo's LEIE files only: an operator's
 * `--leie` needs its own.
 */
function leieAsOfsFrom(values: Values, base: BuildInputs): string | string[] {
  const given = values['leie-as-of'] ?? [];
  if (!values.leie && given.length === 0) return base.leieAsOf as string;
  const files = values.leie ?? base.leie;
  if (values.leie && given.length === 0) {
    throw new UsageError(
      '--leie needs --leie-as-of ISO, the release time of the first file (once per file, or once with the rest ' +
        `from the files' names)${values.demo ? " (--demo's date is for its own LEIE files)" : ''}`,
    );
  }
  try {
    return resolveLeieAsOfs(files, given);
  } catch (err) {
    if (err instanceof LeieAsOfError) throw new UsageError(`--leie-as-of: ${err.message}`);
    throw err;
  }
}

/**
 * The build's options from the flags, after its inputs: the snapshot time and the safety limits (a flag, else the
 * environment's default).
 */
export function buildOptionsFrom(values: Values, config: EtlCliConfig): Partial<BuildOptions> {
  const snapshotTime = snapshotTimeFrom(values);
  const maxRejectShare = shareFrom(values['max-reject-share'], '--max-reject-share') ?? config.maxRejectShare;
  const maxShrinkShare = shareFrom(values['max-shrink-share'], '--max-shrink-share') ?? config.maxShrinkShare;
  return {
    ...(snapshotTime === undefined ? {} : { snapshotTime }),
    ...(maxRejectShare === undefined ? {} : { maxRejectShare }),
    ...(maxShrinkShare === undefined ? {} : { maxShrinkShare }),
    ...(values['allow-shrink'] ? { allowShrink: true } : {}),
  };
}
