/** The CLI's help: the text of `--help` and of each command's `<command> --help`. */

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
  --leie FILE      OIG LEIE files in order, repeatable: the full UPDATED.csv, then monthly supplements (same 18
                   columns; a row with REINDATE set reinstates the matching exclusion of an earlier file).
  --leie-as-of ISO The release time of each --leie file, e.g. 2026-10-03T00:00:00Z (required with --leie): once
                   per file, or once for the first file with the rest from the names (YYYY-MM-DD, YYYYMMDD, or
                   OIG's YYMMEXCL.csv / YYMMREIN.csv: the first day of the next month). Never decreasing; the
                   last one is the OIG checked_at.
  --fda FILE       FDA warning letters, repeatable: the fda.gov export (Company Name, Letter Issue Date,
                   Issuing Office) or the scraped listing (url, letter_date, company, issuing_office).
  --feed DIR       Curation feed folder with providers.csv and observations.csv, repeatable
                   (format: docs/data-team.md, schema: data-contracts/feed.ts).
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

/** True when `value` names a command with its own help. */
export function isHelpTopic(value: string): value is keyof typeof COMMAND_HELP_TEXT {
  return Object.hasOwn(COMMAND_HELP_TEXT, value);
}
