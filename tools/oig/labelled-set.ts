/**
 * The labelled set for the OIG candidate matcher: from the real LEIE rows that carry an NPI (the 30 individuals of
 * `leie.csv` and the 15 organisations of `leie_head.csv`), NPPES records built in known variants of each row
 * (./labelled-variants.ts says which), written as an NPPES V2 file in CMS's form (the 330-column header of
 * `nppes_fileheader_v2.csv`, every field quoted, `MM/DD/YYYY`, LF) with a labels file beside it.
 *
 * Each record gets a fresh check-digit-valid NPI that no LEIE row carries, so that every LEIE row stays eligible
 * for name matching (the matcher screens only LEIE rows whose NPI is not in NPPES). The label of a record is the
 * LEIE row it was built from (its NPI: all 45 differ) for a positive, none for a negative: a candidate pair is true
 * when the candidate's LEIE row carries that NPI.
 *
 * CLI: `tsx tools/oig/labelled-set.ts --out DIR` writes DIR/nppes.csv and DIR/labels.csv.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { makeNpi } from '../../data-contracts/npi-check';
import { parseCsv, parseCsvRows } from '../../etl/csv/read';
import { DEFAULT_SOURCE_DIR } from '../demo/source-facts';
import { indexLeie, type LabelledDraft, type LeieRow, labelledDrafts, type NppesDraft } from './labelled-variants';

/** LEIE's "no NPI" placeholder. */
const NO_NPI = '0000000000';
/** The first NPI body tried; fresh NPIs count up from it, skipping any an LEIE row carries. */
const FIRST_BODY = 190_000_001;
const ENUMERATED = '01/15/2012';
const UPDATED = '06/15/2026';
const TAXONOMY = { individual: '207Q00000X', organization: '261Q00000X' } as const;

export interface LabelledRecord extends LabelledDraft {
  npi: string;
  /** The NPI of the LEIE row a positive was built from; null for a negative. */
  label: string | null;
}

export interface LabelledSet {
  /** The NPI-carrying LEIE rows the set is built from, in file order. */
  sources: LeieRow[];
  records: LabelledRecord[];
}

/** The rows of an LEIE file (`UPDATED.csv` form), with their file name and line (the header is line 1). */
export function readLeieRows(file: string): LeieRow[] {
  const [header, ...rows] = parseCsv(readFileSync(file, 'utf8'));
  if (header === undefined) throw new Error(`${file}: no header`);
  const name = file.split('/').pop() ?? file;
  return rows.map((row) => {
    if (row.fields.length !== header.fields.length) throw new Error(`${file}: line ${row.line} is not 18 fields`);
    return {
      file: name,
      line: row.line,
      fields: Object.fromEntries(header.fields.map((h, i) => [h, row.fields[i] ?? ''])),
    };
  });
}

/**
 * Builds the set from LEIE files (default: the committed `leie.csv` and `leie_head.csv`): every row of them is
 * known to the negatives (none may land on a real row by accident), the NPI-carrying ones are the sources.
 * @example buildLabelledSet().records.length === 45 * 24
 */
export function buildLabelledSet(
  leieFiles: readonly string[] = ['leie.csv', 'leie_head.csv'].map((f) => join(DEFAULT_SOURCE_DIR, f)),
): LabelledSet {
  const all = leieFiles.flatMap(readLeieRows);
  const index = indexLeie(all);
  const sources = all.filter((r) => (r.fields.NPI ?? NO_NPI) !== NO_NPI);
  const taken = new Set(all.map((r) => r.fields.NPI));
  let body = FIRST_BODY;
  const freshNpi = (): string => {
    for (;;) {
      const npi = makeNpi(String(body++));
      if (!taken.has(npi)) return npi;
    }
  };
  const records = sources.flatMap((row, n) =>
    labelledDrafts(row, index, n).map((d) => ({
      ...d,
      npi: freshNpi(),
      label: d.kind === 'positive' ? (row.fields.NPI as string) : null,
    })),
  );
  return { sources, records };
}

/** The 330 fields of a record, by the header's column names. */
export function nppesFields(header: readonly string[], npi: string, d: NppesDraft): string[] {
  const values: Record<string, string> = {
    NPI: npi,
    'Entity Type Code': d.entity === 'individual' ? '1' : '2',
    'Provider Organization Name (Legal Business Name)': d.org,
    'Provider Last Name (Legal Name)': d.last,
    'Provider First Name': d.first,
    'Provider Middle Name': d.middle,
    'Provider Name Suffix Text': d.suffix,
    'Provider Other Organization Name': d.otherOrg,
    'Provider Other Organization Name Type Code': d.otherOrg === '' ? '' : '3',
    'Provider First Line Business Mailing Address': d.mailing.line1,
    'Provider Business Mailing Address City Name': d.mailing.city,
    'Provider Business Mailing Address State Name': d.mailing.state,
    'Provider Business Mailing Address Postal Code': d.mailing.zip,
    'Provider Business Mailing Address Country Code (If outside U.S.)': 'US',
    'Provider First Line Business Practice Location Address': d.practice.line1,
    'Provider Business Practice Location Address City Name': d.practice.city,
    'Provider Business Practice Location Address State Name': d.practice.state,
    'Provider Business Practice Location Address Postal Code': d.practice.zip,
    'Provider Business Practice Location Address Country Code (If outside U.S.)': 'US',
    'Provider Enumeration Date': ENUMERATED,
    'Last Update Date': UPDATED,
    'Healthcare Provider Taxonomy Code_1': TAXONOMY[d.entity],
    'Healthcare Provider Primary Taxonomy Switch_1': 'Y',
    'Employer Identification Number (EIN)': d.entity === 'organization' ? '<UNAVAIL>' : '',
    'Is Sole Proprietor': d.entity === 'individual' ? 'N' : '',
    'Is Organization Subpart': d.entity === 'organization' ? 'N' : '',
  };
  for (const name of Object.keys(values)) {
    if (!header.includes(name)) throw new Error(`the NPPES header has no column ${JSON.stringify(name)}`);
  }
  return header.map((name) => values[name] ?? '');
}

/** CMS's form: every field double-quoted (a quote inside doubled). */
const cmsLine = (fields: readonly string[]): string => `"${fields.map((f) => f.replace(/"/g, '""')).join('","')}"`;

/** The header line of CMS's V2 file, as committed (byte for byte), and its column names. */
export function nppesHeader(sourceDir: string = DEFAULT_SOURCE_DIR): { line: string; names: string[] } {
  const line = readFileSync(join(sourceDir, 'nppes_fileheader_v2.csv'), 'utf8').replace(/\r?\n$/, '');
  const names = parseCsvRows(line)[0] ?? [];
  if (names.length !== 330) throw new Error(`expected the 330-column NPPES V2 header, got ${names.length} columns`);
  return { line, names };
}

export const LABEL_COLUMNS = ['npi', 'kind', 'entity', 'variant', 'of', 'source_file', 'source_line', 'label'] as const;

/** Writes `nppes.csv` and `labels.csv` into `outDir`; returns their paths and the set. */
export function writeLabelledSet(outDir: string, set: LabelledSet = buildLabelledSet()) {
  mkdirSync(outDir, { recursive: true });
  const header = nppesHeader();
  const nppes = join(outDir, 'nppes.csv');
  const labels = join(outDir, 'labels.csv');
  const lines = set.records.map((r) => cmsLine(nppesFields(header.names, r.npi, r.draft)));
  writeFileSync(nppes, `${[header.line, ...lines].join('\n')}\n`);
  const labelLines = set.records.map((r) =>
    [r.npi, r.kind, r.draft.entity, r.variant, r.of, r.source.file, r.source.line, r.label ?? ''].join(','),
  );
  writeFileSync(labels, `${[LABEL_COLUMNS.join(','), ...labelLines].join('\n')}\n`);
  return { nppes, labels, set };
}

if (require.main === module) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  if (values.out === undefined) {
    process.stderr.write('usage: tsx tools/oig/labelled-set.ts --out DIR\n');
    process.exit(2);
  }
  const { nppes, labels, set } = writeLabelledSet(values.out);
  const count = (kind: string) => set.records.filter((r) => r.kind === kind).length;
  process.stdout.write(
    `${JSON.stringify({ sources: set.sources.length, positives: count('positive'), negatives: count('negative'), nppes, labels })}\n`,
  );
}
