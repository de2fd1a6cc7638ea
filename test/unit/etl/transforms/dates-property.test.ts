/**
 * Dates are checked as dates, not patterns: every real date (and date-time) of every source form round-trips, and
 * every impossible one is refused.
 */
import fc from 'fast-check';
import { parseCompactDate, parseIsoDateTime, parseUsDate } from '../../../../etl/transforms/dates';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** A real calendar date between 1900 and 2099. */
const realDate = fc
  .record({
    y: fc.integer({ min: 1900, max: 2099 }),
    m: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 31 }),
  })
  .map(({ y, m, d }) => ({ y, m, d: Math.min(d, daysIn(y, m)) }));
/** A year, month and day of which at least one is out of range (day 0 or past the month's end, month 0 or 13+). */
const impossibleDate = fc
  .record({
    y: fc.integer({ min: 1900, max: 2099 }),
    m: fc.integer({ min: 0, max: 99 }),
    d: fc.integer({ min: 0, max: 99 }),
  })
  .filter(({ y, m, d }) => m < 1 || m > 12 || d < 1 || d > daysIn(y, m));
const time = fc.record({
  h: fc.integer({ min: 0, max: 23 }),
  mi: fc.integer({ min: 0, max: 59 }),
  s: fc.integer({ min: 0, max: 59 }),
  ms: fc.integer({ min: 0, max: 999 }),
});

describe('date parsers (property)', () => {
  it('round-trips every real date in the US, compact and ISO forms', () => {
    fc.assert(
      fc.property(realDate, ({ y, m, d }) => {
        const iso = `${y}-${pad(m)}-${pad(d)}`;
        expect(parseUsDate(`${pad(m)}/${pad(d)}/${y}`)).toBe(iso);
        expect(parseUsDate(`${m}/${d}/${y}`)).toBe(iso);
        expect(parseCompactDate(`${y}${pad(m)}${pad(d)}`)).toBe(iso);
        expect(parseIsoDateTime(`${iso}T00:00:00Z`)).toBe(Date.UTC(y, m - 1, d));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses every impossible date in every form', () => {
    fc.assert(
      fc.property(impossibleDate, ({ y, m, d }) => {
        expect(parseUsDate(`${pad(m)}/${pad(d)}/${y}`)).toBeNull();
        expect(parseCompactDate(`${y}${pad(m)}${pad(d)}`)).toBeNull();
        expect(parseIsoDateTime(`${y}-${pad(m)}-${pad(d)}T10:00:00Z`)).toBeNull();
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips every real date-time, with or without seconds, fraction and offset', () => {
    fc.assert(
      fc.property(
        realDate,
        time,
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        fc.constantFrom('seconds', 'minutes', 'fraction'),
        ({ y, m, d }, { h, mi, s, ms }, offset, precision) => {
          const sec = precision === 'minutes' ? 0 : s;
          const milli = precision === 'fraction' ? ms : 0;
          const clock = `${pad(h)}:${pad(mi)}${precision === 'minutes' ? '' : `:${pad(sec)}`}${precision === 'fraction' ? `.${pad(milli, 3)}` : ''}`;
          const zone =
            offset === 0
              ? 'Z'
              : `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
          const text = `${y}-${pad(m)}-${pad(d)}T${clock}${zone}`;
          const expected = Date.UTC(y, m - 1, d, h, mi, sec, milli) - offset * 60_000;
          expect(parseIsoDateTime(text)).toBe(expected);
          // The platform's own parser agrees on every real date-time.
          expect(Date.parse(text)).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses every impossible time of day', () => {
    fc.assert(
      fc.property(
        realDate,
        fc.record({
          h: fc.integer({ min: 0, max: 99 }),
          mi: fc.integer({ min: 0, max: 99 }),
          s: fc.integer({ min: 0, max: 99 }),
        }),
        ({ y, m, d }, { h, mi, s }) => {
          fc.pre(h > 23 || mi > 59 || s > 59);
          expect(parseIsoDateTime(`${y}-${pad(m)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}Z`)).toBeNull();
        },
      ),
      { numRuns: 500 },
    );
  });

  it.each([
    '2026-02-30T10:00:00Z',
    '2026-13-01T10:00:00Z',
    '2026-06-15T25:61:00Z',
    '2026-02-31T00:00:00Z',
    '2025-02-29T12:00:00Z',
    '2026-06-15T10:00:00+24:00',
    '2026-06-15',
    '2026-06-15T10:00:00',
  ])('refuses %s', (text) => {
    expect(parseIsoDateTime(text)).toBeNull();
  });

  it('accepts February 29th of a leap year', () => {
    expect(parseIsoDateTime('2024-02-29T12:00:00Z')).toBe(Date.UTC(2024, 1, 29, 12));
  });
});
