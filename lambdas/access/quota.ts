/**
 * Quota arithmetic on the UTC calendar month (plans: data-contracts/constants.ts): pure functions, no I/O, no clock of their own.
 * Quotas reset at 00:00 UTC on the 1st. The `X-RateLimit-*` and `Retry-After` headers are built from the meter's
 * result in `http/responses.ts`.
 */

const SECONDS_PER_DAY = 86_400;
/** How long a usage counter outlives its month before DynamoDB's TTL may delete it. */
export const USAGE_RETENTION_DAYS = 35;

/**
 * The usage counter's month, `YYYY-MM` in UTC.
 *
 * @example
 * monthKey(new Date('2026-11-30T23:30:00-05:00')) // '2026-12'
 */
export function monthKey(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Epoch seconds of the next reset: 00:00:00 UTC on the 1st of the month after `now`'s UTC month. */
export function resetEpochSeconds(now: Date): number {
  // Date.UTC rolls month 12 over into January of the next year.
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000;
}

/**
 * Whole seconds from `now` until the next reset, counting a started second as a full one, so that
 * `floor(now) + secondsUntilReset(now)` is exactly the reset. Always at least 1 and at most 31 days.
 *
 * @example
 * secondsUntilReset(new Date('2026-12-31T23:59:59Z')) // 1
 */
export function secondsUntilReset(now: Date): number {
  return Math.max(1, resetEpochSeconds(now) - Math.floor(now.getTime() / 1000));
}

/** Epoch seconds after which the usage counter of `now`'s month may be deleted (TTL attribute `expires_at`). */
export function usageExpiry(now: Date): number {
  return resetEpochSeconds(now) + USAGE_RETENTION_DAYS * SECONDS_PER_DAY;
}
