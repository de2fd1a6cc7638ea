/**
 * Synthetic NPPES dissemination file for the ETL benchmark, in CMS's exact V2 form: the 330-column header of
 * `nppes_fileheader_v2.csv`, every field double-quoted (empty ones as `""`), `MM/DD/YYYY` dates, LF endings.
 * Every person and organisation in it is synthetic; the NPIs are check-digit-valid but random.
 *
 * Value distributions follow what the real files show (see test/fixtures/source-data/PROVENANCE.md): ~80%
 * individuals, ~1.5% deactivated rows (blank but for NPI and deactivation date), a few reactivated rows, 1-4
 * taxonomy slots with exactly one primary switch `Y`, practice states weighted by population, and practice ZIPs
 * that are real ZIPs of the state, clustered where providers cluster (cities, medical districts), each written with
 * its own city (a real city near its centre or a synthetic town), so that the distinct ZIPs and (state, city) pairs
 * of 914 rows, and the share of rows whose ZIP has a centroid (98.25%), match CMS's sample (./practice-places.ts,
 * ./practice-cities.ts, compared by ./check-places.ts). The mailing address is the practice address for most rows
 * and in another city of the state for a tenth; a fifth of the organisations have an other organisation name
 * (./nppes-row.ts).
 *
 * The column layout is in ./nppes-columns.ts, the value tables in ./nppes-tables.ts, one row's fields in
 * ./nppes-row.ts.
 *
 * The file is written in chunks of a few megabytes, so memory stays flat whatever the row count.
 *
 * CLI: `tsx tools/bench-data/generate-nppes.ts --rows N --out FILE [--seed S]`
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { makeNpi } from '../../data-contracts/npi-check';
import { parseCsvRows } from '../../etl/csv/read';
import { createRandom, createWeightedPicker } from '../demo/random';
import { DEFAULT_SOURCE_DIR } from '../demo/source-facts';
import { US_STATES } from '../demo/us-geography';
import { NPPES_COLUMN_COUNT, resolveColumns } from './nppes-columns';
import { createDateFormatter, DAYS, fillActiveRow, fillSecondaryPlaces } from './nppes-row';
import { SHARES } from './nppes-tables';
import { createTaxonomyPickers } from './nppes-taxonomy';
import { createPlacePicker } from './practice-places';

const CHUNK_CHARS = 4 * 1024 * 1024;
const PROGRESS_EVERY = 250_000;

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
  const secondary = createRandom(((options.seed ?? 1) ^ 0x5bd1e995) >>> 0);
  const stateByCode = new Map(US_STATES.map((s) => [s.code, s] as const));

  // The header line is copied byte for byte from CMS's header file.
  const headerText = readFileSync(join(sourceDir, 'nppes_fileheader_v2.csv'), 'utf8').replace(/\r?\n$/, '');
  const header = parseCsvRows(headerText)[0] ?? [];
  if (header.length !== NPPES_COLUMN_COUNT)
    throw new Error(`expected ${NPPES_COLUMN_COUNT} header columns, got ${header.length}`);
  const col = resolveColumns(header);
  const taxonomy = createTaxonomyPickers(join(sourceDir, 'nucc_taxonomy.csv'));
  const statePicker = createWeightedPicker(US_STATES.map((s) => [s, s.population] as const));
  const placePicker = createPlacePicker(US_STATES);
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
        fillActiveRow(rng, f, col, isOrganisation, taxonomy, { statePicker, placePicker }, formatDay);
        fillSecondaryPlaces(
          secondary,
          f,
          col,
          { statePicker, placePicker },
          stateByCode.get(f[col.practiceState] ?? ''),
        );
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
