import fc from 'fast-check';
import {
  monthKey,
  resetEpochSeconds,
  secondsUntilReset,
  USAGE_RETENTION_DAYS,
  usageExpiry,
} from '../../../../lambdas/access/quota';

const at = (iso: string) => new Date(iso);
const DAY = 86_400;

describe('monthKey', () => {
  it('names the UTC month as YYYY-MM', () => {
    expect(monthKey(at('2026-11-21T05:38:00Z'))).toBe('2026-11');
    expect(monthKey(at('2027-01-01T00:00:00Z'))).toBe('2027-01');
  });

  it('uses the UTC month, not the local one, near midnight on the last day', () => {
    // 23:30 on Nov 30 in New York is already December in UTC.
    expect(monthKey(at('2026-11-30T23:30:00-05:00'))).toBe('2026-12');
    expect(monthKey(at('2026-12-31T23:59:59.999Z'))).toBe('2026-12');
  });
});

describe('secondsUntilReset', () => {
  it('is 1 second at 23:59:59 UTC on Dec 31, the reset being Jan 1 of the next year', () => {
    const now = at('2026-12-31T23:59:59Z');
    expect(secondsUntilReset(now)).toBe(1);
    expect(resetEpochSeconds(now)).toBe(Date.UTC(2027, 0, 1) / 1000);
  });

  it('counts a started second as a whole one (23:59:59.500 -> 1)', () => {
    expect(secondsUntilReset(at('2026-12-31T23:59:59.500Z'))).toBe(1);
    expect(secondsUntilReset(at('2026-12-31T23:59:58.001Z'))).toBe(2);
  });

  it('is a full month at 00:00:00 UTC on the 1st (the quota just reset)', () => {
    expect(secondsUntilReset(at('2026-11-01T00:00:00Z'))).toBe(30 * DAY);
    expect(secondsUntilReset(at('2026-12-01T00:00:00Z'))).toBe(31 * DAY);
  });

  it('knows February has 29 days in leap years and 28 otherwise', () => {
    expect(secondsUntilReset(at('2028-02-01T00:00:00Z'))).toBe(29 * DAY);
    expect(secondsUntilReset(at('2027-02-01T00:00:00Z'))).toBe(28 * DAY);
    expect(secondsUntilReset(at('2028-02-28T23:59:59Z'))).toBe(DAY + 1);
    expect(resetEpochSeconds(at('2028-02-29T12:00:00Z'))).toBe(Date.UTC(2028, 2, 1) / 1000);
    // 2100 is not a leap year (divisible by 100, not by 400); 2000 was.
    expect(secondsUntilReset(at('2100-02-01T00:00:00Z'))).toBe(28 * DAY);
    expect(secondsUntilReset(at('2000-02-01T00:00:00Z'))).toBe(29 * DAY);
  });

  it('holds for every instant: within [1, 31 days] and landing exactly on 00:00 UTC on a 1st', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-12-31T23:59:59Z'), noInvalidDate: true }),
        (now) => {
          const seconds = secondsUntilReset(now);
          expect(seconds).toBeGreaterThanOrEqual(1);
          expect(seconds).toBeLessThanOrEqual(31 * DAY);
          const reset = new Date((Math.floor(now.getTime() / 1000) + seconds) * 1000);
          expect(reset.getUTCDate()).toBe(1);
          expect([
            reset.getUTCHours(),
            reset.getUTCMinutes(),
            reset.getUTCSeconds(),
            reset.getUTCMilliseconds(),
          ]).toEqual([0, 0, 0, 0]);
          // On a whole second the sum is exact: now + secondsUntilReset is the reset itself.
          const whole = new Date(Math.floor(now.getTime() / 1000) * 1000);
          expect(new Date(whole.getTime() + secondsUntilReset(whole) * 1000)).toEqual(reset);
          // The reset is the first such instant after now: the month right after now's month.
          expect(monthKey(reset)).not.toBe(monthKey(now));
          expect(monthKey(new Date(reset.getTime() - 1))).toBe(monthKey(now));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('usageExpiry', () => {
  it(`lets a counter live ${USAGE_RETENTION_DAYS} days past the end of its month`, () => {
    expect(usageExpiry(at('2026-11-21T05:38:00Z'))).toBe(Date.UTC(2026, 11, 1) / 1000 + USAGE_RETENTION_DAYS * DAY);
  });
});
