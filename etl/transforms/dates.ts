/**
 * Source date formats, parsed to ISO 8601.
 *
 * - NPPES (CMS form): `MM/DD/YYYY`. NPPES re-saved by a spreadsheet: `M/D/YY`. A two-digit year follows the POSIX
 *   `strptime` pivot that DuckDB uses: 69–99 are 1969–1999, 00–68 are 2000–2068 (NPPES dates start in 2005, so no
 *   real NPPES date is ambiguous).
 * - LEIE: `YYYYMMDD`; `00000000` is LEIE's "no date" placeholder.
 * - FDA warning letters: `MM/DD/YYYY`.
 * - The curation feed: ISO 8601 date-times (`2026-06-15T10:00:00Z`, seconds and fraction optional, `Z` or an
 *   offset), checked as a real calendar date and a real time of day, never by pattern alone.
 *
 * The TypeScript parsers and the SQL expressions below implement the same rules; a unit test runs both over one
 * table of cases.
 */

const US_DATE = /^([0-9]{1,2})\/([0-9]{1,2})\/([0-9]{2}|[0-9]{4})$/;
const COMPACT_DATE = /^([0-9]{4})([0-9]{2})([0-9]{2})$/;

/** LEIE's placeholder for an absent date. */
export const LEIE_NO_DATE = '00000000' as const;

function isoOf(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/** Expands a two-digit year with the POSIX pivot (69 -> 1969, 68 -> 2068). */
export function expandTwoDigitYear(yy: number): number {
  return yy >= 69 ? 1900 + yy : 2000 + yy;
}

/**
 * `M/D/YY`, `MM/DD/YYYY` (and mixes of one or two digits for month and day) to `YYYY-MM-DD`; null when the text is
 * not a real calendar date. Surrounding spaces are ignored.
 * @example parseUsDate('6/15/26') === '2026-06-15'; parseUsDate('02/30/2026') === null
 */
export function parseUsDate(text: string): string | null {
  const m = US_DATE.exec(text.trim());
  if (!m) return null;
  const [, mm, dd, yy] = m as unknown as [string, string, string, string];
  const year = yy.length === 2 ? expandTwoDigitYear(Number(yy)) : Number(yy);
  return isoOf(year, Number(mm), Number(dd));
}

/** `YYYYMMDD` to `YYYY-MM-DD`; null for the `00000000` placeholder and for impossible dates. */
export function parseCompactDate(text: string): string | null {
  const m = COMPACT_DATE.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d] = m as unknown as [string, string, string, string];
  return isoOf(Number(y), Number(mo), Number(d));
}

const ISO_DATE_TIME =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2})(\.[0-9]+)?)?(Z|([+-])([0-9]{2}):([0-9]{2}))$/;

/**
 * An ISO 8601 date-time (the feed's form) as epoch milliseconds; null unless it is a real calendar date (no
 * February 30th, no month 13) and a real time (hours 00-23, minutes and seconds 00-59, an offset up to 23:59).
 * @example parseIsoDateTime('2026-02-28T10:00:00Z') === Date.UTC(2026, 1, 28, 10); parseIsoDateTime('2026-02-30T10:00:00Z') === null
 */
export function parseIsoDateTime(text: string): number | null {
  const m = ISO_DATE_TIME.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, sec = '0', frac = '', zone, sign, oh = '0', om = '0'] = m as unknown as string[];
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(sec);
  if (isoOf(Number(y), Number(mo), Number(d)) === null) return null;
  if (hour > 23 || minute > 59 || second > 59 || Number(oh) > 23 || Number(om) > 59) return null;
  const offsetMinutes = zone === 'Z' ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  const ms = frac === '' ? 0 : Math.floor(Number(`0${frac}`) * 1000);
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime() - offsetMinutes * 60_000;
}

/** A date as the contract's date-time: midnight UTC. */
export function dateTimeOfDate(isoDate: string): string {
  return `${isoDate}T00:00:00Z`;
}

/**
 * SQL twin of `parseUsDate` over a trusted VARCHAR expression: a DATE, or NULL when the text is empty or invalid.
 * Pair it with `column IS NOT NULL` to tell "empty" from "unparseable".
 */
export function usDateSql(column: string): string {
  const v = `trim(${column})`;
  return (
    `CASE WHEN regexp_full_match(${v}, '[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}') THEN try_strptime(${v}, '%m/%d/%Y')::DATE ` +
    `WHEN regexp_full_match(${v}, '[0-9]{1,2}/[0-9]{1,2}/[0-9]{2}') THEN try_strptime(${v}, '%m/%d/%y')::DATE END`
  );
}

/** SQL twin of `parseCompactDate`. */
export function compactDateSql(column: string): string {
  const v = `trim(${column})`;
  return `CASE WHEN regexp_full_match(${v}, '[0-9]{8}') THEN try_strptime(${v}, '%Y%m%d')::DATE END`;
}
