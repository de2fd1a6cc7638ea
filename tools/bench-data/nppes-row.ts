/**
 * One synthetic NPPES row (./generate-nppes.ts): the fields of an active individual or organisation, and the
 * day numbers and `MM/DD/YYYY` dates they carry.
 *
 * The practice place is a real ZIP of the row's state and that ZIP's city (./practice-places.ts), written as ZIP+4
 * with a random +4. The mailing address is the practice address, but for a PO box (12%, at a random ZIP of the
 * state, as a PO-box ZIP often is) and a tenth of the rows mailed to another place of the state
 * ({@link fillSecondaryPlaces}).
 */
import type { Random, WeightedPicker } from '../demo/random';
import type { UsState } from '../demo/us-geography';
import type { NppesColumns } from './nppes-columns';
import {
  DIRECTIONS,
  FEMALE_NAMES,
  LAST_NAMES,
  MALE_NAMES,
  MIDDLE_NAMES,
  OFFICIAL_TITLES,
  ORG_STEMS,
  ORG_SUFFIXES,
  OTHER_ID_ISSUERS,
  PREFIXES,
  SECOND_LINES,
  STREET_TYPES,
  STREETS,
  SUFFIXES,
  TAXONOMY_GROUPS,
} from './nppes-tables';
import type { TaxonomyChoice, TaxonomyPickers } from './nppes-taxonomy';
import type { PlacePicker } from './practice-places';

/** Days are counted from this origin; the cache below turns a day number into `MM/DD/YYYY`. */
const DAY_MS = 86_400_000;
const ORIGIN = Date.UTC(2005, 0, 1);
const dayOf = (y: number, m: number, d: number): number => Math.round((Date.UTC(y, m - 1, d) - ORIGIN) / DAY_MS);
export const DAYS = {
  firstEnumeration: dayOf(2005, 5, 23),
  initialWaveEnd: dayOf(2007, 12, 31),
  updatesFrom: dayOf(2007, 1, 1),
  asOf: dayOf(2026, 7, 27),
  deactivationsFrom: dayOf(2008, 1, 1),
  certificationFrom: dayOf(2011, 1, 1),
} as const;

/** `MM/DD/YYYY` of a day number, cached per day. */
export function createDateFormatter(): (day: number) => string {
  const cache: string[] = [];
  return (day) => {
    let s = cache[day];
    if (s === undefined) {
      const d = new Date(ORIGIN + day * DAY_MS);
      const mm = String(d.getUTCMonth() + 1).padStart(2, '0');
      const dd = String(d.getUTCDate()).padStart(2, '0');
      s = `${mm}/${dd}/${d.getUTCFullYear()}`;
      cache[day] = s;
    }
    return s;
  };
}

const digits = (rng: Random, n: number): string => {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(48 + Math.floor(rng.next() * 10));
  return s;
};
const phone = (rng: Random): string => `${rng.int(201, 989)}${rng.int(2, 9)}${digits(rng, 6)}`;
const zip9 = (rng: Random, state: UsState): string =>
  String(rng.int(state.zip3[0], state.zip3[1])).padStart(3, '0') + digits(rng, 6);
const streetLine = (rng: Random): string =>
  `${rng.int(1, 29999)} ${rng.pick(DIRECTIONS)}${rng.pick(STREETS)} ${rng.pick(STREET_TYPES)}`;

/** The pickers of a row's places: its state (by population), then a ZIP and city of that state. */
export interface RowPlaces {
  statePicker: WeightedPicker<UsState>;
  placePicker: PlacePicker;
}

/** Fills the fields of an active (or reactivated) individual or organisation row. */
export function fillActiveRow(
  rng: Random,
  f: string[],
  col: NppesColumns,
  isOrganisation: boolean,
  taxonomy: TaxonomyPickers,
  places: RowPlaces,
  formatDay: (day: number) => string,
): void {
  const { statePicker } = places;
  const state = statePicker.pick(rng);
  const place = places.placePicker.pick(rng, state);
  const city = place.city;
  const practicePhone = phone(rng);
  const zip = place.zip + digits(rng, 4);

  // Taxonomy slots: 1-4 distinct codes, one primary (usually, not always, slot 1).
  const picker = isOrganisation ? taxonomy.organisation : taxonomy.individual;
  const slotRoll = rng.next();
  const slotCount = slotRoll < 0.72 ? 1 : slotRoll < 0.9 ? 2 : slotRoll < 0.97 ? 3 : 4;
  const choices: TaxonomyChoice[] = [];
  for (let attempt = 0; choices.length < slotCount && attempt < slotCount * 4; attempt++) {
    const c = picker.pick(rng);
    if (!choices.some((x) => x.code === c.code)) choices.push(c);
  }
  const primary = choices.length === 1 || rng.chance(0.7) ? 0 : rng.int(1, choices.length - 1);
  const main = choices[primary] as TaxonomyChoice;
  choices.forEach((c, i) => {
    f[col.taxonomy[i] as number] = c.code;
    f[col.primarySwitch[i] as number] = i === primary ? 'Y' : 'N';
    // Individuals carry a licence per slot (students do not); some organisations (pharmacies, agencies) do too.
    const licensed = isOrganisation ? rng.chance(0.3) : c.license !== null && rng.chance(0.92);
    if (licensed) {
      f[col.licenseNumber[i] as number] = `${c.license ?? ''}${digits(rng, rng.int(5, 8))}`;
      f[col.licenseState[i] as number] = rng.chance(0.88) ? state.code : statePicker.pick(rng).code;
    }
  });

  if (isOrganisation) {
    f[col.entityType] = '2';
    f[col.ein] = '<UNAVAIL>';
    const kind = main.kinds.length > 0 ? rng.pick(main.kinds) : 'HEALTH SERVICES';
    const stem = rng.chance(0.5) ? rng.pick(ORG_STEMS) : rng.pick(LAST_NAMES);
    f[col.orgName] = `${stem} ${kind}${rng.pick(ORG_SUFFIXES)}`;
    f[col.aoLast] = rng.pick(LAST_NAMES);
    f[col.aoFirst] = rng.chance(0.5) ? rng.pick(FEMALE_NAMES) : rng.pick(MALE_NAMES);
    if (rng.chance(0.3))
      f[col.aoMiddle] = rng.chance(0.5) ? rng.pick(MIDDLE_NAMES) : String.fromCharCode(rng.int(65, 90));
    f[col.aoTitle] = rng.pick(OFFICIAL_TITLES);
    f[col.aoPhone] = rng.chance(0.8) ? practicePhone : phone(rng);
    if (rng.chance(0.28)) f[col.aoPrefix] = rng.pick(PREFIXES);
    if (rng.chance(0.4)) f[col.aoCredential] = rng.pick(['MD', 'DDS', 'RN', 'PHARMD', 'MBA', 'LCSW', 'NP'] as const);
    const subpart = rng.chance(0.05);
    f[col.subpart] = subpart ? 'Y' : 'N';
    if (subpart) {
      f[col.parentLbn] = `${rng.pick(ORG_STEMS)} HEALTH SYSTEM${rng.pick(ORG_SUFFIXES)}`;
      f[col.parentTin] = '<UNAVAIL>';
    }
  } else {
    f[col.entityType] = '1';
    const sexRoll = rng.next();
    const sex = sexRoll < 0.7 ? 'F' : sexRoll < 0.975 ? 'M' : sexRoll < 0.995 ? 'X' : '';
    f[col.sex] = sex;
    f[col.lastName] = rng.pick(LAST_NAMES);
    f[col.firstName] =
      sex === 'F'
        ? rng.pick(FEMALE_NAMES)
        : sex === 'M'
          ? rng.pick(MALE_NAMES)
          : rng.pick([...FEMALE_NAMES, ...MALE_NAMES]);
    const middleRoll = rng.next();
    if (middleRoll < 0.25) f[col.middleName] = String.fromCharCode(rng.int(65, 90));
    else if (middleRoll < 0.45) f[col.middleName] = rng.pick(MIDDLE_NAMES);
    if (rng.chance(0.12)) f[col.prefix] = rng.pick(PREFIXES);
    if (rng.chance(0.015)) f[col.suffix] = rng.pick(SUFFIXES);
    if (rng.chance(0.55)) f[col.credential] = rng.pick(main.credentials);
    if (rng.chance(0.045)) {
      f[col.otherLastName] = rng.pick(LAST_NAMES);
      f[col.otherFirstName] = f[col.firstName] as string;
      f[col.otherLastNameType] = rng.pick(['1', '1', '5', '2'] as const);
    }
    const sole = rng.next();
    f[col.soleProprietor] = sole < 0.69 ? 'N' : sole < 0.99 ? 'Y' : 'X';
    if (rng.chance(0.1)) f[col.taxonomyGroup1] = rng.pick(TAXONOMY_GROUPS);
  }

  // Addresses: the practice location, and a mailing address that is usually the same place.
  const street = streetLine(rng);
  f[col.practice1] = street;
  if (rng.chance(0.15)) f[col.practice2] = `${rng.pick(SECOND_LINES)} ${rng.int(1, 999)}`;
  f[col.practiceCity] = city;
  f[col.practiceState] = state.code;
  f[col.practiceZip] = zip;
  f[col.practiceCountry] = 'US';
  f[col.practicePhone] = practicePhone;
  if (rng.chance(0.13)) f[col.practiceFax] = phone(rng);
  const poBox = rng.chance(0.12);
  f[col.mail1] = poBox ? `PO BOX ${rng.int(1, 99999)}` : street;
  f[col.mailCity] = city;
  f[col.mailState] = state.code;
  f[col.mailZip] = poBox ? zip9(rng, state) : zip;
  f[col.mailCountry] = 'US';
  if (rng.chance(0.72)) f[col.mailPhone] = practicePhone;
  if (rng.chance(0.1)) f[col.mailFax] = phone(rng);

  if (rng.chance(0.04)) {
    const medicaid = rng.chance(0.6);
    f[col.otherId] = digits(rng, rng.int(6, 10));
    f[col.otherIdType] = medicaid ? '05' : '01';
    f[col.otherIdState] = state.code;
    if (!medicaid) f[col.otherIdIssuer] = rng.pick(OTHER_ID_ISSUERS);
  }

  // Dates: a quarter enumerated in the 2005-2007 initial wave; updates spread from 2007 to the as-of date.
  const enumerated = rng.chance(0.25)
    ? rng.int(DAYS.firstEnumeration, DAYS.initialWaveEnd)
    : rng.int(DAYS.initialWaveEnd + 1, DAYS.asOf);
  const updated = rng.int(Math.max(enumerated, DAYS.updatesFrom), DAYS.asOf);
  f[col.enumerationDate] = formatDay(enumerated);
  f[col.lastUpdate] = formatDay(updated);
  if (updated >= DAYS.certificationFrom && rng.chance(0.75)) f[col.certificationDate] = formatDay(updated);
}

/** Shares of the fields {@link fillSecondaryPlaces} adds. */
export const SECONDARY_SHARES = { mailingElsewhere: 0.1, otherOrganisationName: 0.2 } as const;

/**
 * The fields drawn from a second random source (so that adding them left every other byte of a seed's file as it
 * was): a mailing address in another city of the state for a tenth of the rows, as NPPES has (a billing office, a
 * PO box in the county seat), and an organisation's other name (type 3, "doing business as") for a fifth of them.
 */
export function fillSecondaryPlaces(
  rng: Random,
  f: string[],
  col: NppesColumns,
  places: RowPlaces,
  state: UsState | undefined,
): void {
  if (state !== undefined && rng.chance(SECONDARY_SHARES.mailingElsewhere)) {
    const place = places.placePicker.pick(rng, state);
    if (place.city !== f[col.practiceCity]) {
      f[col.mail1] = `PO BOX ${rng.int(1, 99999)}`;
      f[col.mailCity] = place.city;
      f[col.mailZip] = place.zip + digits(rng, 4);
    }
  }
  if (f[col.entityType] === '2' && rng.chance(SECONDARY_SHARES.otherOrganisationName)) {
    const words = (f[col.orgName] ?? '').split(' ');
    f[col.otherOrgName] = `${rng.pick(ORG_STEMS)} ${words.slice(1, 3).join(' ')}`.trim().replace(/,$/, '');
    f[col.otherOrgNameType] = '3';
  }
}
