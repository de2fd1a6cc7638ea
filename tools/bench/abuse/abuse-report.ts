/** The summary and table of bench:abuse: per scenario, the median over rounds of each key's series, and the ratio. */
import type { ScenarioId } from './abuse-scenarios';
import { EXPECTED_STATUS, type Expectation, type SeriesResult } from './abuse-series';

/** One measured series, with where it ran. */
export interface MeasuredSeries extends SeriesResult {
  round: number;
  /** Its place in the round (0: first, 1: second). */
  order: number;
  key: Expectation;
  /** Calls the key's counter took over the series (the fresh key's charge; the exhausted key's should be 0). */
  charged: number;
}

/** One key's series of a scenario, summed up. */
export interface KeySummary {
  /** Medians over the rounds. */
  cpuMsPerCall: number;
  wallMsPerCall: number;
  wallP50Ms: number;
  /** Per round, in round order. */
  cpuMsPerCallByRound: number[];
  statuses: Record<string, number>;
  errors: number;
  /** Counted calls per call, over all rounds. */
  chargedPerCall: number;
}

export interface ScenarioSummary {
  id: ScenarioId;
  name: string;
  fresh: KeySummary;
  exhausted: KeySummary;
  /** exhausted / fresh, of the medians. */
  cpuRatio: number;
  wallRatio: number;
}

/** The median of a non-empty list (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function summarizeKey(series: readonly MeasuredSeries[]): KeySummary {
  const byRound = [...series].sort((a, b) => a.round - b.round);
  const statuses: Record<string, number> = {};
  for (const s of series) for (const [k, n] of Object.entries(s.statuses)) statuses[k] = (statuses[k] ?? 0) + n;
  const calls = series.reduce((sum, s) => sum + s.calls, 0);
  return {
    cpuMsPerCall: median(series.map((s) => s.cpuMsPerCall)),
    wallMsPerCall: median(series.map((s) => s.wallMsPerCall)),
    wallP50Ms: median(series.map((s) => s.wallP50Ms)),
    cpuMsPerCallByRound: byRound.map((s) => s.cpuMsPerCall),
    statuses,
    errors: series.reduce((sum, s) => sum + s.errors, 0),
    chargedPerCall: series.reduce((sum, s) => sum + s.charged, 0) / calls,
  };
}

/** The summary of one scenario's series. */
export function summarizeScenario(id: ScenarioId, name: string, series: readonly MeasuredSeries[]): ScenarioSummary {
  const fresh = summarizeKey(series.filter((s) => s.key === 'ok'));
  const exhausted = summarizeKey(series.filter((s) => s.key === 'exhausted'));
  return {
    id,
    name,
    fresh,
    exhausted,
    cpuRatio: exhausted.cpuMsPerCall / fresh.cpuMsPerCall,
    wallRatio: exhausted.wallMsPerCall / fresh.wallMsPerCall,
  };
}

/** The table, one row per scenario and key. */
export function formatTable(summaries: readonly ScenarioSummary[]): string {
  const header = ['scenario', 'key', 'CPU ms/call', 'by round', 'wall ms/call', 'wall p50', 'charged/call', 'statuses'];
  const rows: string[][] = [];
  for (const s of summaries) {
    for (const [label, k] of [
      ['fresh', s.fresh],
      ['exhausted', s.exhausted],
    ] as const) {
      rows.push([
        label === 'fresh' ? s.name : `  exhausted/fresh: CPU ${fixed(s.cpuRatio, 3)}, wall ${fixed(s.wallRatio, 3)}`,
        label,
        fixed(k.cpuMsPerCall, 2),
        k.cpuMsPerCallByRound.map((v) => fixed(v, 2)).join(' '),
        fixed(k.wallMsPerCall, 2),
        fixed(k.wallP50Ms, 2),
        fixed(k.chargedPerCall, 0),
        Object.entries(k.statuses)
          .map(([status, n]) => `${status} x${n}`)
          .join(', '),
      ]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i < 2 || i === 7 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number)))
      .join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

/** The scenarios whose series answered something else than expected, as lines of the failure message. */
export function failures(summaries: readonly ScenarioSummary[]): string[] {
  const out: string[] = [];
  for (const s of summaries) {
    for (const [key, k] of [
      ['ok', s.fresh],
      ['exhausted', s.exhausted],
    ] as const) {
      if (k.errors > 0) {
        out.push(
          `${s.name}: ${k.errors} answers to the ${key === 'ok' ? 'fresh' : 'exhausted'} key were not ${EXPECTED_STATUS[key]}`,
        );
      }
    }
  }
  return out;
}

function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}
