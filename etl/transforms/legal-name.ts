/**
 * Legal-name normalisation for the FDA warning-letter screen. Both sides (the letter's company and the provider's
 * legal name) go through the same steps, and two names match when their normal forms are equal:
 *
 * 1. Unicode NFKD, then combining marks removed (`Clínica` -> `Clinica`, the NBSP becomes a space);
 * 2. upper case;
 * 3. `&` -> ` AND `; apostrophes removed (`O'NEIL` -> `ONEIL`, so the two spellings agree);
 * 4. every other character that is not A–Z or 0–9 -> a space; runs of spaces collapsed; trimmed;
 * 5. a leading `THE` removed;
 * 6. trailing corporate suffixes removed, repeatedly (`ACME HEALTH CO., INC.` -> `ACME HEALTH`):
 *    INC, INCORPORATED, LLC, L L C, LTD, LIMITED, CORP, CORPORATION, CO, COMPANY, PC, P C, PLLC, LLP, LP, PA,
 *    P A, PLC, GMBH, AG, SA, S A, SAS, SRL, BV, NV, PTY, PVT, DBA — but never the last remaining word.
 *
 * @example normaliseLegalName('The Acme Pharmacy, Inc.') === 'ACME PHARMACY'
 */

const CORPORATE_SUFFIXES = [
  'INC',
  'INCORPORATED',
  'LLC',
  'L L C',
  'LTD',
  'LIMITED',
  'CORP',
  'CORPORATION',
  'CO',
  'COMPANY',
  'PC',
  'P C',
  'PLLC',
  'LLP',
  'LP',
  'PA',
  'P A',
  'PLC',
  'GMBH',
  'AG',
  'SA',
  'SAS',
  'S A',
  'SRL',
  'BV',
  'NV',
  'PTY',
  'PVT',
  'DBA',
] as const;

// Longest first, so `L L C` is tried before `C`-ending shorter suffixes could leave a stray `L L`.
const SUFFIX_ORDER = [...CORPORATE_SUFFIXES].sort((a, b) => b.length - a.length);

export function normaliseLegalName(name: string): string {
  let text = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase()
    .replace(/&/g, ' AND ')
    .replace(/['\u2019\u2018`]/g, '')
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
  if (text.startsWith('THE ') && text.length > 4) text = text.slice(4);
  let changed = true;
  while (changed) {
    changed = false;
    for (const suffix of SUFFIX_ORDER) {
      if (text.endsWith(` ${suffix}`) && text.length > suffix.length + 1) {
        text = text.slice(0, -(suffix.length + 1)).trimEnd();
        changed = true;
        break;
      }
    }
  }
  return text;
}
