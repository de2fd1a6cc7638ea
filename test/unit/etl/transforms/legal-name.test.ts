import { absoluteFdaUrl, FDA_WARNING_LETTERS_URL, indexLetters, screenFda } from '../../../../etl/sources/fda';
import { normaliseLegalName } from '../../../../etl/transforms/legal-name';

describe('legal-name normalisation for the FDA screen', () => {
  it.each([
    ['The Acme Pharmacy, Inc.', 'ACME PHARMACY'],
    ['Apothecary Pharma, LLC', 'APOTHECARY PHARMA'],
    ['Patcos Cosmetics Pvt. Ltd.', 'PATCOS COSMETICS'],
    ['Smith & Sons Co., Inc.', 'SMITH AND SONS'],
    ['Clínica Salud S.A.', 'CLINICA SALUD'],
    ['O\u2019Neil Compounding L.L.C.', 'ONEIL COMPOUNDING'],
    ['Summit GLP-1 Clinic, PLLC', 'SUMMIT GLP 1 CLINIC'],
    ['Vape-X\u00a0Club', 'VAPE X CLUB'],
    ['The Company', 'COMPANY'],
    ['Inc.', 'INC'],
  ])('normalises %j to %j', (name, normal) => {
    expect(normaliseLegalName(name)).toBe(normal);
  });

  it('matches the same company written two ways', () => {
    expect(normaliseLegalName('ACME HEALTH CORPORATION')).toBe(normaliseLegalName('Acme Health Corp.'));
  });
});

describe('the FDA screen', () => {
  const letters = indexLetters([
    { normalised: 'ACME HEALTH', company: 'Acme Health', letter_date: '2024-01-05', issuing_office: 'CDER', url: null },
    {
      normalised: 'ACME HEALTH',
      company: 'Acme Health Inc',
      letter_date: '2025-03-01',
      issuing_office: 'Center for Drug Evaluation and Research (CDER)',
      url: 'https://www.fda.gov/x',
    },
  ]);

  it('flags a match with the newest letter, its office, address and date', () => {
    expect(screenFda('Acme Health, LLC', letters, '2026-11-21T00:00:00Z', '2025-03-01')).toEqual({
      status: 'flagged',
      source: 'FDA warning letter (Center for Drug Evaluation and Research (CDER))',
      source_url: 'https://www.fda.gov/x',
      verified_at: '2025-03-01T00:00:00Z',
      finding_date: '2025-03-01',
    });
  });

  it('clears a non-match with the listing address and the screen time', () => {
    expect(screenFda('Other Clinic', letters, '2026-11-21T00:00:00Z', '2025-03-01')).toEqual({
      status: 'clear',
      source: 'FDA warning letters list',
      source_url: FDA_WARNING_LETTERS_URL,
      verified_at: '2026-11-21T00:00:00Z',
      finding_date: '2025-03-01',
    });
  });

  it('resolves relative letter addresses against fda.gov', () => {
    expect(absoluteFdaUrl('/inspections/warning-letters/x')).toBe('https://www.fda.gov/inspections/warning-letters/x');
    expect(absoluteFdaUrl('https://example.org/y')).toBe('https://example.org/y');
    expect(absoluteFdaUrl('')).toBeNull();
  });
});
