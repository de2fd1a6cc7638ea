/** The command line of `npm run bench:abuse` (../abuse-bench.ts): every option checked, with its default. */
import path from 'node:path';
import { parseArgs } from 'node:util';

/** The bench's settings, parsed from its arguments. */
export interface AbuseOptions {
  /** Calls per series (one key, one scenario, one round). */
  calls: number;
  /** Rounds; each runs every scenario's fresh and exhausted series, in alternating order. */
  rounds: number;
  /** Calls per scenario from an unmetered key before the first round (after the priming calls). */
  warmup: number;
  seed: number;
  /** The checkout whose local server is measured (absolute). */
  serverRoot: string;
}

/** Parses the bench's arguments (`process.argv.slice(2)`); throws on a bad value, naming the option. */
export function parseAbuseOptions(argv: string[], repoRoot: string): AbuseOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      calls: { type: 'string', default: '200' },
      rounds: { type: 'string', default: '4' },
      warmup: { type: 'string', default: '50' },
      seed: { type: 'string', default: '1' },
      'server-root': { type: 'string' },
    },
  });
  return {
    calls: positiveInt(values.calls, '--calls'),
    rounds: positiveInt(values.rounds, '--rounds'),
    warmup: nonNegativeInt(values.warmup, '--warmup'),
    seed: positiveInt(values.seed, '--seed'),
    serverRoot: path.resolve(values['server-root'] ?? repoRoot),
  };
}

function positiveInt(raw: string | undefined, name: string): number {
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return n;
}

function nonNegativeInt(raw: string | undefined, name: string): number {
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${raw}`);
  return n;
}
