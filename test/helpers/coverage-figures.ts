/**
 * Every figure of a coverage.json as the coverage page names it (`data-figure` paths, etl/pages/coverage-page.ts):
 * numbers by path (`verified.total`, `tracked.signals.npi_present`, `verified.by_state.TX`, `identity_layer.total`,
 * `identity_layer.placement.placed`, `verticals_live`), and the texts `generated_at`, `snapshot_id` and the ZIP
 * table's `identity_layer.placement.zip_table.source` and `.as_of`.
 */
import type { CoverageSlice, CoverageStats } from '../../data-contracts/types';

export function coverageFigures(coverage: CoverageStats): Map<string, number | string> {
  const figures = new Map<string, number | string>();
  for (const slice of ['tracked', 'verified'] as const) {
    const s: CoverageSlice = coverage[slice];
    figures.set(`${slice}.total`, s.total);
    figures.set(`${slice}.states`, s.states);
    figures.set(`${slice}.cities`, s.cities);
    for (const [mode, n] of Object.entries(s.business_mode)) figures.set(`${slice}.business_mode.${mode}`, n);
    for (const [signal, n] of Object.entries(s.signals)) figures.set(`${slice}.signals.${signal}`, n);
    for (const { state, count } of s.by_state) figures.set(`${slice}.by_state.${state}`, count);
  }
  if (coverage.identity_layer) {
    const { placement, ...counts } = coverage.identity_layer;
    for (const [k, n] of Object.entries(counts)) figures.set(`identity_layer.${k}`, n);
    if (placement) {
      const { zip_table: table, ...placed } = placement;
      for (const [k, n] of Object.entries(placed)) figures.set(`identity_layer.placement.${k}`, n);
      for (const [k, v] of Object.entries(table)) figures.set(`identity_layer.placement.zip_table.${k}`, v);
    }
  }
  if (coverage.verticals_live !== undefined) figures.set('verticals_live', coverage.verticals_live);
  figures.set('generated_at', coverage.generated_at);
  if (coverage.snapshot_id !== undefined) figures.set('snapshot_id', coverage.snapshot_id);
  return figures;
}

/** A figure as the page shows it: numbers with thousands separators, texts as they are. */
export function shownFigure(value: number | string): string {
  return typeof value === 'number' ? value.toLocaleString('en-US') : value;
}
