/** Timestamps as the contract writes them: UTC to the second, with a `Z`. */

/** A timestamp as the contract's date-time, to the second (`2026-11-21T05:38:00Z`). */
export function isoSeconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
