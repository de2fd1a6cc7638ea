/**
 * The NPI check digit: the Luhn algorithm over the prefix `80840` followed by the first nine digits (CMS, "NPI
 * check digit", https://www.cms.gov/Regulations-and-Guidance/Administrative-Simplification/NationalProvIdentStand/Downloads/NPIcheckdigit.pdf).
 * The constant prefix contributes 24 to the Luhn sum, so only the nine body digits are summed here.
 */

import { NPI_PATTERN } from './parameter-rules';

const NPI_SHAPE = new RegExp(NPI_PATTERN);
/** What the constant prefix `80840` adds to the Luhn sum. */
export const PREFIX_LUHN_SUM = 24;

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
