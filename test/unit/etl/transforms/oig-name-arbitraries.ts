/** fast-check arbitraries for the OIG matcher's properties: upper-case names and their spelling variants. */
import fc from 'fast-check';

/** An upper-case token of plain letters (accentable ones frequent). */
export const token = fc
  .array(fc.constantFrom(...'AEIOUNCSTRLMBDGHKPY'), { minLength: 2, maxLength: 8 })
  .map((letters) => letters.join(''));

/** An upper-case name of one to three tokens, one space apart. */
export const upperName = fc.array(token, { minLength: 1, maxLength: 3 }).map((tokens) => tokens.join(' '));

const ACCENTED: Record<string, string[]> = {
  A: ['Á', 'À', 'Â', 'Ä', 'Å', 'á', 'à', 'â', 'ä', 'å'],
  E: ['É', 'È', 'Ê', 'Ë', 'é', 'è', 'ê', 'ë'],
  I: ['Í', 'Ì', 'Î', 'Ï', 'í', 'ì', 'î', 'ï'],
  O: ['Ó', 'Ò', 'Ô', 'Ö', 'ó', 'ò', 'ô', 'ö'],
  U: ['Ú', 'Ù', 'Û', 'Ü', 'ú', 'ù', 'û', 'ü'],
  N: ['Ñ', 'ñ'],
  C: ['Ç', 'ç'],
};

/** Separators that are all one space once normalised. */
const SEPARATORS = [' ', '  ', ', ', ' - ', '-', ' / ', '; '];
/** Marks removed inside a token. */
const REMOVED = ["'", '’', '.'];

/**
 * A spelling of `name` that differs only in case, accents and punctuation: each letter in either case or accented,
 * apostrophes and dots inside or after tokens, any separator between tokens, spaces or punctuation around.
 */
export function nameVariant(name: string): fc.Arbitrary<string> {
  const tokens = name.split(' ');
  const tokenVariant = (t: string) =>
    fc
      .tuple(
        fc.array(fc.nat(), { minLength: t.length, maxLength: t.length }),
        fc.array(fc.option(fc.constantFrom(...REMOVED), { nil: '' }), { minLength: t.length, maxLength: t.length }),
      )
      .map(([picks, marks]) =>
        [...t]
          .map((ch, i) => {
            const pick = picks[i] ?? 0;
            const options = [ch, ch.toLowerCase(), ...(ACCENTED[ch] ?? [])];
            return `${options[pick % options.length]}${marks[i] ?? ''}`;
          })
          .join(''),
      );
  return fc
    .tuple(
      fc.tuple(...tokens.map(tokenVariant)),
      fc.array(fc.constantFrom(...SEPARATORS), { minLength: tokens.length, maxLength: tokens.length }),
      fc.constantFrom('', ' ', '  ', ', '),
      fc.constantFrom('', ' ', '.', ' ,'),
    )
    .map(([parts, separators, before, after]) => {
      const joined = parts.map((p, i) => (i === 0 ? p : `${separators[i] ?? ' '}${p}`)).join('');
      return `${before}${joined}${after}`;
    });
}
