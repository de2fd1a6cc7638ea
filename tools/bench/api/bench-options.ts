/** The command line of `npm run bench:api` (../api-bench.ts): every option checked, with its default. */
import { parseArgs } from 'node:util';
import type { ServerRunner } from './bench-server';

const MAX_ROWS = 9_000_000;

/** The bench's settings, parsed from its arguments. */
export interface BenchOptions {
  rows: number;
  providers: number;
  seconds: number;
  warmup: number;
  connections: number;
  draws: number;
  seed: number;
  budgetMb: number | null;
  runner: ServerRunner;
}

/** Parses the bench's arguments (`process.argv.slice(2)`); throws on a bad value, naming the option. */
export function parseBenchOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      seconds: { type: 'string', default: '8' },
      rows: { type: 'string', default: '1000000' },
      providers: { type: 'string', default: '10000' },
      connections: { type: 'string', default: '16' },
      'budget-mb': { type: 'string' },
      draws: { type: 'string', default: '4000' },
      warmup: { type: 'string', default: '2' },
      seed: { type: 'string', default: '1' },
      tsx: { type: 'boolean', default: false },
    },
  });
  const rows = positiveInt(values.rows, '--rows');
  if (rows > MAX_ROWS) throw new Error(`--rows is at most ${MAX_ROWS.toLocaleString('en-US')}, got ${rows}`);
  const providers = positiveInt(values.providers, '--providers');
  const seconds = positiveNumber(values.seconds, '--seconds');
  const warmup = positiveNumber(values.warmup, '--warmup');
  const connections = positiveInt(values.connections, '--connections');
  const draws = positiveInt(values.draws, '--draws');
  const seed = positiveInt(values.seed, '--seed');
  const budgetMb = values['budget-mb'] === undefined ? null : positiveInt(values['budget-mb'], '--budget-mb');
  const runner: ServerRunner = values.tsx ? 'tsx' : 'bundle';
  return { rows, providers, seconds, warmup, connections, draws, seed, budgetMb, runner };
}

function positiveInt(raw: string | undefined, name: string): number {
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return n;
}

function positiveNumber(raw: string | undefined, name: string): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return n;
}
