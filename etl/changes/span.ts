/**
 * The change feed's kept span (data-contracts/changes.ts `ChangesSpan`): which steps a snapshot keeps, as pure
 * functions of the replaced snapshot's span, the new step and the new snapshot's as-of time.
 */
import {
  CHANGES_RETENTION_MONTHS,
  type ChangesSpan,
  type ChangesStep,
  changesMonthOf,
} from '../../data-contracts/changes';

/**
 * The time `months` calendar months before `iso` (UTC), the day clamped to the month's length.
 * @example monthsBefore('2027-03-31T10:00:00Z', 1) === '2027-02-28T10:00:00Z'
 */
export function monthsBefore(iso: string, months: number): string {
  const t = new Date(iso);
  const total = t.getUTCFullYear() * 12 + t.getUTCMonth() - months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const out = new Date(
    Date.UTC(year, month, Math.min(t.getUTCDate(), lastDay), t.getUTCHours(), t.getUTCMinutes(), t.getUTCSeconds()),
  );
  return `${out.toISOString().slice(0, 19)}Z`;
}

/**
 * The steps of `previous` a snapshot as of `asOf` keeps: from the first step whose `to_as_of` is within
 * {@link CHANGES_RETENTION_MONTHS} calendar months before `asOf` (on or after the cut-off) to the end, so that what
 * is kept is always a chain ending at the previous snapshot. Whole steps are dropped, never part of one.
 * @example keptSteps([{ to_as_of: '2025-01-01T00:00:00Z', ... }, { to_as_of: '2026-11-01T00:00:00Z', ... }], '2026-12-01T00:00:00Z') // the second only
 */
export function keptSteps(previous: readonly ChangesStep[], asOf: string): ChangesStep[] {
  const cutoff = Date.parse(monthsBefore(asOf, CHANGES_RETENTION_MONTHS));
  const first = previous.findIndex((s) => Date.parse(s.to_as_of) >= cutoff);
  return first < 0 ? [] : previous.slice(first);
}

/**
 * The new snapshot's span: the kept steps and its own step (when it has one), or, when the chain starts here, no
 * step and itself as the oldest `since`.
 */
export function nextSpan(
  kept: readonly ChangesStep[],
  step: ChangesStep | null,
  self: { snapshot: string; asOf: string },
): ChangesSpan {
  const steps = step === null ? [] : [...kept, step];
  const first = steps[0];
  return {
    retention_months: CHANGES_RETENTION_MONTHS,
    oldest_snapshot: first ? first.from_snapshot : self.snapshot,
    oldest_as_of: first ? first.from_as_of : self.asOf,
    steps,
  };
}

/** The month partitions of a span: one per month of a step's `to_as_of`, in order (a month may hold no change). */
export function spanMonths(span: ChangesSpan): string[] {
  return [...new Set(span.steps.map((s) => changesMonthOf(s.to_as_of)))].sort();
}
