/**
 * NPI check digit: the Luhn algorithm over the constant prefix `80840` followed by the first nine digits
 * (CMS, "Requirements for the NPI check digit").
 * @see https://www.cms.gov/Regulations-and-Guidance/Administrative-Simplification/NationalProvIdentStand/Downloads/NPIcheckdigit.pdf
 */

const NPI_PREFIX = '80840';

/** The check digit (0-9) for the first nine digits of an NPI. */
export function computeNpiCheckDigit(firstNine: string): number {
  if (!/^[0-9]{9}$/.test(firstNine)) throw new Error(`NPI base must be 9 digits: ${JSON.stringify(firstNine)}`);
  const digits = NPI_PREFIX + firstNine;
  let sum = 0;
  // Luhn doubles every second digit counting from the right of the payload (the check digit will sit right of it).
  for (let i = digits.length - 1, double = true; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** Appends the check digit to a 9-digit base. @example makeNpi('123456789') === '1234567893' */
export function makeNpi(firstNine: string): string {
  return firstNine + String(computeNpiCheckDigit(firstNine));
}

/** True when `npi` is ten digits whose last digit is the check digit of the first nine. */
export function isValidNpi(npi: string): boolean {
  return /^[0-9]{10}$/.test(npi) && computeNpiCheckDigit(npi.slice(0, 9)) === npi.charCodeAt(9) - 48;
}
