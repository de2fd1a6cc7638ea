/**
 * After the `sources` step: each source file's top reject reasons, and the reject threshold. A file whose rejected
 * share of rows passes the threshold fails the run (a file that is mostly rejects is the wrong file, or a broken
 * one), naming the file, its counts and its top reasons.
 */
import { queryRows } from '../../platform/duckdb/statements';
import { EtlInputError } from '../errors';
import type { BuildContext, SourceCounts } from './context';

/** The default share of a file's rows that may be rejected (1%). */
export const DEFAULT_MAX_REJECT_SHARE = 0.01;
/** Reasons listed per source in the summary. */
const TOP_REASONS = 3;

/**
 * The kind of a reject reason, for counting: its text before the first `:` or `(` (the value that follows differs
 * from row to row).
 * @example reasonKind('invalid NPI: check digit fails: 1234567890') === 'invalid NPI'
 */
export function reasonKind(reason: string): string {
  const cut = reason.search(/[:(]/);
  return (cut === -1 ? reason : reason.slice(0, cut)).trim();
}

/**
 * Fills each source's `top_reasons` from the run's rejects, then fails on the first file whose rejected share passes
 * `maxShare` (a share of 1 disables the check).
 */
export async function checkRejectShares(ctx: BuildContext, maxShare: number): Promise<void> {
  await ctx.rejects.flush(ctx.connection);
  const rows = await queryRows(ctx.connection, 'SELECT source, file, reason FROM rejects');
  const kinds = new Map<string, Map<string, number>>();
  for (const r of rows) {
    const key = `${String(r.source)}\u0000${String(r.file)}`;
    let byKind = kinds.get(key);
    if (!byKind) {
      byKind = new Map();
      kinds.set(key, byKind);
    }
    const kind = reasonKind(String(r.reason));
    byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
  }
  for (const source of ctx.sources) {
    const byKind = kinds.get(`${source.source}\u0000${source.file}`);
    if (!byKind) continue;
    source.top_reasons = [...byKind.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, TOP_REASONS)
      .map(([reason, count]) => ({ reason, rows: count }));
  }
  for (const source of ctx.sources) {
    if (source.read === 0 || source.rejected / source.read <= maxShare) continue;
    throw new EtlInputError(source.file, rejectShareProblem(source, maxShare));
  }
}

function rejectShareProblem(source: SourceCounts, maxShare: number): string {
  const pct = (x: number) => `${(100 * x).toFixed(x < 0.1 ? 2 : 1).replace(/\.?0+$/, '')}%`;
  const reasons = (source.top_reasons ?? []).map((r) => `${r.reason} (${r.rows})`).join(', ');
  return (
    `${source.rejected} of ${source.read} rows rejected (${pct(source.rejected / source.read)}), more than the ` +
    `${pct(maxShare)} allowed (--max-reject-share): not the expected file, or a broken one` +
    (reasons === '' ? '' : `; top reasons: ${reasons}`)
  );
}
