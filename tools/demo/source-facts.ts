/**
 * Reads, from the committed real sample files, the few real identifiers the demo feed borrows so that the ETL's
 * screens have something to find: LEIE NPIs (OIG match shape), active NPPES NPIs (identity join), and FDA
 * warning-letter company names (FDA screen). Everything is read in file order, so the result is deterministic.
 */
import { join, resolve } from 'node:path';
import { readCsvObjects } from '../../etl/csv/read';

/** The committed copies of the real sample files (see test/fixtures/source-data/PROVENANCE.md). */
export const DEFAULT_SOURCE_DIR = resolve(__dirname, '../../test/fixtures/source-data');

/** LEIE's placeholder for "this exclusion record carries no NPI". */
const LEIE_NO_NPI = '0000000000';

/** Subjects that make a letter relevant to a GLP-1 provider. "GLP" alone would catch Good Laboratory Practice. */
const GLP1_RELEVANT_SUBJECT = /compounding|glp-1|semaglutide|tirzepatide/i;

export interface LeieNpi {
  npi: string;
  file: 'leie.csv' | 'leie_head.csv';
  exclType: string;
  exclDate: string;
}

export interface NppesNpi {
  npi: string;
  entityType: '1' | '2';
}

export interface FdaCompany {
  company: string;
  file: 'fda_warning_letters_scraped_2026.csv' | 'fda_warning_letters.csv';
  subject: string;
  /** Letter issue date as printed in the file (MM/DD/YYYY). */
  letterDate: string;
  /** Absolute letter address on fda.gov, when the file has one. */
  url: string | null;
}

export interface SourceFacts {
  leie: LeieNpi[];
  nppesActive: NppesNpi[];
  /** GLP-1-relevant letters (compounding, GLP-1, semaglutide, tirzepatide) of the scraped 2021-2026 list. */
  fdaScraped: FdaCompany[];
  /** The same selection from the fda.gov table export (2023 letters). */
  fdaExport: FdaCompany[];
}

/** Loads the real identifiers from `sourceDir` (default: test/fixtures/source-data). */
export function loadSourceFacts(sourceDir: string = DEFAULT_SOURCE_DIR): SourceFacts {
  const leie: LeieNpi[] = [];
  for (const file of ['leie.csv', 'leie_head.csv'] as const) {
    for (const row of readCsvObjects(join(sourceDir, file))) {
      const npi = row.NPI ?? '';
      if (npi === '' || npi === LEIE_NO_NPI) continue;
      leie.push({ npi, file, exclType: row.EXCLTYPE ?? '', exclDate: row.EXCLDATE ?? '' });
    }
  }

  const nppesActive: NppesNpi[] = [];
  for (const row of readCsvObjects(join(sourceDir, 'nppes_sample.csv'))) {
    const type = row['Entity Type Code'];
    // Deactivated NPIs have every field blank except NPI and the deactivation date.
    if ((type === '1' || type === '2') && row['NPI Deactivation Date'] === '') {
      nppesActive.push({ npi: row.NPI ?? '', entityType: type });
    }
  }

  const fdaScraped: FdaCompany[] = [];
  const scrapedSeen = new Set<string>();
  for (const row of readCsvObjects(join(sourceDir, 'fda_warning_letters_scraped_2026.csv'))) {
    const company = (row.company ?? '').trim();
    if (company === '' || scrapedSeen.has(company) || !GLP1_RELEVANT_SUBJECT.test(row.subject ?? '')) continue;
    scrapedSeen.add(company);
    const path = row.url ?? '';
    fdaScraped.push({
      company,
      file: 'fda_warning_letters_scraped_2026.csv',
      subject: row.subject ?? '',
      letterDate: row.letter_date ?? '',
      url: path.startsWith('/') ? `https://www.fda.gov${path}` : null,
    });
  }
  const fdaExport: FdaCompany[] = [];
  const exportSeen = new Set<string>();
  for (const row of readCsvObjects(join(sourceDir, 'fda_warning_letters.csv'))) {
    const company = (row['Company Name'] ?? '').trim();
    if (company === '' || exportSeen.has(company) || !GLP1_RELEVANT_SUBJECT.test(row.Subject ?? '')) continue;
    exportSeen.add(company);
    fdaExport.push({
      company,
      file: 'fda_warning_letters.csv',
      subject: row.Subject ?? '',
      letterDate: row['Letter Issue Date'] ?? '',
      url: null,
    });
  }
  return { leie, nppesActive, fdaScraped, fdaExport };
}
