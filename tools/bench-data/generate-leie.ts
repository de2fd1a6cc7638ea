/**
 * A national-size LEIE list for the benchmarks, in `UPDATED.csv`'s form (the real 18-column header unquoted, every
 * field double-quoted, `YYYYMMDD` dates, `0000000000` for no NPI, `00000000` for no reinstatement or waiver, LF):
 * about 75,000 rows as OIG's full list holds, about 11% of them with an NPI. Every row is synthetic; what it is
 * drawn from is real:
 * - the place and the exclusion (STATE, CITY, ZIP, GENERAL, SPECIALTY, EXCLTYPE, EXCLDATE, the DOB's year) are
 *   taken together from one real row of the samples (`leie.csv` + `leie_head.csv`) of the same entity type, drawn
 *   uniformly, so their joint distribution is the samples';
 * - individual names: the samples' last, first and middle names with their frequencies (the middle name's presence
 *   too), except a share {@link SHARES}.commonName of last names and half of the first names taken from the bench
 *   NPPES file's own name tables. The samples are slices of a list sorted by name (K names, A businesses), and the
 *   bench NPPES file draws from 101 last names and 76 first names, about 950 individuals per (last, first) pair at
 *   9M rows where a real full name is shared by a few dozen at most. So the shared names must come from that share
 *   alone: the samples' last names that the bench tables also hold (KING, KELLY, KIM… 170 of the 260 individuals of
 *   `leie.csv`) are left out of the draw. Drawing them made 41% of the individuals share a full name with ~950
 *   NPPES rows each, 40 times the candidate volume of common real names;
 * - business names: the samples' business names, with the same share built as the bench NPPES file builds them;
 * - NPIs: {@link SHARES}.npi of the rows carry an NPI of the bench's NPPES file (./sample-npis.ts), as real ones do.
 * The organisation share cannot be read from the samples (two slices of a sorted list): {@link SHARES}.organisation
 * is an assumption. test/unit/tools/bench-data/generate-leie.test.ts checks the drawn states, exclusion types and
 * entity, NPI and middle-name shares against the samples' (total variation distance).
 *
 * CLI: `tsx tools/bench-data/generate-leie.ts --nppes FILE --out FILE [--rows 75000] [--seed S]`
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createRandom, type Random } from '../demo/random';
import { DEFAULT_SOURCE_DIR } from '../demo/source-facts';
import { readLeieRows } from '../oig/labelled-set';
import type { LeieRow } from '../oig/labelled-variants';
import {
  COMMON_ORGANISATION_CODES,
  FEMALE_NAMES,
  LAST_NAMES,
  MALE_NAMES,
  ORG_STEMS,
  ORG_SUFFIXES,
} from './nppes-tables';
import { sampleNppesNpis } from './sample-npis';

export const NATIONAL_LEIE_ROWS = 75_000;
export const SHARES = { npi: 0.11, organisation: 0.1, commonName: 0.03, nppesFirstName: 0.5 } as const;

/** The national LEIE file the benchmarks build beside an NPPES file: `<file>-leie.csv`. */
export const nationalLeiePath = (nppesFile: string): string => nppesFile.replace(/\.csv$/, '-leie.csv');

export interface GenerateLeieOptions {
  /** The bench's NPPES file (CMS form), whose NPIs the NPI-carrying rows take. */
  nppesFile: string;
  outFile: string;
  rows?: number;
  seed?: number;
  /** Folder of `leie.csv` and `leie_head.csv`. Default: test/fixtures/source-data. */
  sourceDir?: string;
}

export interface GenerateLeieResult {
  rows: number;
  individuals: number;
  organisations: number;
  with_npi: number;
}

/** Picks uniformly from a list with its repeats, i.e. by frequency. */
const fromList = (rng: Random, items: readonly string[]): string => rng.pick(items);
const q = (fields: readonly string[]): string => `"${fields.join('","')}"`;

/** The generated rows' fields (by header name), without the NPIs. */
export function drawLeieRows(real: readonly LeieRow[], rows: number, rng: Random): Record<string, string>[] {
  const people = real.filter((r) => !r.fields.BUSNAME);
  const businesses = real.filter((r) => r.fields.BUSNAME);
  if (people.length === 0 || businesses.length === 0)
    throw new Error('the LEIE samples need individuals and businesses');
  const tableLasts = new Set(LAST_NAMES.map((n) => n.toUpperCase()));
  const lasts = people.map((r) => r.fields.LASTNAME ?? '').filter((n) => !tableLasts.has(n.toUpperCase()));
  if (lasts.length === 0) throw new Error('every last name of the LEIE samples is in the bench NPPES tables');
  const firsts = people.map((r) => r.fields.FIRSTNAME ?? '');
  const middles = people.map((r) => r.fields.MIDNAME ?? '');
  const names = businesses.map((r) => r.fields.BUSNAME ?? '');
  const kinds = COMMON_ORGANISATION_CODES.flatMap((c) => c.kinds);
  const out: Record<string, string>[] = [];
  for (let i = 0; i < rows; i += 1) {
    const organisation = rng.chance(SHARES.organisation);
    const template = rng.pick(organisation ? businesses : people).fields;
    const row: Record<string, string> = {
      ...template,
      UPIN: '',
      NPI: '0000000000',
      ADDRESS: `${rng.int(1, 29999)} MAIN ST`,
    };
    row.REINDATE = '00000000';
    row.WAIVERDATE = '00000000';
    row.WVRSTATE = '';
    if (organisation) {
      row.BUSNAME = rng.chance(SHARES.commonName)
        ? `${rng.pick(ORG_STEMS)} ${rng.pick(kinds)}${rng.pick(ORG_SUFFIXES)}`.slice(0, 30)
        : fromList(rng, names);
      row.DOB = '';
    } else {
      row.LASTNAME = rng.chance(SHARES.commonName) ? rng.pick(LAST_NAMES) : fromList(rng, lasts);
      row.FIRSTNAME = rng.chance(SHARES.nppesFirstName)
        ? rng.pick(rng.chance(0.5) ? FEMALE_NAMES : MALE_NAMES)
        : fromList(rng, firsts);
      row.MIDNAME = fromList(rng, middles);
      const year = (template.DOB ?? '').slice(0, 4);
      row.DOB =
        year === ''
          ? ''
          : `${year}${String(rng.int(1, 12)).padStart(2, '0')}${String(rng.int(1, 28)).padStart(2, '0')}`;
    }
    out.push(row);
  }
  return out;
}

/**
 * Writes the list. Deterministic for a seed and an NPPES file.
 * @example await generateLeieFile({ nppesFile: '/tmp/npidata.csv', outFile: nationalLeiePath('/tmp/npidata.csv') })
 */
export async function generateLeieFile(options: GenerateLeieOptions): Promise<GenerateLeieResult> {
  const rows = options.rows ?? NATIONAL_LEIE_ROWS;
  if (!Number.isInteger(rows) || rows < 0 || rows > 10_000_000) throw new Error(`rows must be 0..10,000,000: ${rows}`);
  const sourceDir = options.sourceDir ?? DEFAULT_SOURCE_DIR;
  const rng = createRandom(options.seed ?? 3);
  const files = ['leie.csv', 'leie_head.csv'].map((f) => join(sourceDir, f));
  const headerLine = readFileSync(files[0] as string, 'utf8').split(/\r?\n/, 1)[0] ?? '';
  const header = headerLine.split(',');
  const drawn = drawLeieRows(files.flatMap(readLeieRows), rows, rng);
  // Which rows carry an NPI is drawn first, so that the NPI sample's size is known before the NPPES file is read.
  const carriers = drawn.map(() => rng.chance(SHARES.npi));
  const npis = rng.shuffle(await sampleNppesNpis(options.nppesFile, carriers.filter(Boolean).length, rng));
  let next = 0;
  drawn.forEach((row, i) => {
    if (carriers[i] && next < npis.length) row.NPI = npis[next++] as string;
  });
  const lines = drawn.map((row) => q(header.map((h) => row[h] ?? '')));
  writeFileSync(options.outFile, `${[headerLine, ...lines].join('\n')}\n`);
  const organisations = drawn.filter((r) => r.BUSNAME).length;
  return { rows, individuals: rows - organisations, organisations, with_npi: next };
}

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      nppes: { type: 'string' },
      out: { type: 'string' },
      rows: { type: 'string', default: String(NATIONAL_LEIE_ROWS) },
      seed: { type: 'string', default: '3' },
    },
  });
  if (values.nppes === undefined || values.out === undefined) {
    process.stderr.write(
      'usage: tsx tools/bench-data/generate-leie.ts --nppes FILE --out FILE [--rows N] [--seed S]\n',
    );
    process.exit(2);
  }
  generateLeieFile({
    nppesFile: values.nppes,
    outFile: values.out,
    rows: Number(values.rows),
    seed: Number(values.seed),
  })
    .then((r) => process.stdout.write(`${JSON.stringify({ ...r, file: values.out })}\n`))
    .catch((err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
