/**
 * Synthetic NPPES dissemination file for the ETL benchmark, in CMS's exact V2 form: the 330-column header of
 * `nppes_fileheader_v2.csv`, every field double-quoted (empty ones as `""`), `MM/DD/YYYY` dates, LF endings.
 * Every person and organisation in it is synthetic; the NPIs are check-digit-valid but random.
 *
 * Value distributions follow what the real files show (see test/fixtures/source-data/PROVENANCE.md): ~80%
 * individuals, ~1.5% deactivated rows (blank but for NPI and deactivation date), a few reactivated rows, 1-4
 * taxonomy slots with exactly one primary switch `Y`, practice states weighted by population, practice cities
 * skewed like the real ones: each state's real cities hold most rows, and a long tail of synthetic towns makes the
 * distinct (state, city) pairs grow with the row count (about 10,000 at 1,000,000 rows, 25,000 at 9,000,000;
 * see ./practice-cities.ts). The mailing city is the practice city.
 *
 * The file is written in chunks of a few megabytes, so memory stays flat whatever the row count.
 *
 * CLI: `tsx tools/bench-data/generate-nppes.ts --rows N --out FILE [--seed S]`
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseCsvRows } from '../../etl/csv-read';
import { makeNpi } from '../../etl/transforms/npi';
import { createRandom, createWeightedPicker, type Random, type WeightedPicker } from '../demo/random';
import { DEFAULT_SOURCE_DIR } from '../demo/source-facts';
import { US_STATES, type UsState } from '../demo/us-geography';
import { type CityPicker, createCityPicker } from './practice-cities';

export const NPPES_COLUMN_COUNT = 330;
const TAXONOMY_SLOTS = 15;
const CHUNK_CHARS = 4 * 1024 * 1024;
const PROGRESS_EVERY = 250_000;

/** Shares of the row kinds. Real files: ~18-20% organisations; 1.5% deactivated in a recent weekly/monthly. */
const SHARES = { organisation: 0.2, deactivated: 0.015, reactivated: 0.002 } as const;

/**
 * The most common taxonomy codes and their relative weights; every other NUCC code of the right section gets
 * {@link RARE_CODE_WEIGHT}. Credentials and licence prefixes make the individual rows look like real ones.
 */
const COMMON_INDIVIDUAL_CODES = [
  { code: '163W00000X', weight: 140, credentials: ['RN', 'BSN, RN', 'RN, BSN'], license: 'RN' },
  { code: '363LF0000X', weight: 70, credentials: ['FNP-C', 'APRN, FNP-BC', 'NP'], license: 'APRN' },
  { code: '363L00000X', weight: 30, credentials: ['NP', 'APRN', 'CRNP'], license: 'APRN' },
  { code: '390200000X', weight: 60, credentials: [''], license: null },
  { code: '101YM0800X', weight: 45, credentials: ['LPC', 'LMHC', 'LPCC'], license: 'LPC' },
  { code: '101Y00000X', weight: 30, credentials: ['LPC', 'LCPC', 'LAC'], license: 'LPC' },
  { code: '1223G0001X', weight: 40, credentials: ['DDS', 'DMD'], license: 'DDS' },
  { code: '122300000X', weight: 25, credentials: ['DDS', 'DMD'], license: 'DDS' },
  { code: '183500000X', weight: 60, credentials: ['PHARMD', 'RPH', 'PHARM.D.'], license: 'RPH' },
  { code: '207Q00000X', weight: 50, credentials: ['MD', 'DO', 'M.D.'], license: 'MD' },
  { code: '207R00000X', weight: 55, credentials: ['MD', 'DO', 'M.D.'], license: 'MD' },
  { code: '363A00000X', weight: 40, credentials: ['PA-C', 'PA'], license: 'PA' },
  { code: '225100000X', weight: 45, credentials: ['PT', 'DPT', 'PT, DPT'], license: 'PT' },
  { code: '106S00000X', weight: 30, credentials: ['RBT', 'BT'], license: 'RBT-' },
  { code: '1041C0700X', weight: 40, credentials: ['LCSW', 'LICSW'], license: 'LCSW' },
  { code: '104100000X', weight: 15, credentials: ['LMSW', 'MSW'], license: 'LMSW' },
  { code: '207P00000X', weight: 20, credentials: ['MD', 'DO'], license: 'MD' },
  { code: '2084P0800X', weight: 15, credentials: ['MD', 'DO'], license: 'MD' },
  { code: '208000000X', weight: 25, credentials: ['MD', 'DO'], license: 'MD' },
  { code: '207V00000X', weight: 15, credentials: ['MD', 'DO'], license: 'MD' },
  { code: '2085R0202X', weight: 15, credentials: ['MD', 'DO'], license: 'MD' },
  { code: '207L00000X', weight: 15, credentials: ['MD', 'DO'], license: 'MD' },
  { code: '367500000X', weight: 20, credentials: ['CRNA'], license: 'RN' },
  { code: '225X00000X', weight: 25, credentials: ['OTR/L', 'OT'], license: 'OT' },
  { code: '235Z00000X', weight: 20, credentials: ['CCC-SLP', 'MS, CCC-SLP'], license: 'SP' },
  { code: '111N00000X', weight: 25, credentials: ['DC'], license: 'DC' },
  { code: '152W00000X', weight: 20, credentials: ['OD'], license: 'OPT' },
  { code: '103T00000X', weight: 25, credentials: ['PHD', 'PSYD'], license: 'PSY' },
  { code: '133V00000X', weight: 10, credentials: ['RD', 'RDN'], license: 'LD' },
  { code: '164W00000X', weight: 30, credentials: ['LPN'], license: 'LPN' },
  { code: '376K00000X', weight: 10, credentials: ['CNA', ''], license: 'CNA' },
  { code: '171M00000X', weight: 10, credentials: [''], license: null },
  { code: '174400000X', weight: 8, credentials: [''], license: null },
] as const;

const COMMON_ORGANISATION_CODES = [
  { code: '3336C0003X', weight: 50, kinds: ['PHARMACY', 'DRUG STORE', 'RX'] },
  { code: '332B00000X', weight: 40, kinds: ['MEDICAL SUPPLY', 'DME', 'HOME MEDICAL EQUIPMENT'] },
  { code: '193400000X', weight: 40, kinds: ['MEDICAL GROUP', 'PHYSICIANS GROUP', 'ASSOCIATES'] },
  { code: '193200000X', weight: 30, kinds: ['MULTISPECIALTY GROUP', 'HEALTH PARTNERS', 'MEDICAL ASSOCIATES'] },
  { code: '251E00000X', weight: 20, kinds: ['HOME HEALTH CARE', 'HOME HEALTH AGENCY', 'HOME CARE SERVICES'] },
  { code: '333600000X', weight: 15, kinds: ['PHARMACY', 'APOTHECARY'] },
  { code: '261QP2000X', weight: 15, kinds: ['PHYSICAL THERAPY', 'REHABILITATION', 'PT CLINIC'] },
  { code: '261QM1300X', weight: 15, kinds: ['CLINIC', 'MEDICAL CENTER'] },
  { code: '251S00000X', weight: 15, kinds: ['BEHAVIORAL HEALTH', 'COUNSELING CENTER'] },
  { code: '261QM0801X', weight: 12, kinds: ['MENTAL HEALTH CENTER', 'WELLNESS CENTER'] },
  { code: '314000000X', weight: 10, kinds: ['NURSING AND REHABILITATION CENTER', 'CARE CENTER'] },
  { code: '3416L0300X', weight: 10, kinds: ['AMBULANCE SERVICE', 'EMS'] },
  { code: '291U00000X', weight: 10, kinds: ['LABORATORY', 'DIAGNOSTICS'] },
  { code: '343900000X', weight: 10, kinds: ['TRANSPORTATION', 'MEDICAL TRANSPORT'] },
  { code: '282N00000X', weight: 8, kinds: ['HOSPITAL', 'MEDICAL CENTER'] },
  { code: '261QR1300X', weight: 8, kinds: ['RURAL HEALTH CLINIC'] },
  { code: '261QF0400X', weight: 8, kinds: ['COMMUNITY HEALTH CENTER'] },
  { code: '310400000X', weight: 8, kinds: ['ASSISTED LIVING', 'SENIOR LIVING'] },
  { code: '251J00000X', weight: 8, kinds: ['NURSING SERVICES', 'NURSE STAFFING'] },
] as const;
const RARE_CODE_WEIGHT = 0.6;
const PHYSICIAN_GROUPING = 'Allopathic & Osteopathic Physicians';

const FEMALE_NAMES = [
  'MARY',
  'JENNIFER',
  'LISA',
  'SARAH',
  'JESSICA',
  'AMANDA',
  'ASHLEY',
  'EMILY',
  'LAUREN',
  'MEGAN',
  'RACHEL',
  'NICOLE',
  'STEPHANIE',
  'ELIZABETH',
  'KATHERINE',
  'MARIA',
  'ANGELA',
  'MICHELLE',
  'KIMBERLY',
  'LAURA',
  'AMY',
  'REBECCA',
  'CHRISTINA',
  'HANNAH',
  'OLIVIA',
  'SOPHIA',
  'GRACE',
  'ANNA',
  'JULIA',
  'VICTORIA',
  'PRIYA',
  'FATIMA',
  'YESENIA',
  'MEI',
  'AALIYAH',
  'DESTINY',
  'BRITTANY',
  'KELLY',
  'HEATHER',
  'ANDREA',
  'PATRICIA',
  'LINDA',
] as const;
const MALE_NAMES = [
  'MICHAEL',
  'DAVID',
  'JAMES',
  'JOHN',
  'ROBERT',
  'WILLIAM',
  'CHRISTOPHER',
  'DANIEL',
  'MATTHEW',
  'JOSEPH',
  'ANDREW',
  'JOSHUA',
  'RYAN',
  'BRIAN',
  'KEVIN',
  'JASON',
  'ERIC',
  'STEVEN',
  'THOMAS',
  'MARK',
  'JOSE',
  'CARLOS',
  'LUIS',
  'AHMED',
  'RAJ',
  'WEI',
  'KWAME',
  'TYLER',
  'BRANDON',
  'JUSTIN',
  'NATHAN',
  'SAMUEL',
  'BENJAMIN',
  'ADAM',
] as const;
const LAST_NAMES = [
  'SMITH',
  'JOHNSON',
  'WILLIAMS',
  'BROWN',
  'JONES',
  'GARCIA',
  'MILLER',
  'DAVIS',
  'RODRIGUEZ',
  'MARTINEZ',
  'HERNANDEZ',
  'LOPEZ',
  'GONZALEZ',
  'WILSON',
  'ANDERSON',
  'THOMAS',
  'TAYLOR',
  'MOORE',
  'JACKSON',
  'MARTIN',
  'LEE',
  'PEREZ',
  'THOMPSON',
  'WHITE',
  'HARRIS',
  'SANCHEZ',
  'CLARK',
  'RAMIREZ',
  'LEWIS',
  'ROBINSON',
  'WALKER',
  'YOUNG',
  'ALLEN',
  'KING',
  'WRIGHT',
  'SCOTT',
  'TORRES',
  'NGUYEN',
  'HILL',
  'FLORES',
  'GREEN',
  'ADAMS',
  'NELSON',
  'BAKER',
  'HALL',
  'RIVERA',
  'CAMPBELL',
  'MITCHELL',
  'CARTER',
  'ROBERTS',
  'PATEL',
  'SHAH',
  'KIM',
  'PARK',
  'CHEN',
  'WANG',
  'LI',
  'NGO',
  'TRAN',
  'PHAM',
  'KHAN',
  'ALI',
  'COHEN',
  'MURPHY',
  'OBRIEN',
  "O'CONNOR",
  'SULLIVAN',
  'KELLY',
  'REYES',
  'CRUZ',
  'MORALES',
  'ORTIZ',
  'GUTIERREZ',
  'CHAVEZ',
  'RAMOS',
  'RUIZ',
  'DIAZ',
  'OKAFOR',
  'ADEYEMI',
  'MENSAH',
  'SINGH',
  'KAUR',
  'GUPTA',
  'JOSEPH',
  'PIERRE',
  'JEAN',
  'FISCHER',
  'SCHMIDT',
  'MUELLER',
  'ROSSI',
  'RUSSO',
  'NOVAK',
  'KOWALSKI',
  'IVANOV',
  'HANSEN',
  'LARSON',
  'OLSON',
  'PETERSON',
  'JENSEN',
  'BECKER',
  'WARD',
] as const;
const MIDDLE_NAMES = [
  'MARIE',
  'ELIZABETH',
  'ANN',
  'LYNN',
  'JAMES',
  'MICHAEL',
  'LEE',
  'ROSE',
  'JOSEPH',
  'ALLEN',
] as const;
const PREFIXES = ['DR.', 'DR.', 'DR.', 'MR.', 'MRS.', 'MS.', 'MISS'] as const;
const SUFFIXES = ['JR.', 'SR.', 'II', 'III', 'IV'] as const;
const ORG_STEMS = [
  'RIVERSIDE',
  'LAKEVIEW',
  'SUNRISE',
  'MAPLE',
  'OAKWOOD',
  'HIGHLAND',
  'PIONEER',
  'HERITAGE',
  'SUMMIT',
  'VALLEY',
  'COASTAL',
  'PRAIRIE',
  'GREENFIELD',
  'FAMILY',
  'COMMUNITY',
  'UNITED',
  'PREMIER',
  'ADVANCED',
  'COMPLETE',
  'TRINITY',
  'CORNERSTONE',
  'BRIGHTPATH',
  'NORTHSIDE',
  'SOUTHERN',
  'METRO',
  'CAPITAL',
  'LIBERTY',
  'EAGLE',
  'CEDAR',
  'WILLOW',
] as const;
const ORG_SUFFIXES = [' LLC', ', LLC', ' INC', ', INC.', ' PC', ' PLLC', ' PA', '', ' CORP', ' LTD'] as const;
const OFFICIAL_TITLES = [
  'OWNER',
  'CEO',
  'PRESIDENT',
  'ADMINISTRATOR',
  'MANAGING MEMBER',
  'DIRECTOR',
  'CFO',
  'OFFICE MANAGER',
  'MEMBER',
  'COMPLIANCE OFFICER',
  'VP OPERATIONS',
] as const;
const STREETS = [
  'MAIN',
  'OAK',
  'PARK',
  'PINE',
  'MAPLE',
  'CEDAR',
  'ELM',
  'WASHINGTON',
  'LAKE',
  'HILL',
  'CHURCH',
  'MEDICAL CENTER',
  'HOSPITAL',
  'MARKET',
  'BROADWAY',
  'LINCOLN',
  'JEFFERSON',
  'MADISON',
  'FRANKLIN',
  'HIGHLAND',
  'SUNSET',
  'RIVER',
  'COLLEGE',
  'UNIVERSITY',
  'CENTER',
  'SPRING',
  'VALLEY',
  'MILL',
  'FOREST',
  '1ST',
  '2ND',
  '3RD',
  '5TH',
  '12TH',
] as const;
const STREET_TYPES = ['ST', 'AVE', 'RD', 'BLVD', 'DR', 'LN', 'WAY', 'PKWY', 'CT', 'HWY'] as const;
const DIRECTIONS = ['N ', 'S ', 'E ', 'W ', '', '', '', '', '', ''] as const;
const SECOND_LINES = ['STE', 'SUITE', 'BLDG', 'UNIT', 'FL'] as const;
const TAXONOMY_GROUPS = ['193400000X SINGLE SPECIALTY  GROUP', '193200000X MULTI-SPECIALTY GROUP'] as const;
const OTHER_ID_ISSUERS = ['STATE LICENSE', 'MEDICARE PIN', 'BLUE CROSS', 'AETNA', 'UNITED HEALTHCARE', ''] as const;

/** Days are counted from this origin; the cache below turns a day number into `MM/DD/YYYY`. */
const DAY_MS = 86_400_000;
const ORIGIN = Date.UTC(2005, 0, 1);
const dayOf = (y: number, m: number, d: number): number => Math.round((Date.UTC(y, m - 1, d) - ORIGIN) / DAY_MS);
const DAYS = {
  firstEnumeration: dayOf(2005, 5, 23),
  initialWaveEnd: dayOf(2007, 12, 31),
  updatesFrom: dayOf(2007, 1, 1),
  asOf: dayOf(2026, 7, 27),
  deactivationsFrom: dayOf(2008, 1, 1),
  certificationFrom: dayOf(2011, 1, 1),
} as const;

function createDateFormatter(): (day: number) => string {
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

/** Options of {@link generateNppesFile}. */
export interface GenerateNppesOptions {
  rows: number;
  outFile: string;
  /** PRNG seed; the same seed and row count give the same bytes. Default 1. */
  seed?: number;
  /** Folder holding `nppes_fileheader_v2.csv` and `nucc_taxonomy.csv`. Default: test/fixtures/source-data. */
  sourceDir?: string;
  /** Progress lines on stderr. Default: when stderr is a terminal. */
  progress?: boolean;
}

/** What {@link generateNppesFile} wrote. */
export interface GenerateNppesResult {
  rows: number;
  bytes: number;
  individuals: number;
  organisations: number;
  deactivated: number;
  reactivated: number;
}

interface TaxonomyChoice {
  code: string;
  credentials: readonly string[];
  license: string | null;
  kinds: readonly string[];
}

/** Column positions, resolved once from the header by name, so a layout change fails loudly. */
function resolveColumns(header: readonly string[]) {
  const at = (name: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`nppes_fileheader_v2.csv has no column ${JSON.stringify(name)}`);
    return i;
  };
  const slots = (f: (n: number) => string): number[] => Array.from({ length: TAXONOMY_SLOTS }, (_, i) => at(f(i + 1)));
  return {
    npi: at('NPI'),
    entityType: at('Entity Type Code'),
    ein: at('Employer Identification Number (EIN)'),
    orgName: at('Provider Organization Name (Legal Business Name)'),
    lastName: at('Provider Last Name (Legal Name)'),
    firstName: at('Provider First Name'),
    middleName: at('Provider Middle Name'),
    prefix: at('Provider Name Prefix Text'),
    suffix: at('Provider Name Suffix Text'),
    credential: at('Provider Credential Text'),
    otherLastName: at('Provider Other Last Name'),
    otherFirstName: at('Provider Other First Name'),
    otherLastNameType: at('Provider Other Last Name Type Code'),
    mail1: at('Provider First Line Business Mailing Address'),
    mailCity: at('Provider Business Mailing Address City Name'),
    mailState: at('Provider Business Mailing Address State Name'),
    mailZip: at('Provider Business Mailing Address Postal Code'),
    mailCountry: at('Provider Business Mailing Address Country Code (If outside U.S.)'),
    mailPhone: at('Provider Business Mailing Address Telephone Number'),
    mailFax: at('Provider Business Mailing Address Fax Number'),
    practice1: at('Provider First Line Business Practice Location Address'),
    practice2: at('Provider Second Line Business Practice Location Address'),
    practiceCity: at('Provider Business Practice Location Address City Name'),
    practiceState: at('Provider Business Practice Location Address State Name'),
    practiceZip: at('Provider Business Practice Location Address Postal Code'),
    practiceCountry: at('Provider Business Practice Location Address Country Code (If outside U.S.)'),
    practicePhone: at('Provider Business Practice Location Address Telephone Number'),
    practiceFax: at('Provider Business Practice Location Address Fax Number'),
    enumerationDate: at('Provider Enumeration Date'),
    lastUpdate: at('Last Update Date'),
    deactivationDate: at('NPI Deactivation Date'),
    reactivationDate: at('NPI Reactivation Date'),
    sex: at('Provider Sex Code'),
    aoLast: at('Authorized Official Last Name'),
    aoFirst: at('Authorized Official First Name'),
    aoMiddle: at('Authorized Official Middle Name'),
    aoTitle: at('Authorized Official Title or Position'),
    aoPhone: at('Authorized Official Telephone Number'),
    taxonomy: slots((n) => `Healthcare Provider Taxonomy Code_${n}`),
    licenseNumber: slots((n) => `Provider License Number_${n}`),
    licenseState: slots((n) => `Provider License Number State Code_${n}`),
    primarySwitch: slots((n) => `Healthcare Provider Primary Taxonomy Switch_${n}`),
    otherId: at('Other Provider Identifier_1'),
    otherIdType: at('Other Provider Identifier Type Code_1'),
    otherIdState: at('Other Provider Identifier State_1'),
    otherIdIssuer: at('Other Provider Identifier Issuer_1'),
    soleProprietor: at('Is Sole Proprietor'),
    subpart: at('Is Organization Subpart'),
    parentLbn: at('Parent Organization LBN'),
    parentTin: at('Parent Organization TIN'),
    aoPrefix: at('Authorized Official Name Prefix Text'),
    aoCredential: at('Authorized Official Credential Text'),
    taxonomyGroup1: at('Healthcare Provider Taxonomy Group_1'),
    certificationDate: at('Certification Date'),
  };
}

/** Weighted taxonomy pickers for individuals and organisations, from the NUCC file plus the common-code tables. */
function createTaxonomyPickers(nuccFile: string): {
  individual: WeightedPicker<TaxonomyChoice>;
  organisation: WeightedPicker<TaxonomyChoice>;
} {
  const [header, ...rows] = parseCsvRows(readFileSync(nuccFile, 'utf8'));
  const col = (name: string) => header?.indexOf(name) ?? -1;
  const [iCode, iGrouping, iSection] = [col('Code'), col('Grouping'), col('Section')];
  const nucc = new Map(
    rows.map((r) => [r[iCode] as string, { grouping: r[iGrouping] ?? '', section: r[iSection] ?? '' }]),
  );
  const missing = [...COMMON_INDIVIDUAL_CODES, ...COMMON_ORGANISATION_CODES].filter((c) => !nucc.has(c.code));
  if (missing.length > 0) throw new Error(`taxonomy codes not in NUCC: ${missing.map((m) => m.code).join(', ')}`);

  const individual: [TaxonomyChoice, number][] = COMMON_INDIVIDUAL_CODES.map((c) => [
    { code: c.code, credentials: c.credentials, license: c.license, kinds: [] },
    c.weight,
  ]);
  const organisation: [TaxonomyChoice, number][] = COMMON_ORGANISATION_CODES.map((c) => [
    { code: c.code, credentials: [''], license: null, kinds: c.kinds },
    c.weight,
  ]);
  const common = new Set<string>([...COMMON_INDIVIDUAL_CODES, ...COMMON_ORGANISATION_CODES].map((c) => c.code));
  for (const [code, { grouping, section }] of nucc) {
    if (common.has(code)) continue;
    if (section === 'Individual' && grouping !== 'Group') {
      const physician = grouping === PHYSICIAN_GROUPING;
      individual.push([
        { code, credentials: physician ? ['MD', 'DO'] : ['', ''], license: physician ? 'MD' : 'L', kinds: [] },
        RARE_CODE_WEIGHT,
      ]);
    } else {
      organisation.push([
        { code, credentials: [''], license: null, kinds: ['HEALTH SERVICES', 'CARE', 'CENTER'] },
        RARE_CODE_WEIGHT,
      ]);
    }
  }
  return { individual: createWeightedPicker(individual), organisation: createWeightedPicker(organisation) };
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

/**
 * Writes a synthetic NPPES V2 dissemination file of `rows` data rows (plus the header) to `outFile`.
 * NPIs are unique, check-digit-valid and increasing, as in CMS's files.
 * @example await generateNppesFile({ rows: 1_000_000, outFile: '/tmp/npidata.csv', seed: 7 })
 */
export async function generateNppesFile(options: GenerateNppesOptions): Promise<GenerateNppesResult> {
  const { rows, outFile } = options;
  if (!Number.isInteger(rows) || rows < 0 || rows > 100_000_000)
    throw new Error(`rows must be 0..100,000,000: ${rows}`);
  const sourceDir = options.sourceDir ?? DEFAULT_SOURCE_DIR;
  const progress = options.progress ?? process.stderr.isTTY === true;
  const rng = createRandom(options.seed ?? 1);

  // The header line is copied byte for byte from CMS's header file.
  const headerText = readFileSync(join(sourceDir, 'nppes_fileheader_v2.csv'), 'utf8').replace(/\r?\n$/, '');
  const header = parseCsvRows(headerText)[0] ?? [];
  if (header.length !== NPPES_COLUMN_COUNT)
    throw new Error(`expected ${NPPES_COLUMN_COUNT} header columns, got ${header.length}`);
  const col = resolveColumns(header);
  const taxonomy = createTaxonomyPickers(join(sourceDir, 'nucc_taxonomy.csv'));
  const statePicker = createWeightedPicker(US_STATES.map((s) => [s, s.population] as const));
  const cityPicker = createCityPicker(US_STATES);
  const formatDay = createDateFormatter();
  const empty: string[] = new Array<string>(NPPES_COLUMN_COUNT).fill('');

  // NPI bases (first nine digits) spread over 100000000-299999999 with random increasing steps.
  const span = 199_999_999;
  const meanStep = Math.max(1, Math.floor(span / (rows + 1)));
  let base = 100_000_000;

  const result: GenerateNppesResult = {
    rows,
    bytes: 0,
    individuals: 0,
    organisations: 0,
    deactivated: 0,
    reactivated: 0,
  };
  mkdirSync(dirname(outFile), { recursive: true });
  const handle = await open(outFile, 'w');
  try {
    let chunk = `${headerText}\n`;
    for (let r = 0; r < rows; r++) {
      base += 1 + (meanStep > 1 ? rng.int(0, 2 * meanStep - 2) : 0);
      const f = empty.slice();
      f[col.npi] = makeNpi(String(base));
      const roll = rng.next();
      if (roll < SHARES.deactivated) {
        // CMS blanks every field of a deactivated NPI except the NPI and the deactivation date.
        f[col.deactivationDate] = formatDay(rng.int(DAYS.deactivationsFrom, DAYS.asOf));
        result.deactivated++;
      } else {
        const isOrganisation = rng.chance(SHARES.organisation);
        fillActiveRow(rng, f, col, isOrganisation, taxonomy, { statePicker, cityPicker }, formatDay);
        if (isOrganisation) result.organisations++;
        else result.individuals++;
        if (roll < SHARES.deactivated + SHARES.reactivated) {
          // Reactivated: full fields, the old deactivation date and a later reactivation date, updated since.
          const deactivated = rng.int(DAYS.deactivationsFrom, DAYS.asOf - 400);
          const reactivated = deactivated + rng.int(30, 365);
          f[col.deactivationDate] = formatDay(deactivated);
          f[col.reactivationDate] = formatDay(reactivated);
          f[col.lastUpdate] = formatDay(rng.int(reactivated, DAYS.asOf));
          result.reactivated++;
        }
      }
      chunk += `"${f.join('","')}"\n`;
      if (chunk.length >= CHUNK_CHARS) {
        result.bytes += (await handle.write(chunk)).bytesWritten;
        chunk = '';
      }
      if (progress && (r + 1) % PROGRESS_EVERY === 0) {
        process.stderr.write(`\rnppes: ${(r + 1).toLocaleString('en-US')} / ${rows.toLocaleString('en-US')} rows`);
      }
    }
    if (chunk.length > 0) result.bytes += (await handle.write(chunk)).bytesWritten;
    if (progress && rows >= PROGRESS_EVERY) process.stderr.write('\n');
  } finally {
    await handle.close();
  }
  return result;
}

/** Fills the fields of an active (or reactivated) individual or organisation row. */
function fillActiveRow(
  rng: Random,
  f: string[],
  col: ReturnType<typeof resolveColumns>,
  isOrganisation: boolean,
  taxonomy: { individual: WeightedPicker<TaxonomyChoice>; organisation: WeightedPicker<TaxonomyChoice> },
  places: { statePicker: WeightedPicker<UsState>; cityPicker: CityPicker },
  formatDay: (day: number) => string,
): void {
  const { statePicker } = places;
  const state = statePicker.pick(rng);
  const city = places.cityPicker.pick(rng, state);
  const practicePhone = phone(rng);
  const zip = zip9(rng, state);

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

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '1000000' },
      out: { type: 'string' },
      seed: { type: 'string', default: '1' },
    },
  });
  if (values.out === undefined) {
    process.stderr.write('usage: tsx tools/bench-data/generate-nppes.ts --rows N --out FILE [--seed S]\n');
    process.exit(2);
  }
  const started = process.hrtime.bigint();
  generateNppesFile({ rows: Number(values.rows), outFile: values.out, seed: Number(values.seed) })
    .then((r) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      process.stdout.write(
        `${JSON.stringify({ ...r, file: values.out, seconds: Math.round(seconds * 100) / 100, peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`,
      );
    })
    .catch((err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
