/**
 * Identity names from NPPES.
 *
 * - Organisation (Entity Type Code 2): `Provider Organization Name (Legal Business Name)` as registered.
 * - Individual (Entity Type Code 1): `FIRST MIDDLE LAST SUFFIX, CREDENTIAL` — the parts that are present, joined by
 *   one space; `, CREDENTIAL` only when a credential is given. The name prefix (`DR.`, `MS.`) is dropped. The
 *   registry's casing and punctuation are kept (`MARY-ANN O'NEIL JR., M.D.`). Inner runs of spaces are collapsed.
 *
 * An individual with neither first, middle, last name nor suffix has no name (the credential alone is not a name).
 */

export interface IndividualNameParts {
  first?: string | null;
  middle?: string | null;
  last?: string | null;
  suffix?: string | null;
  credential?: string | null;
}

const clean = (v: string | null | undefined): string | null => {
  if (v === null || v === undefined) return null;
  const t = v.trim().replace(/\s+/g, ' ');
  return t === '' ? null : t;
};

/**
 * The display name of an individual, or null when no name part is present.
 * @example formatIndividualName({ first: 'JANE', middle: 'Q', last: 'DOE', credential: 'MD' }) === 'JANE Q DOE, MD'
 */
export function formatIndividualName(parts: IndividualNameParts): string | null {
  const base = [parts.first, parts.middle, parts.last, parts.suffix]
    .map(clean)
    .filter((p) => p !== null)
    .join(' ');
  if (base === '') return null;
  const credential = clean(parts.credential);
  return credential === null ? base : `${base}, ${credential}`;
}

/** An organisation's name, or null when blank. */
export function formatOrganisationName(legalName: string | null | undefined): string | null {
  return clean(legalName);
}

/** SQL: trims, collapses inner spaces and turns blank into NULL (trusted expression). */
export function cleanTextSql(column: string): string {
  return `nullif(regexp_replace(trim(${column}), '\\s+', ' ', 'g'), '')`;
}

/** SQL twin of `formatIndividualName` over trusted column expressions. */
export function individualNameSql(cols: Required<Record<keyof IndividualNameParts, string>>): string {
  const base = `nullif(concat_ws(' ', ${[cols.first, cols.middle, cols.last, cols.suffix].map(cleanTextSql).join(', ')}), '')`;
  const credential = cleanTextSql(cols.credential);
  return `CASE WHEN ${credential} IS NULL THEN ${base} ELSE ${base} || ', ' || ${credential} END`;
}
