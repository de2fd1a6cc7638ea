/**
 * The SQL twin of the contract's NPI check (`data-contracts/npi-check.ts`, Luhn over `80840` + the first nine
 * digits), for DuckDB, and the LEIE's no-NPI placeholder.
 */
import { PREFIX_LUHN_SUM } from '../../data-contracts/npi-check';

/** LEIE writes "no NPI" as ten zeros; it is a placeholder, not an identifier. */
export const LEIE_NO_NPI = '0000000000' as const;

/**
 * The same check as a DuckDB SQL boolean expression over the VARCHAR expression `column` (a trusted column
 * reference of ours, never input). NULL and malformed values give false.
 */
export function npiCheckSql(column: string): string {
  const digit = (i: number) => `(ascii(substr(${column}, ${i + 1}, 1)) - 48)`;
  const terms: string[] = [];
  for (let i = 0; i < 9; i += 1) {
    const d = digit(i);
    // 2d, minus 9 when 2d has two digits (d >= 5): the Luhn digit sum of a doubled digit.
    terms.push(i % 2 === 0 ? `(2 * ${d} - 9 * (${d} >= 5)::INTEGER)` : d);
  }
  return (
    `coalesce(regexp_full_match(${column}, '[0-9]{10}') AND ` +
    `(10 - (${PREFIX_LUHN_SUM} + ${terms.join(' + ')}) % 10) % 10 = ${digit(9)}, false)`
  );
}
