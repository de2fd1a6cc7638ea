/**
 * The normaliser of the OIG possible matches, as DuckDB SQL macros (one implementation: the matcher and the tests
 * both run these; there is no TypeScript twin).
 *
 * - `oig_norm(x)`: accents stripped, upper-cased, `&` as ` AND `, apostrophes and dots removed (`O'BRIEN` ->
 *   `OBRIEN`, `L.L.C.` -> `LLC`), every other run of non-alphanumerics one space, trimmed.
 * - `oig_person_tokens(x)`: a person's name tokens without name suffixes and degrees (`JR`, `III`, `MD`...);
 *   `oig_last_key(x)`: those tokens joined without spaces (`DE LA CRUZ` = `DELACRUZ`); `oig_first_token(x)`.
 * - `oig_org_key(x)`: an organisation's tokens without legal suffixes (`INC`, `LLC`, `PC`...) and a leading `THE`,
 *   joined with spaces.
 * - evidence: `oig_last_agreement`, `oig_name_agreement` (first and middle names), `oig_middle_conflict`,
 *   `oig_place_agreement`; `oig_candidate_key(candidate)`, a candidate's identity across snapshots.
 *
 * A suffix or legal-suffix token is dropped everywhere but as a name's FIRST token: a name that is itself such a
 * token (the surname DO, or a first name V) keeps its key instead of becoming empty.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { OIG_CANDIDATE_KEY_MEMBERS } from '../../data-contracts/constants';

/** Name suffixes and degrees dropped from a person's names. */
export const NAME_SUFFIX_TOKENS = [
  'JR',
  'SR',
  'II',
  'III',
  'IV',
  'V',
  'MD',
  'DO',
  'DDS',
  'DMD',
  'DPM',
  'DC',
  'OD',
  'PHD',
  'PHARMD',
  'PSYD',
  'DVM',
  'RN',
  'LPN',
  'NP',
  'PA',
  'CRNA',
] as const;

/** Legal-form suffixes dropped from an organisation's name. */
export const LEGAL_SUFFIX_TOKENS = [
  'INC',
  'INCORPORATED',
  'LLC',
  'PLLC',
  'LLP',
  'LP',
  'LTD',
  'CORP',
  'CORPORATION',
  'CO',
  'COMPANY',
  'PC',
  'PA',
  'PLC',
] as const;

const list = (tokens: readonly string[]) => `[${tokens.map((t) => `'${t}'`).join(', ')}]`;

/** The macros, in dependency order. */
export const OIG_NAME_MACROS: readonly string[] = [
  // A value that is one token already in normal form (most NPPES names): it is its own normal form, its one token
  // and its first, so the normaliser's string work is skipped for it (the result is the same).
  `oig_plain(x) AS regexp_full_match(x, '[A-Z0-9]+')`,
  // Apostrophes: ASCII, the typographic right and left quotes, the backtick.
  `oig_norm(x) AS CASE WHEN oig_plain(x) THEN x ELSE trim(regexp_replace(regexp_replace(replace(upper(strip_accents(x)), '&', ' AND '),
     '[''’‘\`.]', '', 'g'), '[^A-Z0-9]+', ' ', 'g')) END`,
  `oig_tokens(x) AS CASE WHEN oig_plain(x) THEN [x] ELSE list_filter(string_split(oig_norm(x), ' '), t -> t <> '') END`,
  `oig_drop_tokens(ts, dropped) AS list_filter(ts, (t, i) -> i = 1 OR NOT list_contains(dropped, t))`,
  `oig_person_tokens(x) AS CASE WHEN oig_plain(x) THEN [x] ELSE oig_drop_tokens(oig_tokens(x), ${list(NAME_SUFFIX_TOKENS)}) END`,
  `oig_last_key(x) AS nullif(array_to_string(oig_person_tokens(x), ''), '')`,
  `oig_first_token(x) AS CASE WHEN oig_plain(x) THEN x ELSE oig_tokens(x)[1] END`,
  `oig_without_the(ts) AS CASE WHEN len(ts) > 1 AND ts[1] = 'THE' THEN ts[2:] ELSE ts END`,
  `oig_org_key(x) AS nullif(array_to_string(oig_drop_tokens(oig_without_the(oig_tokens(x)), ${list(LEGAL_SUFFIX_TOKENS)}), ' '), '')`,
  // Last names: `ka`/`kb` the keys, `ta`/`tb` the tokens (oig_person_tokens).
  `oig_last_agreement(ka, ta, kb, tb) AS CASE
     WHEN ka IS NULL OR kb IS NULL THEN NULL
     WHEN ka = kb THEN 'exact'
     WHEN (len(ta) >= 2 AND list_contains(ta, kb)) OR (len(tb) >= 2 AND list_contains(tb, ka)) THEN 'part' END`,
  // First or middle name tokens.
  `oig_name_agreement(a, b) AS CASE
     WHEN a IS NULL OR b IS NULL THEN NULL
     WHEN a = b THEN 'exact'
     WHEN (length(a) = 1 AND a = left(b, 1)) OR (length(b) = 1 AND b = left(a, 1)) THEN 'initial' END`,
  `oig_middle_conflict(a, b) AS coalesce(left(a, 1) <> left(b, 1), false)`,
  // A place value of the LEIE row against NPPES's practice-location and mailing values.
  `oig_place_agreement(v, practice, mailing) AS CASE
     WHEN v IS NULL THEN NULL
     WHEN v = practice AND v = mailing THEN 'both'
     WHEN v = practice THEN 'practice'
     WHEN v = mailing THEN 'mailing' END`,
  // The identity of a candidate: its LEIE row's published fields (never DOB), as the wire carries them.
  `oig_leie_key(${OIG_CANDIDATE_KEY_MEMBERS.join(', ')}) AS md5(concat_ws('|', ${OIG_CANDIDATE_KEY_MEMBERS.map((m) => `coalesce(${m}, '')`).join(', ')}))`,
  // The same key from a candidate's JSON (the change feed's basis reads the candidates back).
  `oig_candidate_key(c) AS oig_leie_key(${OIG_CANDIDATE_KEY_MEMBERS.map((m) => `json_extract_string(c, '$.leie.${m}')`).join(', ')})`,
];

/** Creates (or replaces) the normaliser's macros on the connection's database. */
export async function createOigNameMacros(connection: DuckDBConnection): Promise<void> {
  for (const macro of OIG_NAME_MACROS) await connection.run(`CREATE OR REPLACE MACRO ${macro}`);
}
