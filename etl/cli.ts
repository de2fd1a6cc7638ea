/**
 * `npm run etl -- <command>`: the data team's entry point (and the ETL image's, compiled to dist/etl/cli.js). See
 * `--help` (cli/help.ts) and docs/data-team.md. The command line is read in cli/args.ts, the summary printed by
 * cli/summary.ts.
 *
 * Output contract: a summary per source on stdout (on stderr with `--json`, where stdout carries exactly one JSON
 * object); a progress line on stderr only when stderr is a terminal; errors as one line on stderr and a non-zero
 * exit code (stack traces only with PF_LOG_LEVEL=debug).
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../platform/config';
import { createJsonLogger, type Logger } from '../platform/logger';
import type { ObjectStore } from '../platform/object-store';
import { type BuildSummary, buildSnapshot, ShrinkRefused } from './build';
import {
  buildOptionsFrom,
  type CliIo,
  inputsFrom,
  memoryBudgetFrom,
  parseCliArgs,
  s3ClientFrom,
  storeFrom,
  UsageError,
  type Values,
} from './cli/args';
import { type EtlCliConfig, loadEtlCliConfig } from './cli/config';
import { CLI_COMMANDS, COMMAND_HELP_TEXT, HELP_TEXT, isHelpTopic } from './cli/help';
import { packageRoot } from './cli/package-root';
import { hasS3Inputs, stageS3Inputs } from './cli/remote-inputs';
import { formatShrinkCheck, formatSummary, progressPrinter } from './cli/summary';
import { EtlInputError } from './errors';
import { rebuildStatic } from './rebuild-static';

export type { CliIo } from './cli/args';

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
    const { values, positionals } = parseCliArgs(argv);
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
    if (command === 'build') return await runBuild({ values, config, io, store, logger });
    if (command === 'rebuild-static') return await runRebuildStatic({ values, io, store, logger });
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

interface CommandRun {
  values: Values;
  io: CliIo;
  store: ObjectStore;
  logger: Logger;
}

/** `build`: stages any s3:// inputs, builds and publishes, and prints the summary. */
async function runBuild({ values, config, io, store, logger }: CommandRun & { config: EtlCliConfig }): Promise<number> {
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
      ...buildOptionsFrom(values, config),
      ...(workDir ? { workDir } : {}),
      ...(memoryBudgetMb ? { duckdb: { memoryBudgetMb } } : {}),
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

/** `rebuild-static`: rewrites the public coverage and sample from the current snapshot. */
async function runRebuildStatic({ values, io, store, logger }: CommandRun): Promise<number> {
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
