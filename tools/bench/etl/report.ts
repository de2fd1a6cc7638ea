/** The ETL benchmark's report: the best of alternated runs and the text lines it prints. */
import type { ChildReport, LoadReport, WriterTime } from './children';

/** The faster of two runs, with the higher peak RSS of both. */
export function bestOf(held: ChildReport | null, next: ChildReport): ChildReport {
  if (!held) return next;
  const best = next.ms < held.ms ? next : held;
  return { ...best, maxRssBytes: Math.max(held.maxRssBytes, next.maxRssBytes) };
}

export const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MB`;
export const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
export const pass = (ok: boolean) => (ok ? 'ok' : 'MISSED');
export const loadText = (l: LoadReport) =>
  `${l.start.toFixed(1)} at start, ${l.max.toFixed(1)} at most, ${l.end.toFixed(1)} at end`;

/** The parquet step's writers: `identity 2.0 s, identity-index 12.1 s, …`. */
function writerText(writers: readonly WriterTime[]): string {
  return writers.map((w) => `${w.writer} ${sec(w.ms)}`).join(', ');
}

/** The per-step table of an ETL run. */
export function stepLines(etl: ChildReport): string[] {
  return (etl.steps ?? []).map((s) => {
    const nppes = s.step === 'sources' && etl.nppesMs !== undefined ? ` (NPPES scan ${sec(etl.nppesMs)})` : '';
    const writers = s.step === 'parquet' && etl.writers?.length ? ` (side by side: ${writerText(etl.writers)})` : '';
    return `  ${s.step.padEnd(10)} ${sec(s.ms).padStart(9)}  peak RSS ${mb(s.peakRssBytes).padStart(7)}${nppes}${writers}`;
  });
}
