/**
 * The one check of field lengths, for every source: a value longer than its column's bound rejects its row, with
 * the reason `overlong field: <column> has <n> characters, over its bound of <bound>` (the value itself is never
 * quoted: it may be megabytes). The bounds are the sources' own tables (`sources/field-bounds.ts`); this module
 * holds the check in TypeScript, for the small files read row by row, and its SQL twin, for the DuckDB scans of
 * NPPES and LEIE. Both count Unicode code points, as DuckDB's `length` does, in a value as the CSV holds it (before
 * any trimming).
 */
import { sqlIdentifier, sqlStringLiteral } from '../../platform/sql';

/** A source's bounds: column name -> the most characters a value of that column may hold. */
export type FieldBounds = Readonly<Record<string, number>>;

/** The kind of the reason (what `reasonKind` counts it as in a run's top reasons). */
export const OVERLONG_FIELD = 'overlong field' as const;

/**
 * The reject reason of a value of `length` characters in `column`, over `bound`.
 * @example overlongReason('Provider First Name', 41, 35) === 'overlong field: Provider First Name has 41 characters, over its bound of 35'
 */
export function overlongReason(column: string, length: number, bound: number): string {
  return `${reasonHead(column)}${length}${reasonTail(bound)}`;
}

const reasonHead = (column: string) => `${OVERLONG_FIELD}: ${column} has `;
const reasonTail = (bound: number) => ` characters, over its bound of ${bound}`;

/** Unicode code points of `value` (a surrogate pair is one). */
export function codePoints(value: string): number {
  let n = 0;
  for (const _ of value) n += 1;
  return n;
}

/**
 * The reason of the first field (in header order) longer than its bound, or null when every bounded field fits.
 * Columns without a bound are not checked; a missing field counts as empty.
 * @example overlongField(['NPI'], ['12345678901'], { NPI: 10 }) // 'overlong field: NPI has 11 characters, over its bound of 10'
 */
export function overlongField(
  header: readonly string[],
  fields: readonly string[],
  bounds: FieldBounds,
): string | null {
  for (const [i, column] of header.entries()) {
    const bound = bounds[column];
    const value = fields[i];
    // A string of n UTF-16 units holds at most n code points: only a longer one needs counting.
    if (bound === undefined || value === undefined || value.length <= bound) continue;
    const length = codePoints(value);
    if (length > bound) return overlongReason(column, length, bound);
  }
  return null;
}

/**
 * The SQL twin of {@link overlongField} over the columns of `header` (our own header names, quoted as identifiers):
 * a VARCHAR expression, NULL when every bounded column fits. `strlen` (bytes, held with the string) is tested
 * first, so that `length` (a pass over the bytes) only runs on a value that may be too long.
 */
export function overlongFieldSql(header: readonly string[], bounds: FieldBounds): string {
  const checks = header.flatMap((column) => {
    const bound = bounds[column];
    if (bound === undefined) return [];
    const col = sqlIdentifier(column);
    return [
      `WHEN strlen(${col}) > ${bound} AND length(${col}) > ${bound} THEN ` +
        `${sqlStringLiteral(reasonHead(column))} || length(${col}) || ${sqlStringLiteral(reasonTail(bound))}`,
    ];
  });
  return checks.length === 0 ? 'NULL::VARCHAR' : `CASE ${checks.join(' ')} END`;
}
