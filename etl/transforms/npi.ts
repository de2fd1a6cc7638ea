/**
 * The NPI check digit: the Luhn algorithm over the prefix `80840` followed by the first nine digits (CMS, "NPI
 * check digit", https://www.cms.gov/Regulations-and-Guidance/Administrative-Simplification/NationalProvIdentStand/Downloads/NPIcheckdigit.pdf).
 * The constant prefix contributes 24 to the Luhn sum, so only the nine body digits are summed here.
 */

const NPI_SHAPE = /^[0-9]{10}$/;
const PREFIX_LUHN_SUM = 24;

/** LEIE writes "no NPI" as ten zeros; it is a placeholder, not an identifier. */
export const LEIE_NO_NPI = '0000000000' as const;

/** The check digit (0-9) of a 9-digit NPI body. */
export function computeNpiCheckDigit(firstNine: string): number {
  if (!/^[0-9]{9}$/.test(firstNine)) throw new Error(`NPI body must be 9 digits: ${JSON.stringify(firstNine)}`);
  let sum = PREFIX_LUHN_SUM;
  for (let i = 0; i < 9; i += 1) {
    let digit = firstNine.charCodeAt(i) - 48;
    // Counted from the check digit leftwards, every other body digit is doubled: body positions 1, 3, 5, 7, 9.
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
}

/** Appends the check digit to a 9-digit body. @example makeNpi('123456789') === '1234567893' */
export function makeNpi(firstNine: string): string {
  return firstNine + String(computeNpiCheckDigit(firstNine));
}

/**
 * True when `npi` is ten digits whose last digit is the Luhn check digit of `80840` + the first nine.
 * @example isValidNpi('1234567893') === true; isValidNpi('1234567890') === false
 */
export function isValidNpi(npi: string): boolean {
  return NPI_SHAPE.test(npi) && computeNpiCheckDigit(npi.slice(0, 9)) === npi.charCodeAt(9) - 48;
}

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
