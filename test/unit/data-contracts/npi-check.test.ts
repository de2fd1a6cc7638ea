import { computeNpiCheckDigit, isValidNpi } from '../../../data-contracts/npi-check';

describe('the contract NPI check (Luhn over 80840 + the NPI)', () => {
  it('gives check digit 3 for the CMS example body 123456789 (80840123456789 -> 3)', () => {
    expect(computeNpiCheckDigit('123456789')).toBe(3);
    expect(isValidNpi('1234567893')).toBe(true);
  });

  it('agrees with a plain Luhn check of the 15-digit card form 80840 + NPI', () => {
    const luhn = (digits: string) => {
      let sum = 0;
      for (let i = 0; i < digits.length; i += 1) {
        let d = Number(digits[digits.length - 1 - i]);
        if (i % 2 === 1) {
          d *= 2;
          if (d > 9) d -= 9;
        }
        sum += d;
      }
      return sum % 10 === 0;
    };
    for (const npi of ['1234567893', '1003633876', '1114636115', '1234567890', '1999999999', '2000000000']) {
      expect(isValidNpi(npi)).toBe(luhn(`80840${npi}`));
    }
  });

  it('refuses anything but 10 digits', () => {
    for (const npi of ['123456789', '12345678931', '123456789a', ' 1234567893', '１２３４５６７８９３']) {
      expect(isValidNpi(npi)).toBe(false);
    }
  });
});
