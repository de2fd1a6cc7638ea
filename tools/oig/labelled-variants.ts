/**
 * The labelled set's variants (./labelled-set.ts): from one real LEIE row, the NPPES records a screening matcher
 * must find (positives) and those it must not pin on that row (negatives), as drafts without NPIs.
 *
 * Individuals (BUSNAME empty), six positives:
 * - `exact`: the LEIE last, first and middle name, practice and mailing address = the LEIE address;
 * - `middle_dropped`: no middle name;
 * - `middle_initial`: the middle name's first letter (a row without a middle name: an initial NPPES has and the
 *   LEIE lacks, which is no conflict);
 * - `suffix_added`: a suffix (JR, SR, II, III): in NPPES's suffix column for even rows, typed into the last-name
 *   field (`KIM JR`) for odd rows, as registrants sometimes do;
 * - `hyphenated`: the last name is one of two hyphenated parts (`KIM-WESTBROOK` for even rows, `WESTBROOK-KIM` odd);
 * - `city_moved`: the practice location in another city (and ZIP) of the same state, the mailing address kept.
 * Three negatives per positive, each with a first name that no LEIE row of that last name has:
 * - `other_state_other_first`: same last name, another first name (another initial), another state;
 * - `same_state_same_initial`: same last name, another first name with the same initial, the positive's address;
 * - `same_name_other_state`: the positive's full name in another state, no address agreement.
 * "Another state" is a state where no LEIE row of that last name (or business name) is.
 *
 * Organisations (BUSNAME set), six positives:
 * - `exact`: the legal business name = BUSNAME as LEIE writes it (cut at 30 characters when LEIE cut it);
 * - `suffix_changed`: the legal suffix dropped (even rows) or changed (odd: INC <-> LLC, CORP -> INC, PC -> PLLC);
 *   a name without one gets `, LLC`;
 * - `and_ampersand`: `&` <-> `AND`; a name with neither gets a leading `THE`;
 * - `punctuation_case`: commas dropped, the suffix dotted (`INC.`, `L.L.C.`, `P.C.`, `CORP.`), title case; a name
 *   without a suffix gets its first two words hyphenated instead;
 * - `other_name`: BUSNAME as the other organisation name (type 3, DBA), an unrelated legal business name;
 * - `city_moved`: as for individuals.
 * Three negatives per positive, on the name that carries the match (legal, or other for `other_name`):
 * - `other_state_other_word`: its first word replaced, another state;
 * - `same_state_extra_word`: a word inserted after its first word, the positive's address;
 * - `same_name_other_state`: the same names in another state, no address agreement.
 */
import { US_STATES, type UsState } from '../demo/us-geography';

/** A real LEIE row, where it is, and its fields by header name. */
export interface LeieRow {
  file: string;
  line: number;
  fields: Readonly<Record<string, string>>;
}

export interface Address {
  line1: string;
  city: string;
  state: string;
  zip: string;
}

/** An NPPES record before its NPI: the fields the matcher reads. */
export interface NppesDraft {
  entity: 'individual' | 'organization';
  last: string;
  first: string;
  middle: string;
  suffix: string;
  org: string;
  otherOrg: string;
  practice: Address;
  mailing: Address;
}

export interface LabelledDraft {
  draft: NppesDraft;
  kind: 'positive' | 'negative';
  variant: string;
  /** The positive variant a negative was made from (its own variant for a positive). */
  of: string;
  source: LeieRow;
}

export const INDIVIDUAL_VARIANTS = [
  'exact',
  'middle_dropped',
  'middle_initial',
  'suffix_added',
  'hyphenated',
  'city_moved',
] as const;
export const ORGANISATION_VARIANTS = [
  'exact',
  'suffix_changed',
  'and_ampersand',
  'punctuation_case',
  'other_name',
  'city_moved',
] as const;

/** First names by initial; the ones an LEIE row of the same last name carries are skipped. */
const FIRST_NAMES = (
  'ABIGAIL ARNOLD AUDREY BEATRICE BERNARD BRYCE CECILIA CLIFFORD CORNELIUS DELPHINE DESMOND DORIAN ESTELLE EVERETT ' +
  'EZEKIEL FLORENCE FREDERICK FLETCHER GWENDOLYN GRAHAM GIDEON HAZEL HORACE HOLLIS IMOGEN IGNATIUS IVY JOSEPHINE ' +
  'JASPER JUNIPER KATHRYN KENDRICK KEATON LUCINDA LEOPOLD LINCOLN MARGUERITE MALCOLM MONTGOMERY NORA NATHANIEL ' +
  'NEVILLE OPHELIA OSWALD OTIS PRISCILLA PHINEAS PERCIVAL QUINCY QUENTIN ROSALIND RUPERT ROLAND SYBIL SILAS ' +
  'SEBASTIAN THEODORA THADDEUS TOBIAS URSULA ULYSSES VIOLET VINCENT VAUGHN WINIFRED WALLACE WESLEY XAVIER YVONNE ' +
  'YORICK YARDLEY ZELDA ZACHARIAH'
).split(' ');
const SUFFIXES = ['JR', 'SR', 'II', 'III'] as const;
const HYPHEN_PART = 'WESTBROOK';
const OTHER_WORD = 'NORTHSIDE';
const EXTRA_WORD = 'UNITED';
const LEGAL_SUFFIX = /[,\s]+(INC|LLC|CORP|PC|PLLC|LTD|CO|PA|LLP|INCORPORATED|CORPORATION)\.?$/;
const CHANGED_SUFFIX: Readonly<Record<string, string>> = { INC: 'LLC', LLC: 'INC', PC: 'PLLC', PLLC: 'PC' };
const DOTTED_SUFFIX: Readonly<Record<string, string>> = { INC: 'Inc.', LLC: 'L.L.C.', PC: 'P.C.', CORP: 'Corp.' };

/** Upper-case letters and digits only: enough to keep a made-up name from landing on a real row by accident. */
export const roughKey = (text: string): string => text.toUpperCase().replace(/[^A-Z0-9]/g, '');
const firstToken = (text: string): string => text.trim().split(/\s+/)[0] ?? '';
const titleCase = (text: string): string =>
  text.toLowerCase().replace(/(^|[\s-])([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase());

/** What the negatives must avoid: per last name, the first names and states of every LEIE row; all business names. */
export interface LeieIndex {
  firstsByLast: Map<string, Set<string>>;
  statesByName: Map<string, Set<string>>;
  citiesByName: Map<string, Set<string>>;
  businessKeys: Set<string>;
}

export function indexLeie(rows: readonly LeieRow[]): LeieIndex {
  const index: LeieIndex = {
    firstsByLast: new Map(),
    statesByName: new Map(),
    citiesByName: new Map(),
    businessKeys: new Set(),
  };
  const add = <T>(map: Map<string, Set<T>>, key: string, value: T) => {
    const set = map.get(key) ?? new Set<T>();
    set.add(value);
    map.set(key, set);
  };
  for (const { fields: f } of rows) {
    const name = roughKey(f.BUSNAME ?? '') || roughKey(f.LASTNAME ?? '');
    add(index.statesByName, name, f.STATE ?? '');
    add(index.citiesByName, name, (f.CITY ?? '').toUpperCase());
    if (f.BUSNAME) index.businessKeys.add(roughKey(f.BUSNAME));
    else add(index.firstsByLast, roughKey(f.LASTNAME ?? ''), roughKey(firstToken(f.FIRSTNAME ?? '')));
  }
  return index;
}

const stateOf = (code: string): UsState => {
  const state = US_STATES.find((s) => s.code === code);
  if (state === undefined) throw new Error(`the labelled set needs a US state, not ${JSON.stringify(code)}`);
  return state;
};
/** A ZIP of `state` whose 3-digit prefix differs from `avoid`'s. */
const zipIn = (state: UsState, avoid: string, n: number): string => {
  const [lo, hi] = state.zip3;
  let zip3 = lo + (n % (hi - lo + 1));
  if (String(zip3).padStart(3, '0') === avoid.slice(0, 3)) zip3 = zip3 === hi ? lo : zip3 + 1;
  return `${String(zip3).padStart(3, '0')}${String(10 + (n % 89)).padStart(2, '0')}`;
};
/** A city of the state (its real cities, upper case) that none of `avoid` names: city names repeat across states. */
const otherCity = (state: UsState, avoid: readonly string[], n: number): string => {
  const names = state.cities.map((c) => c.name.toUpperCase()).filter((c) => !avoid.includes(c));
  return names[n % names.length] ?? `NEW ${state.code} TOWN`;
};
/** A state none of `avoid` holds, chosen by `n`. */
const otherState = (avoid: ReadonlySet<string>, n: number): UsState => {
  const free = US_STATES.filter((s) => s.isStateOrDc && !avoid.has(s.code));
  return free[n % free.length] as UsState;
};
/** An address in `state` that agrees with none of `avoid` on city or ZIP. */
const placeIn = (state: UsState, avoid: readonly Address[], n: number): Address => ({
  line1: `${100 + n} MAIN STREET`,
  city: otherCity(
    state,
    avoid.map((a) => a.city.toUpperCase()),
    n,
  ),
  state: state.code,
  zip: zipIn(state, avoid[0]?.zip ?? '', n),
});

/** An address in a state where no LEIE row of that name is, in a city none of them names. */
function awayFrom(index: LeieIndex, name: string, v: NppesDraft, n: number): Address {
  const cities = [...(index.citiesByName.get(name) ?? [])].map((city) => ({ ...v.practice, city }));
  return placeIn(otherState(index.statesByName.get(name) ?? new Set(), n), [v.practice, v.mailing, ...cities], n);
}

/** A first name: not one that an LEIE row of that last name has, with (or without) the given initial. */
function anotherFirst(taken: ReadonlySet<string>, initial: string, sameInitial: boolean, n: number): string {
  const pool = FIRST_NAMES.filter((name) => (name[0] === initial) === sameInitial && !taken.has(name));
  const name = pool[n % pool.length];
  if (name === undefined) throw new Error(`no first name left for initial ${initial}`);
  return name;
}

function individualPositives(row: LeieRow, n: number): [string, NppesDraft][] {
  const f = row.fields;
  const at: Address = { line1: f.ADDRESS ?? '', city: f.CITY ?? '', state: f.STATE ?? '', zip: f.ZIP ?? '' };
  const base: NppesDraft = {
    entity: 'individual',
    last: f.LASTNAME ?? '',
    first: f.FIRSTNAME ?? '',
    middle: f.MIDNAME ?? '',
    suffix: '',
    org: '',
    otherOrg: '',
    practice: at,
    mailing: at,
  };
  const suffix = SUFFIXES[n % SUFFIXES.length] as string;
  const odd = n % 2 === 1;
  return [
    ['exact', base],
    ['middle_dropped', { ...base, middle: '' }],
    ['middle_initial', { ...base, middle: (base.middle[0] ?? String.fromCharCode(65 + (n % 26))) as string }],
    ['suffix_added', odd ? { ...base, last: `${base.last} ${suffix}` } : { ...base, suffix }],
    ['hyphenated', { ...base, last: odd ? `${HYPHEN_PART}-${base.last}` : `${base.last}-${HYPHEN_PART}` }],
    ['city_moved', { ...base, practice: placeIn(stateOf(at.state), [at], n) }],
  ];
}

function individualNegatives(v: NppesDraft, row: LeieRow, index: LeieIndex, n: number): [string, NppesDraft][] {
  const lastKey = roughKey(row.fields.LASTNAME ?? '');
  const taken = index.firstsByLast.get(lastKey) ?? new Set<string>();
  const initial = roughKey(row.fields.FIRSTNAME ?? '')[0] ?? 'A';
  const place = awayFrom(index, lastKey, v, n);
  return [
    [
      'other_state_other_first',
      { ...v, first: anotherFirst(taken, initial, false, n), middle: '', practice: place, mailing: place },
    ],
    ['same_state_same_initial', { ...v, first: anotherFirst(taken, initial, true, n) }],
    ['same_name_other_state', { ...v, practice: place, mailing: place }],
  ];
}

function organisationPositives(row: LeieRow, n: number): [string, NppesDraft][] {
  const f = row.fields;
  const at: Address = { line1: f.ADDRESS ?? '', city: f.CITY ?? '', state: f.STATE ?? '', zip: f.ZIP ?? '' };
  const name = f.BUSNAME ?? '';
  const base: NppesDraft = {
    entity: 'organization',
    last: '',
    first: '',
    middle: '',
    suffix: '',
    org: name,
    otherOrg: '',
    practice: at,
    mailing: at,
  };
  const suffix = LEGAL_SUFFIX.exec(name);
  const stem = suffix ? name.slice(0, suffix.index) : name;
  const legal = suffix?.[1] ?? '';
  const changed = suffix ? (n % 2 === 0 ? stem : `${stem}, ${CHANGED_SUFFIX[legal] ?? 'INC'}`) : `${name}, LLC`;
  const anded = name.includes(' & ')
    ? name.replace(' & ', ' AND ')
    : / AND /.test(name)
      ? name.replace(' AND ', ' & ')
      : `THE ${name}`;
  const punctuated = suffix
    ? `${titleCase(stem.replace(/,/g, ''))} ${DOTTED_SUFFIX[legal] ?? `${legal}.`}`
    : titleCase(name.replace(/,/g, '').replace(/^(\S+) (\S+)/, '$1-$2'));
  return [
    ['exact', base],
    ['suffix_changed', { ...base, org: changed }],
    ['and_ampersand', { ...base, org: anded }],
    ['punctuation_case', { ...base, org: punctuated }],
    [
      'other_name',
      { ...base, org: `LABELLED SET PARENT ${String.fromCharCode(65 + (n % 26))}${n} LLC`, otherOrg: name },
    ],
    ['city_moved', { ...base, practice: placeIn(stateOf(at.state), [at], n) }],
  ];
}

function organisationNegatives(v: NppesDraft, row: LeieRow, index: LeieIndex, n: number): [string, NppesDraft][] {
  const place = awayFrom(index, roughKey(row.fields.BUSNAME ?? ''), v, n);
  const carrier = v.otherOrg === '' ? 'org' : 'otherOrg';
  const renamed = (name: string): Partial<NppesDraft> => {
    if (index.businessKeys.has(roughKey(name))) throw new Error(`a negative's name is a real LEIE name: ${name}`);
    return { [carrier]: name };
  };
  const words = v[carrier].split(' ');
  return [
    [
      'other_state_other_word',
      { ...v, ...renamed([OTHER_WORD, ...words.slice(1)].join(' ')), practice: place, mailing: place },
    ],
    ['same_state_extra_word', { ...v, ...renamed([words[0], EXTRA_WORD, ...words.slice(1)].join(' ')) }],
    ['same_name_other_state', { ...v, practice: place, mailing: place }],
  ];
}

/**
 * The 6 positives and 18 negatives of one LEIE row (the `n`-th of the set: it varies the choices deterministically).
 * @example labelledDrafts(row, indexLeie(rows), 0).length === 24
 */
export function labelledDrafts(row: LeieRow, index: LeieIndex, n: number): LabelledDraft[] {
  const organisation = (row.fields.BUSNAME ?? '') !== '';
  const positives = organisation ? organisationPositives(row, n) : individualPositives(row, n);
  const out: LabelledDraft[] = [];
  positives.forEach(([variant, draft], i) => {
    out.push({ draft, kind: 'positive', variant, of: variant, source: row });
    const m = n * positives.length + i;
    const negatives = organisation
      ? organisationNegatives(draft, row, index, m)
      : individualNegatives(draft, row, index, m);
    for (const [negative, nd] of negatives)
      out.push({ draft: nd, kind: 'negative', variant: negative, of: variant, source: row });
  });
  return out;
}
