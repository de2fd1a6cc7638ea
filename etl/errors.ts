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
