/**
 * Source date formats, parsed to ISO 8601.
 *
 * - NPPES (CMS form): `MM/DD/YYYY`. NPPES re-saved by a spreadsheet: `M/D/YY`. A two-digit year follows the POSIX
 *   `strptime` pivot that DuckDB uses: 69–99 are 1969–1999, 00–68 are 2000–2068 (NPPES dates start in 2005, so no
 *   real NPPES date is ambiguous).
 * - LEIE: `YYYYMMDD`; `00000000` is LEIE's "no date" placeholder.
 * - FDA warning letters: `MM/DD/YYYY`.
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
