/**
 * The one error a bad input file raises: it names the file and, when that is the problem, the column. The CLI prints
 * it as one line (`error: <file>: missing required column "NPI"`) and exits non-zero; the pointer is never moved.
 */
import path from 'node:path';

/** A file's name relative to the working directory when inside it (messages, rejects, summaries). */
export function displayPath(file: string): string {
  if (/^[a-z0-9]+:\/\//.test(file)) return file; // a URI such as s3://bucket/key stays as given
  const rel = path.relative(process.cwd(), file);
  return rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
}

export class EtlInputError extends Error {
  override readonly name = 'EtlInputError';

  constructor(
    readonly file: string,
    readonly problem: string,
    readonly column?: string,
  ) {
    super(`${displayPath(file)}: ${problem}`);
  }
}

/** Raised by the `failAfterStep` test hook to simulate a crash between two build steps. */
export class SimulatedFailure extends Error {
  override readonly name = 'SimulatedFailure';

  constructor(readonly step: string) {
    super(`simulated failure after step "${step}"`);
  }
}
/**
 * Runs a scan of `file`, translating DuckDB's CSV errors into an `EtlInputError` naming the file (the first line of
 * DuckDB's message says what is wrong; the rest is its advice for interactive users).
 */
export async function withCsvErrors<T>(file: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof EtlInputError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    if (/CSV|sniff|csv|Invalid Input Error|Conversion Error|Invalid unicode/.test(message)) {
      const first = message.split('\n').find((l) => l.trim() !== '') ?? message;
      throw new EtlInputError(file, `not a readable CSV file: ${first.replace(/^Invalid Input Error: /, '')}`);
    }
    throw err;
  }
}
