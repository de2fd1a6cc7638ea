/** What the CLI prints: the build's summary per source, the shrink guard's comparison and the progress line. */
import type { BuildProgress, BuildSummary, ShrinkCheck } from '../build';
import { formatChange, GUARDED_LAYERS } from '../steps/shrink-guard';
import type { CliIo } from './args';

/** The per-source summary as aligned text. */
export function formatSummary(summary: BuildSummary): string {
  const rows = summary.sources.map((s) => [
    s.source,
    s.file,
    String(s.read),
    String(s.accepted),
    String(s.rejected),
    s.skipped !== undefined
      ? `${s.skipped} deactivated`
      : s.reinstatements
        ? `${s.reinstatements} reinstatements (${s.reinstatements_unmatched ?? 0} unmatched)`
        : '',
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
    ...(summary.oig_candidates
      ? [
          `oig possible matches: ${summary.oig_candidates.candidates} candidates (${summary.oig_candidates.strong} strong)` +
            ` on ${summary.oig_candidates.npis} NPIs, from ${summary.oig_candidates.leie_rows} LEIE rows without a known NPI`,
        ]
      : []),
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

/** Rewrites one progress line on stderr, at most five times a second; none when stderr is not a terminal. */
export function progressPrinter(io: Pick<CliIo, 'stderr' | 'stderrIsTty'>): ((p: BuildProgress) => void) | undefined {
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
