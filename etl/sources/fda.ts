/**
 * FDA warning letters, in either published form, to one list of letters keyed by normalised company name:
 * - the fda.gov table export: UTF-8 BOM, CRLF, columns `Company Name`, `Letter Issue Date`, `Issuing Office`
 *   (no letter address: the screen cites the warning-letters listing instead);
 * - the scraped listing: columns `url` (relative to https://www.fda.gov), `letter_date`, `company`, `issuing_office`.
 *
 * The screen (`screenFda`) flags a provider whose normalised legal name (or name, when the feed has no legal name)
 * equals a letter's normalised company name; the newest letter wins.
 */
import { readSmallCsv } from '../csv/read';
import { type RejectSink, rejectUnreadable } from '../csv/rejects';
import { EtlInputError } from '../errors';
import { dateTimeOfDate, parseUsDate } from '../transforms/dates';
import { overlongField } from '../transforms/field-bounds';
import { normaliseLegalName } from '../transforms/legal-name';
import { FDA_FIELD_BOUNDS } from './field-bounds';

export const FDA_SITE = 'https://www.fda.gov' as const;
/** The public warning-letters listing, cited when a letter has no address of its own and for clear screens. */
export const FDA_WARNING_LETTERS_URL =
  'https://www.fda.gov/inspections-compliance-enforcement-and-criminal-investigations/compliance-actions-and-activities/warning-letters' as const;
export const FDA_LIST_SOURCE = 'FDA warning letters list' as const;

export const FDA_FORMS = {
  export: { company: 'Company Name', date: 'Letter Issue Date', office: 'Issuing Office', url: null },
  scraped: { company: 'company', date: 'letter_date', office: 'issuing_office', url: 'url' },
} as const;
export type FdaForm = keyof typeof FDA_FORMS;

export interface FdaLetter {
  normalised: string;
  company: string;
  /** ISO date. */
  letter_date: string;
  issuing_office: string | null;
  url: string | null;
}

/** Which form a header is; fails naming the file and the column that identifies the forms when neither fits. */
export function detectFdaForm(file: string, header: readonly string[]): FdaForm {
  for (const form of Object.keys(FDA_FORMS) as FdaForm[]) {
    const cols = FDA_FORMS[form];
    if (header.includes(cols.company)) {
      for (const c of [cols.date, cols.office, cols.url]) {
        if (c !== null && !header.includes(c)) throw new EtlInputError(file, `missing required column "${c}"`, c);
      }
      return form;
    }
  }
  throw new EtlInputError(
    file,
    `missing required column "${FDA_FORMS.export.company}" (or "${FDA_FORMS.scraped.company}" in the scraped form)`,
    FDA_FORMS.export.company,
  );
}

/** A letter address: absolute as given, relative ones resolved against https://www.fda.gov. */
export function absoluteFdaUrl(url: string | null | undefined): string | null {
  const u = url?.trim() ?? '';
  if (u === '') return null;
  if (/^https?:\/\//i.test(u)) return u;
  return `${FDA_SITE}${u.startsWith('/') ? '' : '/'}${u}`;
}

/**
 * Reads one FDA file; rows that cannot be read, rows with a value over its bound (`FDA_FIELD_BOUNDS`), rows without
 * a company, with a date that is not a calendar date or is after `asOfDate` (the snapshot's `YYYY-MM-DD`: a letter
 * cannot be dated later), or with a name that normalises to nothing are rejected.
 */
export async function readFdaFile(
  file: string,
  rejects: RejectSink,
  asOfDate: string,
): Promise<{ letters: FdaLetter[]; read: number; rejected: number; form: FdaForm }> {
  const { header, records, unreadable } = await readSmallCsv(file);
  const form = detectFdaForm(file, header);
  const cols = FDA_FORMS[form];
  const at = (name: string | null) => (name === null ? -1 : header.indexOf(name));
  const idx = { company: at(cols.company), date: at(cols.date), office: at(cols.office), url: at(cols.url) };
  const letters: FdaLetter[] = [];
  let rejected = rejectUnreadable(rejects, 'fda', file, unreadable);
  for (const rec of records) {
    const cell = (i: number) => (i < 0 ? '' : (rec.fields[i] ?? '').trim());
    const company = cell(idx.company).replace(/\s+/g, ' ');
    const date = parseUsDate(cell(idx.date));
    const normalised = normaliseLegalName(company);
    const overlong = overlongField(header, rec.fields, FDA_FIELD_BOUNDS);
    let reason: string | null = null;
    if (rec.fields.length !== header.length) reason = `expected ${header.length} fields, found ${rec.fields.length}`;
    else if (overlong !== null) reason = overlong;
    else if (company === '') reason = `empty ${cols.company}`;
    else if (date === null) reason = `unparseable ${cols.date}: ${JSON.stringify(cell(idx.date))}`;
    else if (date > asOfDate)
      reason = `${cols.date} after the snapshot date ${asOfDate}: ${JSON.stringify(cell(idx.date))}`;
    else if (normalised === '') reason = `${cols.company} normalises to nothing: ${JSON.stringify(company)}`;
    if (reason !== null || date === null) {
      rejects.add({ source: 'fda', file, line: rec.line, reason: reason ?? 'invalid row', raw: rec.raw });
      rejected += 1;
      continue;
    }
    const office = cell(idx.office);
    letters.push({
      normalised,
      company,
      letter_date: date,
      issuing_office: office === '' ? null : office,
      url: absoluteFdaUrl(cell(idx.url)),
    });
  }
  return { letters, read: records.length + unreadable.length, rejected, form };
}

/** The newest letter per normalised name (same date: the one with an address, then the later one read). */
export function indexLetters(letters: readonly FdaLetter[]): Map<string, FdaLetter> {
  const index = new Map<string, FdaLetter>();
  for (const letter of letters) {
    const held = index.get(letter.normalised);
    if (
      !held ||
      letter.letter_date > held.letter_date ||
      (letter.letter_date === held.letter_date && (letter.url !== null || held.url === null))
    ) {
      index.set(letter.normalised, letter);
    }
  }
  return index;
}

/** The automated screen's finding for one provider. */
export interface FdaFinding {
  status: 'flagged' | 'clear';
  source: string;
  source_url: string;
  verified_at: string;
  /** The date the finding is as of: the letter date when flagged, the newest letter in the lists when clear. */
  finding_date: string | null;
}

/**
 * Screens one provider name against the letters.
 * @param snapshotTime ISO date-time of the run: a clear screen's `verified_at`.
 * @param newestLetterDate the newest letter date in the lists (the as-of of a clear screen), or null when empty.
 */
export function screenFda(
  legalName: string,
  index: ReadonlyMap<string, FdaLetter>,
  snapshotTime: string,
  newestLetterDate: string | null,
): FdaFinding {
  const key = normaliseLegalName(legalName);
  const letter = key === '' ? undefined : index.get(key);
  if (letter) {
    return {
      status: 'flagged',
      source: letter.issuing_office ? `FDA warning letter (${letter.issuing_office})` : 'FDA warning letter',
      source_url: letter.url ?? FDA_WARNING_LETTERS_URL,
      verified_at: dateTimeOfDate(letter.letter_date),
      finding_date: letter.letter_date,
    };
  }
  return {
    status: 'clear',
    source: FDA_LIST_SOURCE,
    source_url: FDA_WARNING_LETTERS_URL,
    verified_at: snapshotTime,
    finding_date: newestLetterDate,
  };
}
